// Package httpload declares the columns of a run in which the kit's load generator
// loaded an HTTP service, by its closed loop or its open one: what the generator
// measured over the measured interval, and the rates its per-second counts give. An
// experiment that loads a service so (qps, your-api) embeds them in its row of runs, so
// that these columns have one name, unit and meaning, and are read and derived once.
package httpload

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/contract/stats"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/report"
	"github.com/logbench/logbench/kit/offline/verify"
)

// Measured is the load as the generator measured it. Latencies are per response over the
// measured interval, from the request's send (the closed loop) or its scheduled send
// (the open loop); the per-second counts are the bundle's series.
type Measured struct {
	MeasuredS     float64    `csv:"measured_s" unit:"s" doc:"The measured interval as the load ran, after the warm-up: parameters.duration_s, or less when interrupted; 0 when the load never started."`
	Status2xx     int64      `csv:"status_2xx" unit:"1" doc:"Responses with a 2xx status completed in the measured interval."`
	Non2xx        int64      `csv:"non_2xx" unit:"1" doc:"Responses with any other status completed in the measured interval."`
	Errors        int64      `csv:"no_response" was:"errors" unit:"1" doc:"Requests of the measured interval that got no response (a failed or closed connection, a timeout, a malformed response), plus failed connects."`
	LatencyMeanMs bundle.Opt `csv:"mean_ms" was:"latency_mean_ms" unit:"ms" doc:"Mean latency to the last byte of a response, over the measured interval's responses: from the request's send (the closed loop), or from its scheduled send (the open loop); missing without responses."`
	LatencyP50Ms  bundle.Opt `csv:"p50_ms" was:"latency_p50_ms" unit:"ms" doc:"Median latency, nearest rank, over the measured interval's responses; missing without responses."`
	LatencyP90Ms  bundle.Opt `csv:"p90_ms" was:"latency_p90_ms" unit:"ms" atleast:"p50_ms" doc:"90th-percentile latency, nearest rank; missing without responses."`
	LatencyP99Ms  bundle.Opt `csv:"p99_ms" was:"latency_p99_ms" unit:"ms" atleast:"p90_ms,net_p99_ms" doc:"99th-percentile latency, nearest rank; missing without responses."`
	LatencyMaxMs  bundle.Opt `csv:"max_ms" was:"latency_max_ms" unit:"ms" atleast:"p99_ms,mean_ms" doc:"Largest latency of the measured interval; missing without responses."`
	SendLagP99Ms  bundle.Opt `csv:"send_lag_p99_ms" unit:"ms" doc:"The open loop: 99th percentile of how late requests left once they could (at their schedule, or when their keep-alive connection's previous request ended), the generator's lateness; missing for the closed loop, which schedules nothing (bundles of an earlier kit may hold 0)."`
	NetP99Ms      bundle.Opt `csv:"net_p99_ms" unit:"ms" doc:"The open loop: 99th percentile of each response's latency less its own send lag, what the service and the wait for its connection took; at most p99_ms; missing for the closed loop and without responses."`
	GeneratorCPUS float64    `csv:"generator_cpu_s" unit:"s" doc:"CPU time (user + system, every thread) the load generator used over the measured interval."`
}

// Unmeasured is the load of a run the generator left no figures of: every latency
// missing, never 0, which would read as a figure.
func Unmeasured() Measured {
	var l Measured
	l.latencies(0, 0, 0, 0, 0, 0)
	l.SendLagP99Ms, l.NetP99Ms = bundle.None, bundle.None
	return l
}

// Closed reads the closed loop's figures.
func (l *Measured) Closed(c contract.ClosedLoopResult) {
	l.MeasuredS, l.Status2xx, l.Non2xx, l.Errors, l.GeneratorCPUS = c.MeasuredS, c.Status2xx, c.Non2xx, c.Errors, c.GeneratorCPUS
	l.latencies(c.Status2xx+c.Non2xx, c.LatencyMeanMs, c.LatencyP50Ms, c.LatencyP90Ms, c.LatencyP99Ms, c.LatencyMaxMs)
	l.SendLagP99Ms, l.NetP99Ms = bundle.None, bundle.None
}

// Open reads the open loop's figures: a run that scheduled nothing has no send lag,
// and an earlier generator that reported no net latency has none (0 is no figure).
func (l *Measured) Open(o contract.OpenLoopResult) {
	l.MeasuredS, l.Status2xx, l.Non2xx, l.Errors, l.GeneratorCPUS = o.DurationS, o.Status2xx, o.Non2xx, o.Errors, o.GeneratorCPUS
	responses := o.Status2xx + o.Non2xx
	l.latencies(responses, o.LatencyMeanMs, o.LatencyP50Ms, o.LatencyP90Ms, o.LatencyP99Ms, o.LatencyMaxMs)
	l.SendLagP99Ms = bundle.OptIf(o.Scheduled > 0, o.SendLagP99Ms)
	l.NetP99Ms = bundle.OptIf(responses > 0 && o.NetLatencyP99Ms > 0, o.NetLatencyP99Ms)
}

// latencies are absent without a response, where the generator reports 0.
func (l *Measured) latencies(responses int64, mean, p50, p90, p99, max float64) {
	has := responses > 0
	l.LatencyMeanMs, l.LatencyP50Ms, l.LatencyP90Ms = bundle.OptIf(has, mean), bundle.OptIf(has, p50), bundle.OptIf(has, p90)
	l.LatencyP99Ms, l.LatencyMaxMs = bundle.OptIf(has, p99), bundle.OptIf(has, max)
}

// Rates are the responses of the measured interval and the rates they make, derived
// from the run's per-second counts (Derive), which verify recomputes.
type Rates struct {
	Requests         int64      `csv:"responses" was:"requests" unit:"1" doc:"Responses completed in the measured interval: the sum of the run's rows in series.csv."`
	RequestsPerS     bundle.Opt `csv:"requests_per_s" unit:"req/s" doc:"Autocannon's figure: the mean of the whole seconds' counts in series.csv (requests over measured_s when the interval is shorter than a second); missing without a measured interval (0 in bundles written before)."`
	RequestsPerSOver bundle.Opt `csv:"requests_per_s_over_interval" unit:"req/s" doc:"responses over measured_s; missing when measured_s is 0 (0 in bundles written before, which verify reads as missing)."`
}

// Derive sums a run's series into its responses and rates over measuredS, and returns
// the counts of its whole seconds (WholeSeconds), which the rate autocannon reports is
// the mean of. Without a measured interval there is no rate: missing, not 0.
func (r *Rates) Derive(measuredS float64, series []tabular.SecondRow) (whole []float64) {
	counts := make([]float64, len(series))
	r.Requests = 0
	for i, s := range series {
		r.Requests += s.Requests
		counts[i] = float64(s.Requests)
	}
	r.RequestsPerS, r.RequestsPerSOver = bundle.None, bundle.None
	if measuredS > 0 {
		r.RequestsPerSOver = bundle.Opt(float64(r.Requests) / measuredS)
	}
	whole = counts[:WholeSeconds(measuredS, len(counts))]
	if len(whole) == 0 {
		r.RequestsPerS = r.RequestsPerSOver
	} else {
		r.RequestsPerS = bundle.Opt(stats.Mean(whole))
	}
	return whole
}

// WholeSeconds is how many of a run's n seconds of counts are whole seconds of its
// measured interval of measuredS: an interval a float's rounding left a hair short of a
// whole second counts that second.
func WholeSeconds(measuredS float64, n int) int {
	return min(max(0, int(math.Floor(measuredS+1e-9))), n)
}

// Sections are the report's drawings of every experiment that loads a service so, for
// each category (cats): each run's responses second by second (the table
// tabular.Seconds declared in seriesFile), and the latency percentiles (p50, p90, p99
// and max) on a log scale, the mean over the runs that count (runs) and their range as
// its whisker. open says a bundle's load was the open loop, whose latency counts from
// the scheduled send; measured reads a run's load.
func Sections[P experiment.Params, R any](ds []tabular.Drawn[P, R], cats []string, seriesFile string, open func(p P) bool,
	runs func(d tabular.Drawn[P, R], cat string) []R, measured func(R) Measured) []report.Section {
	from := report.Distinct(ds, func(d tabular.Drawn[P, R]) string {
		if open(d.Params()) {
			return "from each scheduled send: an open loop"
		}
		return "from each send: a closed loop"
	})
	return []report.Section{
		{ID: "series", Title: "Requests per second, second by second",
			Caption: "Each run's responses completed in each second of its measured interval, a line per run" + tabular.PerBundle(ds) + ": a slow first second or a run unlike the others shows here, and the mean hides it.",
			Figures: tabular.SecondPlots(ds, cats, seriesFile, "responses in the second", runs)},
		{ID: "latency", Title: "Latency percentiles",
			Caption: "Each percentile as the load generator measured it over a run's responses (" + strings.Join(from, "; ") + "): the mean over the runs that count (square) and the runs' range (whisker), on a log scale.",
			Figures: latencyFigures(cats, func(of func(Measured) float64) *report.Grouped {
				return tabular.OverRuns(ds, cats, runs, func(r R) float64 { return of(measured(r)) })
			})},
	}
}

// latencyFigures are the charts of the latency percentiles, in order, each category's
// bar on a log scale; group draws one of them, a run's figure read from its load by of.
func latencyFigures(cats []string, group func(of func(Measured) float64) *report.Grouped) []report.Figure {
	var out []report.Figure
	for _, pc := range []struct {
		name string
		of   func(Measured) bundle.Opt
	}{{"p50", func(m Measured) bundle.Opt { return m.LatencyP50Ms }}, {"p90", func(m Measured) bundle.Opt { return m.LatencyP90Ms }},
		{"p99", func(m Measured) bundle.Opt { return m.LatencyP99Ms }}, {"max", func(m Measured) bundle.Opt { return m.LatencyMaxMs }}} {
		of := func(m Measured) float64 { return float64(pc.of(m)) }
		out = append(out, report.Bars("Latency "+pc.name, pc.name+" latency (ms, log scale)", cats, group(of), true))
	}
	return out
}

// Host is how busy the whole host was over the measured interval, beside the load.
type Host struct {
	HostBusyPct bundle.Opt `csv:"host_cpu_busy_pct" unit:"%" doc:"The whole host's busy CPU over the measured interval (/proc/stat), in percent of all its CPUs; missing when the host could not be read."`
	HostCPUs    bundle.Opt `csv:"host_cpus" unit:"1" doc:"The host's CPUs as the conductor counted them; missing when the host was not read (0 in bundles written before)."`
}

// HostOf is the conductor's sample of the host (nil: none) and the CPUs it counted
// as it sampled (0: no count).
func HostOf(h *contract.HostSample, cpus int) Host {
	if h == nil {
		return Host{HostBusyPct: bundle.None, HostCPUs: bundle.None}
	}
	return Host{HostBusyPct: bundle.Opt(h.CPUBusyPct), HostCPUs: bundle.OptIf(cpus > 0, float64(cpus))}
}

// Pooled are a condition's rate and latencies over its runs that count
// (conditions.csv): means over runs, not pooled requests.
type Pooled struct {
	RequestsPerS       bundle.Opt `csv:"requests_per_s" unit:"req/s" doc:"Mean over the runs that count of their requests_per_s; missing without such runs."`
	RequestsPerSCILow  bundle.Opt `csv:"requests_per_s_ci_low" signed:"true" unit:"req/s" doc:"Lower end of the 95% Student-t interval of that mean over runs; missing with fewer than 2 runs."`
	RequestsPerSCIHigh bundle.Opt `csv:"requests_per_s_ci_high" unit:"req/s" doc:"Upper end of the 95% Student-t interval of that mean over runs; missing with fewer than 2 runs."`
	LatencyP50Ms       bundle.Opt `csv:"p50_run_mean_ms" was:"latency_p50_ms" unit:"ms" doc:"Mean over the runs that count of their p50_ms (not a pooled percentile); missing without such runs."`
	LatencyP99Ms       bundle.Opt `csv:"p99_run_mean_ms" was:"latency_p99_ms" unit:"ms" doc:"Mean over the runs that count of their p99_ms (not a pooled percentile); missing without such runs."`
}

// Pool pools the runs that count of a condition, each read by of: every mean over
// the runs that have the figure.
func Pool[R any](runs []R, of func(R) (Rates, Measured)) Pooled {
	var rps, p50, p99 []float64
	add := func(list *[]float64, o bundle.Opt) {
		if o.Present() {
			*list = append(*list, float64(o))
		}
	}
	for _, r := range runs {
		rates, m := of(r)
		add(&rps, rates.RequestsPerS)
		add(&p50, m.LatencyP50Ms)
		add(&p99, m.LatencyP99Ms)
	}
	var c Pooled
	c.RequestsPerS, c.RequestsPerSCILow, c.RequestsPerSCIHigh = bundle.MeanCI(rps)
	c.LatencyP50Ms, c.LatencyP99Ms = bundle.MeanOf(p50), bundle.MeanOf(p99)
	return c
}

// Loops are the loops a conductor reports of a run, either nil: its closed loop, and
// the open loop that replaced it (a capacity search's step, an open load).
type Loops struct {
	Closed *contract.ClosedLoopResult
	Open   *contract.OpenLoopResult
}

// Started says the run got as far as its measured load.
func (l Loops) Started() bool {
	return l.Closed != nil && l.Closed.StartUnixNs != 0 || l.Open != nil && l.Open.StartUnixNs != 0
}

// Seconds are the per-second counts of the measured interval: the open loop's, when
// it replaced the closed one.
func (l Loops) Seconds() []int64 {
	switch {
	case l.Open != nil:
		return l.Open.RequestsPerSecond
	case l.Closed != nil:
		return l.Closed.RequestsPerSecond
	}
	return nil
}

// RuleSeriesSum: the generator counts a response in the second it completed, and as
// 2xx or not, so a run's seconds (tabular.Seconds) and its status counts are one set of
// responses, over the measured interval's seconds.
const RuleSeriesSum = "series-sum"

// CheckSeconds holds every run of runsFile (its ID and its load's figures: measured)
// to its seconds in seriesFile, a table tabular.Seconds declared: they sum to
// status_2xx + non_2xx, one a second of measured_s begun (rule series-sum).
func CheckSeconds[P experiment.Params, R any](c *tabular.Check[P, R], runsFile, seriesFile string, measured func(R) (id string, m Measured)) {
	seconds := tabular.ByRun(tabular.Of[tabular.SecondRow](c.Rows, seriesFile))
	for i, r := range c.Runs {
		id, m := measured(r)
		at := func(column, have, want, msg string) {
			c.Problem(verify.Problem{File: runsFile, Line: c.Lines[runsFile][i], Key: "run " + id, Column: column, Have: have, Want: want, Msg: verify.Rule(RuleSeriesSum, msg)})
		}
		var sum int64
		for _, s := range seconds[id] {
			sum += s.Requests
		}
		if sum != m.Status2xx+m.Non2xx {
			at("status_2xx", strconv.FormatInt(m.Status2xx, 10), strconv.FormatInt(sum-m.Non2xx, 10),
				fmt.Sprintf("%s sums to %d responses over the measured interval; status_2xx + non_2xx must be the same responses", seriesFile, sum))
		}
		if n, want := len(seconds[id]), int(math.Ceil(m.MeasuredS)); m.MeasuredS > 0 && n != want {
			at("measured_s", strconv.FormatFloat(m.MeasuredS, 'g', -1, 64), "", fmt.Sprintf("%s has %d seconds for the run, the measured interval %d", seriesFile, n, want))
		}
	}
}
