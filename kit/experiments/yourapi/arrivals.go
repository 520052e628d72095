package yourapi

import (
	"flag"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
)

// DefaultArrivals is the open loop's arrival process by default: fifo-stall's fixed
// interval.
const DefaultArrivals = contract.ArrivalsConstant

func (p *Params) bindArrivals(fs *flag.FlagSet) {
	fs.StringVar(&p.Arrivals, "arrivals", p.Arrivals, "the open loop's arrivals: constant (every 1/rate) or poisson (exponential gaps of mean 1/rate, the same seeded schedule in every run; with --load open)")
	experiment.MarkGiven(fs, "arrivals", &p.capacity.givenArrivals)
}

// checkArrivals: an arrival process the generator has, and only for the open load (a
// manifest of the closed load, or written before the flag, has none).
func (p Params) checkArrivals() error {
	switch {
	case p.Arrivals != "" && p.Arrivals != contract.ArrivalsConstant && p.Arrivals != contract.ArrivalsPoisson:
		return usagef("--arrivals %q: want constant or poisson", p.Arrivals)
	case p.capacity.givenArrivals && p.Load != contract.LoadOpen:
		return usagef("--arrivals does nothing with --load %s", p.Load)
	}
	return nil
}
