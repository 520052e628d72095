package qps

import (
	"fmt"
	"math"
	"strconv"

	"github.com/logbench/logbench/kit/offline/verify"
)

// The rules of what can happen at all (README.md, "What verify checks"): a run that
// breaks one cannot have been observed, however consistent its derived columns are.
const (
	RuleSeriesSum       = "series-sum"          // the series counts every response of the measured interval
	RuleResponsesServed = "responses-served"    // the API counted the requests the generator saw answered
	RuleLines           = "lines-per-request"   // each sink writes one access line per request
	RulePercentiles     = "percentiles-ordered" // p50 <= p90 <= p99 <= max
	RuleCPU             = "cpu-non-negative"    // CPU times are never negative
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
		// An absent figure (not measured) is neither negative nor 0: it is skipped.
		for _, c := range []struct {
			column string
			value  Opt
		}{
			{"generator_cpu_s", Opt(r.GeneratorCPUS)}, {"api_cpu_user_us", r.APICPUUserUs}, {"api_cpu_system_us", r.APICPUSystemUs},
			{"engine_cpu_s", r.EngineCPUS}, {"engine_dockerd_cpu_s", r.EngineDockerdS}, {"api_interval_ms", r.APIIntervalMs}, {"engine_interval_s", r.EngineIntervalS},
		} {
			if c.value.Present() && c.value < 0 {
				at(c.column, verify.Number(float64(c.value)), "0 or more", RuleCPU, "CPU time and its interval are never negative")
			}
		}
	}
}
