// Package httpload declares the columns of a run in which the kit's load generator
// loaded an HTTP service, by its closed loop or its open one: what the generator
// measured over the measured interval, and the rates its per-second counts give. An
// experiment that loads a service so (qps, your-api) embeds them in its row of runs, so
// that these columns have one name, unit and meaning, and are read and derived once.
package httpload

import (
	"math"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/contract/stats"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
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
	LatencyP90Ms  bundle.Opt `csv:"p90_ms" was:"latency_p90_ms" unit:"ms" doc:"90th-percentile latency, nearest rank; missing without responses."`
	LatencyP99Ms  bundle.Opt `csv:"p99_ms" was:"latency_p99_ms" unit:"ms" doc:"99th-percentile latency, nearest rank; missing without responses."`
	LatencyMaxMs  bundle.Opt `csv:"max_ms" was:"latency_max_ms" unit:"ms" doc:"Largest latency of the measured interval; missing without responses."`
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
