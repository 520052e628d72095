package fifostall

import (
	"fmt"
	"math"
	"strings"

	"github.com/logbench/logbench/kit/experiments/fifostall/schema"

	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/results/reference"
)

// NotResolved marks a latency figure within a few times the instrument's own send lag
// (schema.Resolved): "~2.37" is a p99 the instrument cannot vouch for to its size.
const NotResolved = "~"

// PublishedLegend explains Published's trust columns and marks, one line each.
var PublishedLegend = []string{
	"verified: runs whose every log byte was read back, of the condition's runs (a redone attempt is not one of them)",
	fmt.Sprintf("trusted: verified runs whose load generator's send-lag p99 kept within the bound; lag_p99_ms is the largest of the condition; %s before a p99: under %g x that lag, not resolved", NotResolved, schema.ResolutionFactor),
	fmt.Sprintf("redone: attempts performed again because their send lag was over the bound (kept in runs.csv, in no figure); noisy: runs during which the host's steal time passed %g%% or its CPU pressure %g%%", schema.NoisyStealPct, schema.NoisyCPUPressurePct),
}

// Published puts a bundle's conditions beside the published figures ("pub") and the
// model's prediction ("model"), one row per condition, with how far each condition's
// figures can be trusted: runs verified and lag-trusted, attempts redone, runs on a
// noisy host, and a p99 not resolved marked NotResolved.
func Published(conds []schema.ConditionRow, pub reference.Figures) compare.Table {
	t := compare.Table{Header: []string{
		"api", "mode", "reader", "verified", "trusted", "redone", "noisy", "lag_p99_ms",
		"p99_ms", "pub", "model", "p99_runs_ms", "pub",
		"drain_s", "pub", "model",
		"rps_to_last_response", "pub", "model",
		"rps_to_logs_read", "pub", "model",
		"backlog_max_kib", "pub", "model",
		"span_log_call_us", "pub",
		"api_cpu_cores", "pub",
		"note",
	}}
	for _, c := range conds {
		look := func(metric string) float64 {
			if v, ok := pub.Lookup(c.Mode, c.Reader, metric); ok {
				return v
			}
			return math.NaN()
		}
		p99 := compare.Figure(float64(c.P99Ms))
		if !c.P99Resolved && p99 != "-" {
			p99 = NotResolved + p99
		}
		t.Rows = append(t.Rows, []string{
			c.API, c.Mode, c.Reader, fmt.Sprintf("%d/%d", c.RunsVerified, c.Runs), fmt.Sprintf("%d/%d", c.RunsTrusted, c.Runs),
			fmt.Sprint(c.RunsSuperseded), fmt.Sprint(c.RunsNoisy), compare.Figure(float64(c.SendLagP99MaxMs)),
			p99, compare.Figure(look("p99_pooled")), compare.Figure(float64(c.PredictedP99Ms)),
			span(float64(c.P99RunMinMs), float64(c.P99RunMaxMs)), span(look("p99_run_min"), look("p99_run_max")),
			compare.Figure(float64(c.DrainS)), compare.Figure(look("drain_mean")), compare.Figure(float64(c.PredictedDrainS)),
			compare.Figure(float64(c.RPSToLastResponse)), compare.Figure(look("rps_to_last_response")), compare.Figure(float64(c.PredictedRPSToLastResponse)),
			compare.Figure(float64(c.RPSToLogsRead)), compare.Figure(look("rps_to_logs_read")), compare.Figure(float64(c.PredictedRPSToLogsRead)),
			compare.Figure(float64(c.BacklogMaxBytes) / 1024), compare.Figure(look("backlog_max") / 1024), compare.Figure(float64(c.PredictedBacklogMaxBytes) / 1024),
			compare.Figure(float64(c.SpanLogCallMeanUs)), compare.Figure(look("span_log_call_mean")),
			compare.Figure(float64(c.APICPUCores)), compare.Figure(look("cpu_cores_mean")),
			trustNote(c),
		})
	}
	return t
}

// trustNote says what a reader must not miss in a condition's row.
func trustNote(c schema.ConditionRow) string {
	var notes []string
	if n := c.Runs - c.RunsVerified; n > 0 {
		notes = append(notes, fmt.Sprintf("%d failed", n))
	}
	if n := c.RunsVerified - c.RunsTrusted; n > 0 {
		notes = append(notes, fmt.Sprintf("%d still untrusted", n))
	}
	if !c.P99Resolved && !math.IsNaN(float64(c.P99Ms)) {
		notes = append(notes, "p99 not resolved")
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
