package yourapi

import (
	"flag"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment/capacitysearch"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// DefaultArrivals is the open loop's arrival process by default: fifo-stall's fixed
// interval.
const DefaultArrivals = contract.ArrivalsConstant

// Search is your-api's capacity search (--capacity, kit/experiment/capacitysearch):
// each configuration searched, against the baseline configuration, each step one run
// of the open loop at the step's rate.
var Search = &capacitysearch.Search[*Params, RunRow]{
	Of:       func(p *Params) *capacitysearch.Capacity { return &p.Capacity },
	Subjects: func(p *Params) []tabular.Cell { return tabular.Product(p.ConfigNames()) },
	Baseline: func(p *Params, _ string) string { return p.Baseline },
	Attempt: func(_ *Params, r RunRow) (capacitysearch.Attempt, bool) {
		a := capacitysearch.Attempt{Subject: r.Config, Step: r.Step, RunID: r.RunID, Superseded: r.Superseded, Data: r.Verified, Number: r.Attempt,
			P50Ms: r.LatencyP50Ms, P99Ms: r.LatencyP99Ms, Errors: r.Errors + r.Non2xx, CarriedRPS: r.RequestsPerSOver, SendLagP99Ms: r.SendLagP99Ms, NetP99Ms: r.NetP99Ms, GeneratorCores: None}
		if r.MeasuredS > 0 {
			a.GeneratorCores = bundle.Opt(r.GeneratorCPUS / r.MeasuredS)
		}
		return a, r.Step != ""
	},
	Generator: func(p *Params) capacitysearch.Generator {
		return capacitysearch.Generator{MaxSendLagP99Ms: p.MaxSendLagP99Ms, CPUs: p.Limits.LoadgenCPUs}
	},
	Retries: func(p *Params) int { return p.Retries },
}

func (p *Params) bindCapacity(fs *flag.FlagSet) {
	p.capacity.Bind(fs, "implies --load open")
	p.capacity.BindArrivals(fs, &p.Arrivals, "--load open")
}

// checkCapacity holds --capacity and its settings, or a manifest's search, to their
// rules: the kit's, and your-api's own, that a search is of the open load at the rates
// it chooses.
func (p Params) checkCapacity() error {
	f := p.capacity
	if err := f.Unused(); err != nil {
		return err
	}
	switch {
	case !f.On() && !p.Capacity.On():
		return nil
	case f.On() && p.given.load && p.Load != contract.LoadOpen:
		return usagef("--capacity needs --load open: it offers fixed rates and times latency from the scheduled send")
	case f.On() && p.given.rate:
		return usagef("--rate: --capacity searches the rate (its first step is --capacity-start)")
	case !f.On() && p.Load != contract.LoadOpen:
		return usagef("capacity: a search needs the open load, not %q", p.Load)
	}
	return f.Check(p.Capacity, p.ConfigNames(), p.Rounds)
}

// settleCapacity makes the flags the manifest's search, searches (--reps) of every
// configuration, each one's first step planned; the open load's rate is the first step's.
func (p *Params) settleCapacity(searches int) {
	f := p.capacity
	p.capacity = capacitysearch.Flags{}
	if !f.On() {
		return
	}
	p.Capacity = f.Settle(p.ConfigNames(), searches)
	p.RateRPS = p.Capacity.FirstRPS()
}

// rateOf is the rate the plan offers in the condition c: its step's, in a search.
func (p Params) rateOf(c tabular.Cell) float64 {
	if c[1] == "" {
		return p.RateRPS
	}
	return Search.RateOf(&p, c)
}
