package yourapi

import (
	"fmt"
	"math"
	"time"

	"github.com/logbench/logbench/kit/offline/verify"
)

// signedColumns may be negative, by file: what remains of the host's busy CPU once the
// service, the engine and the generator are taken out (their counters are read at
// other moments), a configuration's cost against the baseline's (noise may put it
// below), and the low end of a t-interval over runs.
var signedColumns = map[string][]string{
	RunsFile:       {"other_cpu_cores"},
	ConditionsFile: {"requests_per_s_ci_low", "cost_per_request_us", "cost_per_request_api_us", "cost_per_request_engine_us"},
}

// physics holds the bundle to the kit's physical rules (kit/offline/verify/physics.go):
// no negative quantity; the manifest's and the runs' times in order and within the
// kit's life; the service's, the engine's and the generator's CPU within their limits;
// a closed loop's rate against its latencies (Little's law); a run's wall time covering
// the service's start, the warm-up and the measured interval. now is the verifying
// host's clock.
func physics(res *verify.Result, b *Bundle, runLines, seriesLines, condLines []int, now time.Time) {
	pkg := DataPackage()
	verify.NonNegative(res, RunsFile, runLines, b.Runs, func(r RunRow) string { return "run " + r.RunID }, verify.UnitsOf(pkg, RunsFile), signedColumns[RunsFile]...)
	verify.NonNegative(res, SeriesFile, seriesLines, b.Series, func(s SeriesRow) string { return fmt.Sprintf("run %s, second %d", s.RunID, s.Second) }, verify.UnitsOf(pkg, SeriesFile))
	verify.NonNegative(res, ConditionsFile, condLines, b.Conditions, func(c ConditionRow) string { return "config " + c.Config },
		verify.UnitsOf(pkg, ConditionsFile), signedColumns[ConditionsFile]...)
	spans := make([]verify.Span, len(b.Runs))
	for i, r := range b.Runs {
		spans[i] = verify.Span{File: RunsFile, Line: runLines[i], Key: "run " + r.RunID, Started: r.StartedUTC, WallS: r.WallS}
	}
	verify.Times(res, &b.M.Common, spans, now)
	p := b.M.Parameters
	for i, r := range b.Runs {
		line, key := runLines[i], "run "+r.RunID
		place := func(column string, breach *verify.Breach) {
			if breach != nil {
				res.Problem(breach.Problem(RunsFile, line, key, column))
			}
		}
		limit := verify.HostCPUs(b.M.Engine.CPUs, float64(r.HostCPUs)).Of
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
		if r.Load == "closed" {
			place("status_2xx", verify.ClosedLoop{Connections: p.Connections, Pipelining: p.Pipelining, Responses: float64(r.Requests), IntervalS: r.MeasuredS,
				MeanMs: float64(r.LatencyMeanMs), MaxMs: float64(r.LatencyMaxMs), Busy: r.Verified, BusyShare: verify.LittleForeignBusyShare}.Check())
		}
		// The service's start, the warm-up and the measured interval, one after the
		// other; a load that never started had no warm-up either.
		if r.MeasuredS > 0 {
			measured := max(r.MeasuredS, nanZero(float64(r.CPUIntervalS)))
			place("wall_s", verify.WallCovers(r.WallS, verify.Part{Name: "ready_after_s", Value: r.ReadyAfterS}, verify.Part{Name: "warmup_s", Value: p.WarmupS},
				verify.Part{Name: "the measured interval", Value: measured}))
		}
	}
}

func nanZero(f float64) float64 {
	if math.IsNaN(f) {
		return 0
	}
	return f
}
