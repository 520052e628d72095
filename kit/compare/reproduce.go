package compare

import (
	"fmt"
	"math"

	"github.com/logbench/logbench/kit/bundle"
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
			num(float64(c.P99Ms)), num(look("p99_pooled")), num(float64(c.PredictedP99Ms)),
			span(float64(c.P99RunMinMs), float64(c.P99RunMaxMs)), span(look("p99_run_min"), look("p99_run_max")),
			num(float64(c.DrainS)), num(look("drain_mean")), num(float64(c.PredictedDrainS)),
			num(float64(c.RPSToLastResponse)), num(look("rps_to_last_response")), num(float64(c.PredictedRPSToLastResponse)),
			num(float64(c.RPSToLogsRead)), num(look("rps_to_logs_read")), num(float64(c.PredictedRPSToLogsRead)),
			num(float64(c.BacklogMaxBytes) / 1024), num(look("backlog_max") / 1024), num(float64(c.PredictedBacklogMaxBytes) / 1024),
			num(float64(c.SpanLogCallMeanUs)), num(look("span_log_call_mean")),
			num(float64(c.APICPUCores)), num(look("cpu_cores_mean")),
		})
	}
	return t
}
