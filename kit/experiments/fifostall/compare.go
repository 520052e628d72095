package fifostall

import (
	"fmt"
	"slices"
	"strings"

	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/results/reference"
)

// pubSetup is the fifo-stall publication's setup (results/reference): its host for the
// hosts table, its API for its rows, its parameters for the warnings.
var pubSetup = reference.MustSetup(Name)

// Metrics are the experiment's metrics in the order compare shows them; the Wide ones
// only with --wide. The p99 of the pooled requests is shown beside the published
// figures without --wide (publishedMetrics): it is the p99 the article states.
var Metrics = []compare.Metric{
	{Name: MetricP99, Title: "p99 latency"},
	{Name: MetricP99Pooled, Title: "p99 of the pooled requests", Wide: true},
	{Name: MetricP50, Title: "median latency"},
	{Name: MetricDrain, Title: "drain after the last response"},
	{Name: MetricRPSToLogsRead, Title: "throughput to the last log byte read"},
	{Name: MetricAPICPU, Title: "API CPU"},
	{Name: MetricMean, Title: "mean latency", Wide: true},
	{Name: MetricRPSToLastResponse, Title: "throughput to the last response", Wide: true},
	{Name: MetricBacklog, Title: "largest log backlog", Wide: true},
}

// compareLegend says what the test of each metric rests on.
var compareLegend = []string{
	"fifo-stall: each run's figure over its own requests (its p99, p50, mean latency) or of the run (its drain, throughputs, largest backlog, API CPU), then the mean over the condition's verified runs with its t interval; a superseded attempt counts in none. " +
		"The p99 of the pooled requests pools every verified run's requests, as the article states its p99: one figure without an interval over runs, so no change in it is tested.",
	"fifo-stall marks: p99 not resolved, the p99 of the condition's pooled requests is under " + fmt.Sprint(ResolutionFactor) + " x its largest send-lag p99 (the instrument cannot vouch for its p99s to their size); lag-untrusted runs, a condition's latencies when some of its runs' send lag was over the bound (verify names how many).",
}

// publishedMetrics are Metrics with the p99 of the pooled requests shown without --wide.
func publishedMetrics() []compare.Metric {
	out := slices.Clone(Metrics)
	for i := range out {
		if out[i].Name == MetricP99Pooled {
			out[i].Wide = false
		}
	}
	return out
}

// publishedLegend says how the article's figures were taken, beside the bundles'.
const publishedLegend = "fifo-stall published: the article's p99 is of its pooled requests, its throughputs are its runs' requests over their summed time (the bundles': the mean over runs of each run's), its drain and CPU the mean over its runs."

// published are the article's figures as fixed rows, for every condition the bundles
// have, labelled with the API the article measured, and how they were taken. Its p99
// pools its runs' requests: it stands beside the bundles' p99 of the pooled requests,
// never beside their p99 over runs.
func published(bundles []*TabularBundle) ([]compare.Row, []string, []string, error) {
	metrics := []struct{ name, unit, published string }{
		{MetricP99Pooled, "ms", "p99_pooled"}, {MetricDrain, "s", "drain_mean"}, {MetricRPSToLogsRead, "req/s", "rps_to_logs_read"},
		{MetricAPICPU, "cores", "cpu_cores_mean"}, {MetricRPSToLastResponse, "req/s", "rps_to_last_response"},
	}
	type mr struct{ mode, reader string }
	var order []mr
	for _, b := range bundles {
		for _, c := range b.Params().Modes {
			for _, r := range b.Params().Readers {
				if !slices.Contains(order, mr{c, r}) {
					order = append(order, mr{c, r})
				}
			}
		}
	}
	var out []compare.Row
	for _, k := range order {
		cond := []compare.KV{{Key: "api", Value: pubSetup.API}, {Key: "mode", Value: k.mode}, {Key: "reader", Value: k.reader}}
		for _, m := range metrics {
			if v, ok := articleFigures.Lookup(k.mode, k.reader, m.published); ok {
				row := compare.Fixed(cond, m.name, m.unit, v)
				if m.name == MetricP99Pooled {
					row.Stat, row.Requests = compare.Quantile(99), pubSetup.RequestsPerCondition
				}
				out = append(out, row)
			}
		}
	}
	return out, nil, []string{publishedLegend}, nil
}

// runtimes names each API of a bundle with the runtime its image reported.
func runtimes(m Manifest) string {
	var out []string
	for _, api := range m.Parameters.APIs {
		out = append(out, apiRuntime(api, m.Images))
	}
	return strings.Join(out, "; ")
}

// apiRuntime names an API with the runtime its image reported: the image of role
// "api-<name>", or of role "api" when its runtime names the API.
func apiRuntime(api string, images []bundle.Image) string {
	for _, img := range images {
		if img.Runtime == "" {
			continue
		}
		if img.Role == "api-"+api || img.Role == "api" && strings.HasPrefix(strings.ToLower(img.Runtime), strings.ToLower(api)) {
			if strings.HasPrefix(strings.ToLower(img.Runtime), strings.ToLower(api)) {
				return img.Runtime
			}
			return api + " (" + img.Runtime + ")"
		}
	}
	return api
}
