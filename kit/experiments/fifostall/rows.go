package fifostall

import (
	"math"
	"slices"

	"github.com/logbench/logbench/kit/experiment/tabular"

	"github.com/logbench/logbench/kit/offline/compare"
)

// The metrics of a condition's figures, as compare, verify, reproduce and report name
// them. Every one but MetricP99Pooled is a figure over runs: each run's own figure (its
// p99, its drain), then the mean over the condition's verified runs with its Student-t
// interval (compare.Estimate).
const (
	MetricP99 = "p99_ms"
	// MetricP99Pooled is the p99 of every verified run's requests pooled, as the article
	// states its p99 and as the resolution rule (Resolved) tests it: one figure, without
	// an interval over runs.
	MetricP99Pooled         = "p99_pooled_ms"
	MetricP50               = "p50_ms"
	MetricMean              = "mean_ms"
	MetricDrain             = "drain_s"
	MetricRPSToLastResponse = "rps_to_last_response"
	MetricRPSToLogsRead     = "rps_to_logs_read"
	MetricBacklog           = "backlog_max_kib"
	MetricAPICPU            = "api_cpu_cores"
)

// The marks of a figure not to be trusted as it stands (compare.Row.Marks).
const (
	MarkNotResolved      = "p99 not resolved"
	MarkLagUntrustedRuns = "lag-untrusted runs"
)

// Figures are a bundle's figures, one row per condition and metric, for compare, verify,
// reproduce and report alike: per condition (conds, derived from the runs and their
// rows), each verified run's request latencies
// (p99, p50, mean) and its per-run figures (drain, throughputs, largest backlog in KiB,
// API CPU), and the p99 of the pooled requests as a figure without runs. A p99 whose
// pooled requests are not resolved, and the latencies of a condition with untrusted
// runs, are marked.
func Figures(runs []RunRow, rows tabular.Rows, conds []ConditionRow) []compare.Row {
	reqs := tabular.ByRun(tabular.Of[RequestRow](rows, RequestsFile))
	var out []compare.Row
	for _, c := range conds {
		cond := []compare.KV{{Key: "api", Value: c.API}, {Key: "mode", Value: c.Mode}, {Key: "reader", Value: c.Reader}}
		runs := c.Verified(runs)
		lat := Latencies(runs, reqs)
		// A figure of one value a run, each run's whatever it is (NaN too): the mean over runs.
		perRun := func(metric, unit string, of func(r RunRow) float64) compare.Row {
			var values [][]float64
			for _, r := range runs {
				values = append(values, []float64{of(r)})
			}
			return compare.Measured(cond, metric, unit, compare.Mean{}, values)
		}
		var latMarks []string
		if c.RunsVerified > c.RunsTrusted {
			latMarks = append(latMarks, MarkLagUntrustedRuns)
		}
		p99Marks := slices.Clone(latMarks)
		if !c.P99Resolved && !math.IsNaN(float64(c.P99Ms)) {
			p99Marks = append(p99Marks, MarkNotResolved)
		}
		p99 := compare.Measured(cond, MetricP99, "ms", compare.Quantile(99), lat)
		p99.Requests, p99.Marks, p99.Headline = c.Requests, p99Marks, true
		pooled := compare.Fixed(cond, MetricP99Pooled, "ms", float64(c.P99Ms))
		pooled.Stat, pooled.Requests, pooled.Marks = compare.Quantile(99), c.Requests, slices.Clone(p99Marks)
		p50 := compare.Measured(cond, MetricP50, "ms", compare.Quantile(50), lat)
		p50.Marks = latMarks
		mean := compare.Measured(cond, MetricMean, "ms", compare.Mean{}, lat)
		mean.Marks = latMarks
		out = append(out, p99, pooled, p50,
			perRun(MetricDrain, "s", func(r RunRow) float64 { return r.DrainS }),
			perRun(MetricRPSToLogsRead, "req/s", func(r RunRow) float64 { return float64(ratio(float64(r.Requests), r.ToLogsReadS)) }),
			perRun(MetricAPICPU, "cores", func(r RunRow) float64 { return r.APICPUCores }),
			mean,
			perRun(MetricRPSToLastResponse, "req/s", func(r RunRow) float64 { return float64(ratio(float64(r.Requests), r.ToLastResponseS)) }),
			perRun(MetricBacklog, "KiB", func(r RunRow) float64 { return float64(r.BacklogMaxBytes) / 1024 }))
	}
	return out
}

// Latencies are each run's request latencies (reqs: the requests by run), a slice a
// run: what a latency figure is stated over runs from.
func Latencies(runs []RunRow, reqs map[string][]RequestRow) [][]float64 {
	var out [][]float64
	for _, r := range runs {
		l := make([]float64, 0, len(reqs[r.RunID]))
		for _, q := range reqs[r.RunID] {
			l = append(l, q.LatencyMs)
		}
		out = append(out, l)
	}
	return out
}

// ConditionKey names a condition as compare.ConditionName does.
func ConditionKey(api, mode, reader string) string { return api + "/" + mode + "/" + reader }
