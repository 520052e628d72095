package qps

import (
	"flag"
	"strings"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/capacitysearch"
	"github.com/logbench/logbench/kit/experiment/tabular"
)

// StepsFile is a capacity search's steps (reproduce qps --capacity).
const StepsFile = capacitysearch.StepsFile

// DefaultMaxSendLagP99Ms is the send-lag p99 past which a step is the generator's
// limit, as your-api's open loop holds it.
const DefaultMaxSendLagP99Ms = 1

// Search is qps's capacity search (--capacity, kit/experiment/capacitysearch): each
// condition (api/config) searched against the same API's none, each step one run of
// the open loop at the step's rate, every access line still read back and verified.
var Search = &capacitysearch.Search[*Params, RunRow]{
	Of:       func(p *Params) *capacitysearch.Capacity { return &p.Capacity },
	Subjects: func(p *Params) []tabular.Cell { return tabular.Product(p.APIs, p.Configs) },
	Baseline: func(_ *Params, subject string) string {
		api, _, _ := strings.Cut(subject, "/")
		return api + "/" + NoLog
	},
	Attempt: func(_ *Params, r RunRow) (capacitysearch.Attempt, bool) {
		return capacitysearch.Attempt{Subject: r.API + "/" + r.Config, Step: r.Step, RunID: r.RunID, Superseded: r.Superseded, Data: r.Verified, Number: r.Attempt,
			P50Ms: r.LatencyP50Ms, P99Ms: r.LatencyP99Ms, Errors: r.Errors + r.Non2xx, CarriedRPS: r.RequestsPerSOver,
			SendLagP99Ms: r.SendLagP99Ms, NetP99Ms: r.NetP99Ms, GeneratorCores: r.GeneratorCores}, r.Step != ""
	},
	Generator: func(p *Params) capacitysearch.Generator {
		return capacitysearch.Generator{MaxSendLagP99Ms: p.MaxSendLagP99Ms, CPUs: p.Limits.LoadgenCPUs}
	},
	Retries: func(p *Params) int { return p.Retries },
}

// DefaultRetries is how often a generator-limited step is performed again: once, as a
// pause of the host, not the generator, is what usually makes one late here.
const DefaultRetries = 1

func (p *Params) bindCapacity(fs *flag.FlagSet) {
	p.capacity.Bind(fs, "the open loop at each step's rate in place of the closed loop, one run a step, no wrk")
	p.capacity.BindArrivals(fs, &p.Arrivals, "--capacity")
	fs.BoolVar(&p.Vegeta, "vegeta", p.Vegeta, "with --capacity: before each step's measured load, vegeta's attacker (github.com/tsenart/vegeta, in the load generator's image) and the kit's open loop each offer half the step's rate at once, for the same duration, on half the connections each, and the summary holds the kit's p50 and p99 against vegeta's over the same seconds")
	experiment.Given(fs, &p.given.retries, func(fs *flag.FlagSet) {
		fs.IntVar(&p.Retries, "retries", DefaultRetries, "perform a run again, up to this many times, while its send-lag p99 is over --max-send-lag (with --capacity: a step that missed its target so, or with the generator at its CPU limit, the generator's limit, before it ends its search; every attempt is kept in the bundle)")
	})
	experiment.Given(fs, &p.given.maxSendLag, func(fs *flag.FlagSet) {
		fs.Var(experiment.Milliseconds(&p.MaxSendLagP99Ms), "max-send-lag", "flag a run as not trustworthy when its send-lag p99 exceeds this (with --capacity: a step over it that misses the target, and would have kept it without each request's send lag, is the load generator's limit, never counted against the API)")
	})
}

// checkCapacity holds --capacity and its settings, or a manifest's search, to their
// rules: the kit's, and qps's own, that a search offers the open loop alone.
func (p Params) checkCapacity() error {
	f := p.capacity
	if err := f.Unused(); err != nil {
		return err
	}
	search := f.On() || p.Capacity.On()
	if err := f.CheckArrivals(p.Arrivals, search, "without --capacity: qps's own load is the closed loop"); err != nil {
		return err
	}
	switch {
	case !search && p.Vegeta:
		return experiment.Usagef("--vegeta: vegeta checks a capacity search's open loop; add --capacity")
	case !search && p.given.maxSendLag:
		return experiment.Usagef("--max-send-lag does nothing without --capacity: qps's own load is the closed loop")
	case !search && p.given.retries:
		return experiment.Usagef("--retries does nothing without --capacity: only a capacity step is performed again")
	case !search:
		return nil
	case f.On() && p.given.pipelining:
		return experiment.Usagef("--pipelining does nothing with --capacity: a search's open loop sends a request on a connection once the previous one is answered")
	case f.On() && p.wrkGiven && p.Wrk:
		return experiment.Usagef("--wrk: wrk offers a closed loop, and a search's steps are open-loop (--wrk=false)")
	case p.Retries < 0 || p.Retries > 10:
		return experiment.Usagef("--retries %d: want 0 to 10", p.Retries)
	case !(p.MaxSendLagP99Ms > 0 && p.MaxSendLagP99Ms <= 60000):
		return experiment.Usagef("--max-send-lag %s: want more than 0 and at most 1m", experiment.FormatSeconds(p.MaxSendLagP99Ms/1e3))
	}
	return f.Check(p.Capacity, Search.Names(&p), p.Rounds)
}

// settleCapacity makes the flags the manifest's search, p.Rounds (--reps) searches of
// each condition, every search's first step planned, one round of the plan, no wrk; without a search, its parameters are empty.
func (p *Params) settleCapacity() {
	f := p.capacity
	p.capacity = capacitysearch.Flags{}
	if !f.On() {
		p.MaxSendLagP99Ms, p.Arrivals, p.Retries = 0, "", 0
		return
	}
	p.Capacity = f.Settle(Search.Names(p), p.Rounds)
	p.Wrk = false
}

// openRate is the rate a run of condition c offers: its step's, in a search; 0 (the
// closed loop) otherwise.
func (p *Params) openRate(c tabular.Cell) float64 {
	if !p.Capacity.On() || len(c) < 3 {
		return 0
	}
	return Search.RateOf(p, c)
}
