package fifostall

import (
	"fmt"
	"math"
	"strings"

	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/results/reference"
)

// NotResolved marks a latency figure within a few times the instrument's own send lag
// (Resolved): "2.37?" is a p99 the instrument cannot vouch for to its size. It is
// compare's mark of a figure not to be trusted as it stands, after the value as there;
// "~" is compare's "no change".
const NotResolved = "?"

// markNotResolved puts NotResolved after a figure's value, before its interval.
func markNotResolved(figure string) string {
	if value, interval, ok := strings.Cut(figure, " "); ok {
		return value + NotResolved + " " + interval
	}
	return figure + NotResolved
}

// PublishedLegend explains Published's columns and marks, one line each.
var PublishedLegend = []string{
	"p99_ms, drain_s, rps_*, backlog_max_kib, api_cpu_cores: each run's figure, then the mean over the condition's verified runs with its 95% Student-t interval over runs, as verify, compare and report state them (one run: no interval); p99_runs_ms: the range of the runs' p99s; model: the FIFO arithmetic's figure of a run",
	fmt.Sprintf("p99_pooled_ms: the p99 of every verified run's requests pooled, as the article states its p99 (its pub beside it), without an interval; %s after a p99: the p99 of the pooled requests is under %g x lag_p99_ms, so neither p99 is resolved", NotResolved, ResolutionFactor),
	"pub: the article's throughputs are its runs' requests over their summed time, its drain and CPU the mean over its runs",
	"verified: runs whose every log byte was read back, of the condition's runs (a redone attempt is not one of them)",
	"trusted: verified runs whose load generator's send-lag p99 kept within the bound; lag_p99_ms is the largest of the condition",
	fmt.Sprintf("redone: attempts performed again because their send lag was over the bound (kept in runs.csv, in no figure); noisy: runs during which the host's steal time passed %g%% or its CPU pressure %g%%", NoisyStealPct, NoisyCPUPressurePct),
}

// Published puts a bundle's conditions beside the published figures ("pub") and the
// model's prediction ("model"), one row per condition, with how far each condition's
// figures can be trusted: runs verified and lag-trusted, attempts redone, runs on a
// noisy host, and a p99 not resolved marked NotResolved. Each figure is the one compare
// states (Figures); the p99 of the pooled requests stands apart, beside the
// article's, which is of pooled requests too.
func Published(b *TabularBundle, pub reference.Figures) compare.Table {
	t := compare.Table{Header: []string{
		"api", "mode", "reader", "verified", "trusted", "redone", "noisy", "lag_p99_ms",
		"p99_ms", "model", "p99_runs_ms", "pub",
		"p99_pooled_ms", "pub",
		"drain_s", "pub", "model",
		"rps_to_last_response", "pub", "model",
		"rps_to_logs_read", "pub", "model",
		"backlog_max_kib", "pub", "model",
		"span_log_call_us", "pub",
		"api_cpu_cores", "pub",
		"note",
	}}
	conds := Conditions(b)
	figures := compare.StatedOf(Figures(b.Runs, b.Rows, conds))
	for _, c := range conds {
		look := func(metric string) float64 {
			if v, ok := pub.Lookup(c.Mode, c.Reader, metric); ok {
				return v
			}
			return math.NaN()
		}
		est := func(metric string) string {
			return figures.Of(ConditionKey(c.API, c.Mode, c.Reader), metric).Stated()
		}
		p99, pooled := est(MetricP99), compare.Figure(float64(c.P99Ms))
		if !c.P99Resolved && pooled != "-" {
			p99, pooled = markNotResolved(p99), markNotResolved(pooled)
		}
		t.Rows = append(t.Rows, []string{
			c.API, c.Mode, c.Reader, fmt.Sprintf("%d/%d", c.RunsVerified, c.Runs), fmt.Sprintf("%d/%d", c.RunsTrusted, c.Runs),
			fmt.Sprint(c.RunsSuperseded), fmt.Sprint(c.RunsNoisy), compare.Figure(float64(c.SendLagP99MaxMs)),
			p99, compare.Figure(float64(c.PredictedP99Ms)), span(float64(c.P99RunMinMs), float64(c.P99RunMaxMs)), span(look("p99_run_min"), look("p99_run_max")),
			pooled, compare.Figure(look("p99_pooled")),
			est(MetricDrain), compare.Figure(look("drain_mean")), compare.Figure(float64(c.PredictedDrainS)),
			est(MetricRPSToLastResponse), compare.Figure(look("rps_to_last_response")), compare.Figure(float64(c.PredictedRPSToLastResponse)),
			est(MetricRPSToLogsRead), compare.Figure(look("rps_to_logs_read")), compare.Figure(float64(c.PredictedRPSToLogsRead)),
			est(MetricBacklog), compare.Figure(look("backlog_max") / 1024), compare.Figure(float64(c.PredictedBacklogMaxBytes) / 1024),
			compare.Figure(float64(c.SpanLogCallMeanUs)), compare.Figure(look("span_log_call_mean")),
			est(MetricAPICPU), compare.Figure(look("cpu_cores_mean")),
			trustNote(c),
		})
	}
	return t
}

// trustNote says what a reader must not miss in a condition's row.
func trustNote(c ConditionRow) string {
	var notes []string
	if n := c.Runs - c.RunsVerified; n > 0 {
		notes = append(notes, fmt.Sprintf("%d failed", n))
	}
	if n := c.RunsVerified - c.RunsTrusted; n > 0 {
		notes = append(notes, fmt.Sprintf("%d still untrusted", n))
	}
	if !c.P99Resolved && !math.IsNaN(float64(c.P99Ms)) {
		notes = append(notes, MarkNotResolved)
	}
	if c.RunsVerified == 1 {
		notes = append(notes, "one run: no intervals")
	}
	return strings.Join(notes, "; ")
}

// span formats a min..max range.
func span(lo, hi float64) string {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return "-"
	}
	return compare.Figure(lo) + "–" + compare.Figure(hi)
}
