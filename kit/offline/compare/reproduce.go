package compare

import (
	"fmt"
	"math"

	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/results/reference"
)

// Published puts a bundle's conditions beside the published figures ("pub") and the
// model's prediction ("model"), one row per condition.
func Published(conds []bundle.ConditionRow, pub reference.Figures) Table {
	t := Table{Header: []string{
		"api", "mode", "reader", "verified",
		"p99_ms", "pub", "model", "p99_runs_ms", "pub",
		"drain_s", "pub", "model",
		"rps_to_last_response", "pub", "model",
		"rps_to_logs_read", "pub", "model",
		"backlog_max_kib", "pub", "model",
		"span_log_call_us", "pub",
		"api_cpu_cores", "pub",
	}}
	for _, c := range conds {
		look := func(metric string) float64 {
			if v, ok := pub.Lookup(c.Mode, c.Reader, metric); ok {
				return v
			}
			return math.NaN()
		}
		t.Rows = append(t.Rows, []string{
			c.API, c.Mode, c.Reader, fmt.Sprintf("%d/%d", c.RunsVerified, c.Runs),
			Figure(float64(c.P99Ms)), Figure(look("p99_pooled")), Figure(float64(c.PredictedP99Ms)),
			span(float64(c.P99RunMinMs), float64(c.P99RunMaxMs)), span(look("p99_run_min"), look("p99_run_max")),
			Figure(float64(c.DrainS)), Figure(look("drain_mean")), Figure(float64(c.PredictedDrainS)),
			Figure(float64(c.RPSToLastResponse)), Figure(look("rps_to_last_response")), Figure(float64(c.PredictedRPSToLastResponse)),
			Figure(float64(c.RPSToLogsRead)), Figure(look("rps_to_logs_read")), Figure(float64(c.PredictedRPSToLogsRead)),
			Figure(float64(c.BacklogMaxBytes) / 1024), Figure(look("backlog_max") / 1024), Figure(float64(c.PredictedBacklogMaxBytes) / 1024),
			Figure(float64(c.SpanLogCallMeanUs)), Figure(look("span_log_call_mean")),
			Figure(float64(c.APICPUCores)), Figure(look("cpu_cores_mean")),
		})
	}
	return t
}
