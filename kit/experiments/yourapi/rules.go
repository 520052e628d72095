package yourapi

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment/httpload"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// check is a bundle as your-api's rules see it.
type check = tabular.Check[*Params, RunRow]

// earlier reads a bundle of an earlier kit as this kit writes it: a rate over no
// measured interval written 0 was never a measurement, and is read as missing.
func earlier(c *check, file string) {
	if file != RunsFile {
		return
	}
	n := 0
	for i := range c.Runs {
		r, want := &c.Runs[i], DeriveRun(c.Runs[i], nil, *c.Params())
		n += bundle.EarlierZeros([2]*Opt{&r.RequestsPerS, &want.RequestsPerS}, [2]*Opt{&r.RequestsPerSOver, &want.RequestsPerSOver})
	}
	if n > 0 {
		c.Res.Notes = append(c.Res.Notes, verify.Problem{File: RunsFile, Column: "requests_per_s, requests_per_s_over_interval",
			Msg: fmt.Sprintf("%d written 0 by an earlier kit without a measured interval, read as missing (empty)", n)})
	}
}

// rules are your-api's own, beyond the kit's: the manifest says the lines are counted,
// not verified, and names a baseline among its configurations; every run is a
// condition of the plan; the physics of each run (physics); a search's rule
// (Search.Check). It counts the runs a reader must know of (trusted, noisy) and says
// what was measured.
func rules(c *check) {
	p := c.Params()
	res := c.Res
	if c.Bundle.M.(*Manifest).Counted != Counted {
		c.Problem(verify.Problem{File: ManifestFile, Column: "counted", Msg: "the manifest must say that lines are counted, not verified"})
	}
	names := p.ConfigNames()
	if len(names) == 0 || !slices.Contains(names, p.Baseline) {
		c.Problem(verify.Problem{File: ManifestFile, Column: "parameters.baseline", Have: strconv.Quote(p.Baseline), Msg: "not one of the configurations"})
	}
	counts := &res.Counts
	counts.Conditions = len(p.Configs)
	var requests int64
	for _, r := range c.Runs {
		if r.Verified {
			requests += r.Requests
		}
	}
	// Only the open loop's runs can be distrusted for their late sends.
	if p.Load == contract.LoadOpen {
		counts.Trusted = len(slices.DeleteFunc(slices.Clone(c.Runs), func(r RunRow) bool { return !r.Verified || !r.Trusted }))
	}
	physics(c)
	httpload.CheckSeconds(c, RunsFile, SeriesFile, func(r RunRow) (string, httpload.Measured) { return r.RunID, r.Measured })
	res.Described = fmt.Sprintf("%d responses measured, %d per-second rows; log lines counted, not verified", requests, len(tabular.Of[SeriesRow](c.Rows, SeriesFile)))
	if p.Capacity.On() {
		Search.Check(c)
	}
}

// physics holds each run to the kit's physical rules (kit/offline/verify/physics.go)
// beyond those the kit holds every bundle to: the service's, the engine's and the
// generator's CPU within their limits; a closed loop's rate against its latencies
// (Little's law); a run's wall time covering the service's start, the warm-up and the
// measured interval.
func physics(c *check) {
	p := c.Params()
	for i, r := range c.Runs {
		place := c.Res.BreachesAt(RunsFile, c.Lines[RunsFile][i], "run "+r.RunID)
		limit := verify.HostCPUs(c.M.Head().Engine.CPUs, float64(r.HostCPUs)).Of
		host, hostName := limit(0, "")
		if r.CPUMeasured {
			apiCores, apiLimit := limit(p.Limits.APICPUs, "api_cpus")
			place("api_cpu_s", verify.CPUWithin(float64(r.APICPUS), float64(r.CPUIntervalS), apiCores, apiLimit+" (over cpu_interval_s)"))
			place("engine_cpu_s", verify.CPUWithin(float64(r.EngineCPUS), float64(r.CPUIntervalS), host, hostName+" (over cpu_interval_s)"))
		}
		genCores, genLimit := limit(p.Limits.LoadgenCPUs, "loadgen_cpus")
		place("generator_cpu_s", verify.CPUWithin(r.GeneratorCPUS, r.MeasuredS, genCores, genLimit+" (over measured_s)"))
		place("measured_s", verify.MeasuredAsPlanned(r.MeasuredS, p.DurationS, r.Verified))
		// An open loop sends on a schedule, however long its requests take: Little's law
		// bounds only the closed one.
		if r.Load == contract.LoadClosed {
			place("status_2xx", verify.ClosedLoop{Connections: p.Connections, Pipelining: p.Pipelining, Responses: float64(r.Requests), IntervalS: r.MeasuredS,
				MeanMs: float64(r.LatencyMeanMs), MaxMs: float64(r.LatencyMaxMs), Busy: r.Verified, BusyShare: verify.LittleForeignBusyShare}.Check())
		}
		// The service's start, the warm-up and the measured interval, one after the
		// other; a load that never started had no warm-up either.
		if r.MeasuredS > 0 {
			measured := max(r.MeasuredS, r.CPUIntervalS.Or(0))
			place("wall_s", verify.WallCovers(r.WallS, verify.Part{Name: "ready_after_s", Value: r.ReadyAfterS}, verify.Part{Name: "warmup_s", Value: p.WarmupS},
				verify.Part{Name: "the measured interval", Value: measured}))
		}
	}
}
