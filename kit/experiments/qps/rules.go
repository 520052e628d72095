package qps

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/logbench/logbench/kit/offline/verify"
)

// The rules of what can happen at all (README.md, "What verify checks"): a run that
// breaks one cannot have been observed, however consistent its derived columns are.
const (
	RuleSeriesSum       = "series-sum"          // the series counts every response of the measured interval
	RuleResponsesServed = "responses-served"    // the API counted the requests the generator saw answered
	RuleLines           = "lines-per-request"   // each sink writes one access line per request
	RulePercentiles     = "percentiles-ordered" // p50 <= p90 <= p99 <= max
)

// rules checks every run against the rules, with its series.
func (v *verifier) rules(b *Bundle, lines []int) {
	seriesOf := map[string][]SeriesRow{}
	for _, s := range b.Series {
		seriesOf[s.RunID] = append(seriesOf[s.RunID], s)
	}
	p := b.M.Parameters
	// Requests in flight when a count was taken: the API's reset comes as the measured
	// interval begins while the load goes on, and its report after the load's end.
	inFlight := int64(max(p.Connections, 1) * max(p.Pipelining, 1))
	for i, r := range b.Runs {
		at := func(column, have, want, rule, msg string) {
			v.problem(verify.Problem{File: RunsFile, Line: lines[i], Key: "run " + r.RunID, Column: column, Have: have, Want: want, Msg: verify.Rule(rule, msg)})
		}
		// The generator counts a response in the second it completed, and as 2xx or not:
		// series.csv's counts and the status counts are one set of responses.
		var sum int64
		for _, s := range seriesOf[r.RunID] {
			sum += s.Requests
		}
		if responses := r.Status2xx + r.Non2xx; sum != responses {
			at("status_2xx", strconv.FormatInt(r.Status2xx, 10), strconv.FormatInt(sum-r.Non2xx, 10), RuleSeriesSum,
				fmt.Sprintf("%s sums to %d responses over the measured interval; status_2xx + non_2xx must be the same responses", SeriesFile, sum))
		}
		if n, want := len(seriesOf[r.RunID]), int(math.Ceil(r.MeasuredS)); r.MeasuredS > 0 && n != want {
			at("measured_s", strconv.FormatFloat(r.MeasuredS, 'g', -1, 64), "", RuleSeriesSum,
				fmt.Sprintf("%s has %d seconds for the run, the measured interval %d", SeriesFile, n, want))
		}
		// An absent count is no count at all, not 0: a verified run has the API's report.
		if r.Verified && (!r.APIRequests.Present() || int64(r.APIRequests) < r.Status2xx+r.Non2xx-inFlight) {
			at("api_requests", verify.Number(float64(r.APIRequests)), fmt.Sprintf("at least %d", r.Status2xx+r.Non2xx-inFlight), RuleResponsesServed,
				fmt.Sprintf("the API answered every response the generator counted, but for %d in flight at its reset", inFlight))
		}
		if r.Verified && r.APIRequests.Present() {
			requests := int64(r.APIRequests)
			for _, s := range []struct {
				column string
				lines  int64
				on     bool
			}{
				{"console_lines_written", r.ConsoleLines, hasConsole(r.Config)},
				{"file_lines_written", r.FileLines, hasFile(r.Config)},
			} {
				if !s.on {
					continue
				}
				// The API reads its request count and its line counts one after the other
				// while up to inFlight requests are answered, so either may run ahead of the
				// other by that many (seen: 2 lines ahead of 18,600 requests on a busy host).
				if s.lines > requests+inFlight || s.lines < requests-inFlight {
					at(s.column, strconv.FormatInt(s.lines, 10), fmt.Sprintf("%d ± %d", requests, inFlight), RuleLines,
						fmt.Sprintf("one access line per request since the reset (api_requests), but for %d in flight at the report", inFlight))
				}
			}
		}
		names := []string{"p50_ms", "p90_ms", "p99_ms", "max_ms"}
		ps := []float64{float64(r.LatencyP50Ms), float64(r.LatencyP90Ms), float64(r.LatencyP99Ms), float64(r.LatencyMaxMs)}
		if a, c := verify.Disorder(ps...); a >= 0 {
			at(names[c], verify.Number(ps[c]), "at least "+verify.Number(ps[a]), RulePercentiles, names[c]+" below "+names[a])
		}
		if r.LatencyMeanMs > r.LatencyMaxMs || r.LatencyMeanMs < 0 {
			at("mean_ms", verify.Number(float64(r.LatencyMeanMs)), "0 to max_ms", RulePercentiles, "a mean lies within its sample")
		}
		if a, _ := verify.Disorder(float64(r.WrkLatencyP50Ms), float64(r.WrkLatencyP99Ms)); a >= 0 {
			at("wrk_latency_p99_ms", verify.Number(float64(r.WrkLatencyP99Ms)), "at least "+verify.Number(float64(r.WrkLatencyP50Ms)), RulePercentiles, "wrk_latency_p99_ms below wrk_latency_p50_ms")
		}
	}
}

// signedColumns are the columns that may be negative, by file: differences (what
// remains of the host's busy CPU once the API, the generator and the engine are taken
// out, their counters read at other moments; logging's cost against the none
// condition, which noise may put below it) and the low ends of t-intervals, which reach
// below 0 when runs spread widely.
var signedColumns = map[string][]string{
	RunsFile: {"other_cpu_cores"},
	ConditionsFile: {"other_cpu_cores", "cost_per_request_us", "cost_per_request_api_us", "cost_per_request_engine_us",
		"requests_per_s_ci_low", "wrk_agreement_ci_low"},
}

// physics holds the bundle to the kit's physical rules (verify.RuleTimes and the
// others, kit/offline/verify/physics.go): times, CPU within its limits, the closed
// loop's rate against its latencies (Little's law), wall time against its parts, no
// negative quantity, and every column the manifest says was measured present. now is
// the verifying host's clock.
func (v *verifier) physics(b *Bundle, runLines, seriesLines, condLines []int, absent map[string]map[string]bool, now time.Time) {
	units := DataPackage()
	verify.NonNegative(v.res, RunsFile, runLines, b.Runs, func(r RunRow) string { return "run " + r.RunID }, verify.UnitsOf(units, RunsFile), signedColumns[RunsFile]...)
	verify.NonNegative(v.res, SeriesFile, seriesLines, b.Series, func(s SeriesRow) string { return fmt.Sprintf("run %s, second %d", s.RunID, s.Second) }, verify.UnitsOf(units, SeriesFile))
	verify.NonNegative(v.res, ConditionsFile, condLines, b.Conditions, func(c ConditionRow) string { return "condition " + c.API + "/" + c.Config },
		verify.UnitsOf(units, ConditionsFile), signedColumns[ConditionsFile]...)
	p := b.M.Parameters
	// A bundle whose manifest records the wrk check is no bundle of a kit before it.
	if p.Wrk {
		because := "the manifest's parameters.wrk says wrk loaded the API beside the kit"
		verify.Measured(v.res, RunsFile, absent[RunsFile], columnsAddedBy(RunsFile, kitWrkCheck), because)
		verify.Measured(v.res, ConditionsFile, absent[ConditionsFile], columnsAddedBy(ConditionsFile, kitWrkCheck), because)
	}
	if len(p.WrkConfigs) > 0 {
		because := fmt.Sprintf("the manifest's parameters.wrk_configs says wrk ran in %d configurations", len(p.WrkConfigs))
		verify.Measured(v.res, RunsFile, absent[RunsFile], columnsAddedBy(RunsFile, kitWrkEvery), because)
		verify.Measured(v.res, ConditionsFile, absent[ConditionsFile], columnsAddedBy(ConditionsFile, kitWrkEvery), because)
	}
	spans := make([]verify.Span, len(b.Runs))
	for i, r := range b.Runs {
		spans[i] = verify.Span{File: RunsFile, Line: runLines[i], Key: "run " + r.RunID, Started: r.StartedUTC, WallS: r.WallS}
	}
	verify.Times(v.res, &b.M.Common, spans, now)
	for i, r := range b.Runs {
		line, key := runLines[i], "run "+r.RunID
		place := func(column string, breach *verify.Breach) {
			if breach != nil {
				v.problem(breach.Problem(RunsFile, line, key, column))
			}
		}
		limit := verify.HostCPUs(b.M.Engine.CPUs, float64(r.HostCPUs)).Of
		host, hostName := limit(0, "")
		apiCores, apiLimit := limit(p.Limits.APICPUs, "api_cpus")
		place("api_cpu_user_us", verify.CPUWithin(float64(r.APICPUUserUs+r.APICPUSystemUs)/1e6, float64(r.APIIntervalMs)/1e3, apiCores, apiLimit+" (api_cpu_user_us + api_cpu_system_us over api_interval_ms)"))
		genCores, genLimit := limit(p.Limits.LoadgenCPUs, "loadgen_cpus")
		place("generator_cpu_s", verify.CPUWithin(r.GeneratorCPUS, r.MeasuredS, genCores, genLimit+" (over measured_s)"))
		if r.EngineMeasured {
			place("engine_cpu_s", verify.CPUWithin(float64(r.EngineCPUS), float64(r.EngineIntervalS), host, hostName+" (over engine_interval_s)"))
		}
		place("status_2xx", verify.ClosedLoop{Connections: p.Connections, Pipelining: p.Pipelining, Responses: float64(r.Requests), IntervalS: r.MeasuredS,
			MeanMs: float64(r.LatencyMeanMs), MaxMs: float64(r.LatencyMaxMs), Busy: r.Verified}.Check())
		place("measured_s", verify.MeasuredAsPlanned(r.MeasuredS, p.DurationS, r.Verified))
		// wrk reports no mean; half its requests took at least its median, so the mean is
		// at least half of it. Its connections open as it starts and it counts only what
		// completed: no request straddles its interval.
		if r.WrkRequests.Present() && r.WrkLatencyP50Ms.Present() {
			place("wrk_requests", verify.ClosedLoop{Connections: p.Connections, Pipelining: 1, Responses: float64(r.WrkRequests), IntervalS: float64(r.WrkDurationS),
				MeanMs: float64(r.WrkLatencyP50Ms) / 2}.Check())
		}
		// The warm-up, the measured interval (the API's and the engine's readings span
		// it), and wrk's load, one after the other; a load that never started had no
		// warm-up either.
		if r.MeasuredS > 0 {
			measured := max(r.MeasuredS, nanZero(float64(r.APIIntervalMs)/1e3), nanZero(float64(r.EngineIntervalS)))
			place("wall_s", verify.WallCovers(r.WallS, verify.Part{Name: "warmup_s", Value: p.WarmupS},
				verify.Part{Name: "the measured interval", Value: measured}, verify.Part{Name: "wrk_duration_s", Value: nanZero(float64(r.WrkDurationS))}))
		}
	}
}

// columnsAddedBy are the columns of file the kit named added (addedLater).
func columnsAddedBy(file, kit string) []string {
	var out []string
	for col, by := range addedLater[file] {
		if by == kit {
			out = append(out, col)
		}
	}
	slices.Sort(out)
	return out
}

func nanZero(f float64) float64 {
	if math.IsNaN(f) {
		return 0
	}
	return f
}
