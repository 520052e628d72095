package qps

import (
	"fmt"
	"math"
	"strconv"

	"github.com/logbench/logbench/kit/experiment/capacitysearch"
	"github.com/logbench/logbench/kit/experiment/httpload"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// The rules of what can happen at all (README.md, "What verify checks"): a run that
// breaks one cannot have been observed, however consistent its derived columns are.
const (
	RuleSeriesSum       = httpload.RuleSeriesSum // the series counts every response of the measured interval
	RuleResponsesServed = "responses-served"     // the API counted the requests the generator saw answered
	RuleLines           = "lines-per-request"    // each sink writes one access line per request
)

// rules holds a bundle that reads and whose derived columns and conditions are what
// its runs give to what can happen at all: every run a condition of its parameters,
// then the rules below and the kit's physical ones; it counts and
// describes the bundle, and names what weakens its figures.
func rules(c *tabular.Check[*Params, RunRow]) {
	p := *c.Params()
	requests := 0
	for _, r := range c.Runs {
		if r.Verified {
			requests += int(r.Requests)
		}
	}
	httpload.CheckSeconds(c, RunsFile, SeriesFile, func(r RunRow) (string, httpload.Measured) { return r.RunID, r.Measured })
	runRules(c)
	physics(c)
	c.Res.Described = fmt.Sprintf("%d requests, %d per-second rows", requests, len(tabular.Of[SeriesRow](c.Rows, SeriesFile)))
	weakened(c)
	if p.Capacity.On() {
		Search.Check(c)
	}
}

// runRules checks every run against the rules.
func runRules(c *tabular.Check[*Params, RunRow]) {
	p, lines := *c.Params(), c.Lines[RunsFile]
	// Requests in flight when a count was taken: the API's reset comes as the measured
	// interval begins while the load goes on, and its report after the load's end.
	inFlight := int64(max(p.Connections, 1) * max(p.Pipelining, 1))
	for i, r := range c.Runs {
		at := func(column, have, want, rule, msg string) {
			c.Problem(verify.Problem{File: RunsFile, Line: lines[i], Key: "run " + r.RunID, Column: column, Have: have, Want: want, Msg: verify.Rule(rule, msg)})
		}
		// An absent count is no count at all, not 0: a verified run has the API's report.
		if r.Verified && (!r.APIRequests.Present() || int64(r.APIRequests) < r.Status2xx+r.Non2xx-inFlight) {
			at("api_requests", verify.Number(float64(r.APIRequests)), fmt.Sprintf("at least %d", r.Status2xx+r.Non2xx-inFlight), RuleResponsesServed,
				fmt.Sprintf("the API answered every response the generator counted, but for %d in flight at its reset", inFlight))
		}
		// wrk after the kit: the API answered every request wrk counted, and at most the
		// connections' requests more (in flight when wrk stopped): the API's count checks
		// wrk's as it checks the kit's.
		if r.Verified && r.WrkAPIRequests.Present() && r.WrkRequests.Present() {
			if d := int64(r.WrkAPIRequests) - int64(r.WrkRequests); d < 0 || d > inFlight {
				at("wrk_api_requests", verify.Number(float64(r.WrkAPIRequests)), fmt.Sprintf("%s to %d", verify.Number(float64(r.WrkRequests)), int64(r.WrkRequests)+inFlight), RuleResponsesServed,
					fmt.Sprintf("the API answered every request wrk counted (wrk_requests), and at most %d more in flight when wrk stopped", inFlight))
			}
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
	}
}

// physics holds the bundle to the kit's physical rules beyond those every tabular
// bundle is held to (no negative quantity but the columns tagged signed, the runs'
// times): CPU within its limits, the closed loop's rate against its latencies
// (Little's law), wall time against its parts, and every column the manifest says was
// measured present (kit/offline/verify/physics.go).
func physics(c *tabular.Check[*Params, RunRow]) {
	b, runLines := c.Bundle, c.Lines[RunsFile]
	p, m := *b.Params(), b.M.(*Manifest)
	// A bundle whose manifest records the wrk check is no bundle of a kit before it.
	if p.Wrk {
		c.AddedBy(kitWrkCheck, "the manifest's parameters.wrk says wrk loaded the API beside the kit")
	}
	if len(p.WrkConfigs) > 0 {
		c.AddedBy(kitWrkEvery, fmt.Sprintf("the manifest's parameters.wrk_configs says wrk ran in %d configurations", len(p.WrkConfigs)))
	}
	for i, r := range b.Runs {
		place := c.Res.BreachesAt(RunsFile, runLines[i], "run "+r.RunID)
		limit := verify.HostCPUs(m.Engine.CPUs, float64(r.HostCPUs)).Of
		host, hostName := limit(0, "")
		apiCores, apiLimit := limit(p.Limits.APICPUs, "api_cpus")
		place("api_cpu_user_us", verify.CPUWithin(float64(r.APICPUUserUs+r.APICPUSystemUs)/1e6, float64(r.APIIntervalMs)/1e3, apiCores, apiLimit+" (api_cpu_user_us + api_cpu_system_us over api_interval_ms)"))
		genCores, genLimit := limit(p.Limits.LoadgenCPUs, "loadgen_cpus")
		place("generator_cpu_s", verify.CPUWithin(r.GeneratorCPUS, r.MeasuredS, genCores, genLimit+" (over measured_s)"))
		if r.EngineMeasured {
			place("engine_cpu_s", verify.CPUWithin(float64(r.EngineCPUS), float64(r.EngineIntervalS), host, hostName+" (over engine_interval_s)"))
		}
		// An open loop (a search's step) sends on a schedule, however long its requests
		// take: Little's law bounds only the closed one.
		if r.Step == "" {
			place("status_2xx", verify.ClosedLoop{Connections: p.Connections, Pipelining: p.Pipelining, Responses: float64(r.Requests), IntervalS: r.MeasuredS,
				MeanMs: float64(r.LatencyMeanMs), MaxMs: float64(r.LatencyMaxMs), Busy: r.Verified}.Check())
		}
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
			measured := max(r.MeasuredS, r.APIIntervalMs.Or(0)/1e3, r.EngineIntervalS.Or(0))
			place("wall_s", verify.WallCovers(r.WallS, verify.Part{Name: "warmup_s", Value: p.WarmupS},
				verify.Part{Name: "the measured interval", Value: measured}, verify.Part{Name: "wrk_duration_s", Value: r.WrkDurationS.Or(0)}))
		}
	}
}

// The kits that added columns, as addedLater names them.
const (
	kitWrkCheck = "the wrk check"
	kitWrkEvery = "wrk checked every configuration"
	kitCapacity = "runs named their capacity search's step"
	kitNetP99   = "runs gave their p99 less the generator's send lag"
	kitVegeta   = "capacity steps could be checked by vegeta"
	kitSearches = capacitysearch.SearchesAdded
	kitWrkCount = "wrk's requests were counted by the API and its CPU by the engine"
	kitRetries  = "capacity steps could be performed again"
)

// addedLater are the columns a bundle of an earlier kit lacks (in runs.csv and
// conditions.csv alike), and what added them: the wrk check's, then its interval and
// counts per condition, then a capacity search's step and send lag.
var addedLater = map[string]string{"wrk_requests": kitWrkCheck, "wrk_duration_s": kitWrkCheck, "wrk_requests_per_s": kitWrkCheck, "wrk_latency_p50_ms": kitWrkCheck,
	"wrk_latency_p99_ms": kitWrkCheck, "wrk_errors": kitWrkCheck, "wrk_failure": kitWrkCheck, "wrk_agreement": kitWrkCheck,
	"wrk_host_cpu_busy_pct": kitWrkEvery, "wrk_after_kit": kitWrkEvery,
	"wrk_agreement_ci_low": kitWrkEvery, "wrk_agreement_ci_high": kitWrkEvery, "runs_wrk": kitWrkEvery, "runs_wrk_agreeing": kitWrkEvery,
	"step": kitCapacity, "send_lag_p99_ms": kitCapacity, "net_p99_ms": kitNetP99, "search": kitSearches,
	"wrk_api_requests": kitWrkCount, "wrk_cpu_s": kitWrkCount, "wrk_cpu_cores": kitWrkCount, "attempt": kitRetries, "superseded": kitRetries,
	"vegeta_requests": kitVegeta, "vegeta_success": kitVegeta, "vegeta_p50_ms": kitVegeta, "vegeta_p99_ms": kitVegeta, "vegeta_failure": kitVegeta,
	"vegeta_kit_p50_ms": kitVegeta, "vegeta_kit_p99_ms": kitVegeta, "vegeta_kit_net_p50_ms": kitVegeta, "vegeta_kit_net_p99_ms": kitVegeta}

// earlier reads what an earlier kit spelled otherwise as this kit spells it, and notes
// it: a check spelled "-" (no such log) as the missing value it is; the derived figures
// written 0 where they are undefined (bundle.EarlierZeros) as absent.
func earlier(c *tabular.Check[*Params, RunRow], file string) {
	n := 0
	switch file {
	case RunsFile:
		for i := range c.Runs {
			for _, check := range []*string{&c.Runs[i].ConsoleVerified, &c.Runs[i].FileVerified} {
				if *check == "-" {
					*check, n = "", n+1
				}
			}
		}
		if n > 0 {
			c.Res.Notes = append(c.Res.Notes, verify.Problem{File: RunsFile, Column: "console_check, file_check",
				Msg: fmt.Sprintf("%d checks spelled - by an earlier kit, read as missing (empty)", n)})
		}
	case SeriesFile:
		seriesOf := tabular.ByRun(tabular.Of[SeriesRow](c.Rows, SeriesFile))
		for i := range c.Runs {
			r, want := &c.Runs[i], DeriveRun(c.Runs[i], seriesOf[c.Runs[i].RunID], c.Params().NonBlocking)
			n += bundle.EarlierZeros([2]*Opt{&r.RequestsPerS, &want.RequestsPerS}, [2]*Opt{&r.RequestsPerSStdev, &want.RequestsPerSStdev},
				[2]*Opt{&r.RequestsPerSOver, &want.RequestsPerSOver}, [2]*Opt{&r.GeneratorCores, &want.GeneratorCores})
		}
		if n > 0 {
			c.Res.Notes = append(c.Res.Notes, verify.Problem{File: RunsFile, Column: "requests_per_s, requests_per_s_stdev, requests_per_s_over_interval, generator_cpu_cores",
				Msg: fmt.Sprintf("%d figures written 0 by an earlier kit where they are undefined (no measured interval, or no whole second), read as missing (empty)", n)})
		}
	}
}

// weakened names what weakens the figures of a bundle that verifies: noisy runs, rates
// wrk does not confirm, a load generator that used its whole CPU, wide intervals.
func weakened(c *tabular.Check[*Params, RunRow]) {
	var busy, unconfirmed, noWrk, verified int
	for _, r := range c.Runs {
		if !r.Verified {
			continue
		}
		verified++
		if r.GeneratorBusy {
			busy++
		}
		switch a := float64(r.WrkAgreement); {
		case math.IsNaN(a):
			noWrk++
		case !WrkAgrees(a):
			unconfirmed++
		}
	}
	w := &c.Res.Weakened
	if busy > 0 {
		*w = append(*w, fmt.Sprintf("%d runs had a load generator using its whole CPU: their rate may be the generator's, not the API's", busy))
	}
	if unconfirmed > 0 {
		*w = append(*w, fmt.Sprintf("%d runs' rates are NOT CONFIRMED by wrk (outside 1 ± %g)", unconfirmed, WrkTolerance))
	}
	// Some verified runs without wrk's figure where others have one; a bundle whose runs
	// had no wrk at all says so in its manifest (unmeasured), not here.
	if noWrk > 0 && noWrk < verified {
		*w = append(*w, fmt.Sprintf("%d verified runs have no wrk figure to check their rate against", noWrk))
	}
}
