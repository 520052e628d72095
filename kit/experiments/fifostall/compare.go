package fifostall

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/logbench/logbench/kit/experiments/fifostall/schema"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/verify"
	"github.com/logbench/logbench/results/reference"
)

// pubSetup is the fifo-stall publication's setup (results/reference): its host for the
// hosts table, its API for its rows, its parameters for the warnings.
var pubSetup = reference.MustSetup(Name)

// Metrics are the experiment's metrics in the order compare shows them; the Wide ones
// only with --wide.
var Metrics = []compare.Metric{
	{Name: "p99_ms", Title: "p99 latency"},
	{Name: "p50_ms", Title: "median latency"},
	{Name: "drain_s", Title: "drain after the last response"},
	{Name: "rps_to_logs_read", Title: "throughput to the last log byte read"},
	{Name: "api_cpu_cores", Title: "API CPU"},
	{Name: "mean_ms", Title: "mean latency", Wide: true},
	{Name: "rps_to_last_response", Title: "throughput to the last response", Wide: true},
	{Name: "backlog_max_bytes", Title: "largest log backlog, mean over runs", Wide: true},
}

// compareLegend says what the test of each metric rests on.
var compareLegend = []string{
	"fifo-stall: the latencies (p99, p50, mean) pool each run's requests, and the bootstrap draws runs, then requests within each; the drain, throughputs, backlog and CPU are one figure per run, and the bootstrap draws runs. Only verified runs count, never a superseded attempt.",
	"fifo-stall marks: p99 not resolved, a p99 under " + trimFloat(schema.ResolutionFactor) + " x the condition's largest send-lag p99 (the instrument cannot vouch for it to its size); lag-untrusted runs, a condition's latencies when some of its runs' send lag was over the bound (verify names how many).",
}

func trimFloat(v float64) string {
	return strings.TrimRight(strings.TrimRight(compare.Figure(v), "0"), ".")
}

// Compare sets bundles side by side condition by condition with the comparison engine
// (kit/offline/compare), the published figures first with opt.Published.
func (Experiment) Compare(out, warn io.Writer, sources []experiment.Source, opt experiment.CompareOptions) error {
	var labels []string
	var bundles []*schema.Bundle
	for _, s := range sources {
		labels = append(labels, s.Label)
		bundles = append(bundles, schema.Of(s.Result))
	}
	in, err := compareInput(labels, bundles, opt.Published)
	if err != nil {
		return err
	}
	return compare.Write(out, warn, in, compare.Options{Match: opt.Match, Threshold: opt.Threshold}, opt.Format, opt.Wide)
}

// compareInput is the comparison of bundles, labelled, after the published figures
// when published is set.
func compareInput(labels []string, bundles []*schema.Bundle, published bool) (compare.Input, error) {
	in := compare.Input{Experiment: Name, Metrics: Metrics, Legend: compareLegend}
	if published {
		pub, err := reference.Load()
		if err != nil {
			return in, err
		}
		setup := pubSetup
		in.Published = &setup
		in.Sides = append(in.Sides, compare.Side{Label: compare.PublishedLabel, Rows: PublishedRows(pub, bundles),
			Host: compare.PublishedHost(setup)})
	}
	for i, b := range bundles {
		in.Sides = append(in.Sides, compare.Side{Label: labels[i], Rows: Rows(b), Common: &b.Manifest.Common, Manifest: b.Manifest,
			Host: []compare.KV{{Key: "runtime", Value: runtimes(b.Manifest)}}})
	}
	return in, nil
}

// Rows are a fifo-stall bundle's rows for the comparison engine: per condition, each
// verified run's request latencies (p99, p50, mean) and its per-run figures (drain,
// throughputs, backlog, CPU). The throughputs' values are conditions.csv's (requests
// over summed time); their intervals resample the per-run figures. A p99 that is not
// resolved, and the latencies of a condition with untrusted runs, are marked.
func Rows(b *schema.Bundle) []compare.Row {
	var out []compare.Row
	for _, c := range schema.DeriveConditions(b.Runs, b.Manifest.Parameters) {
		cond := []compare.KV{{Key: "api", Value: c.API}, {Key: "mode", Value: c.Mode}, {Key: "reader", Value: c.Reader}}
		var lat [][]float64
		var drain, rpsA, rpsB, backlog, cpu [][]float64
		for _, r := range b.Runs {
			run := r.Run
			if !run.Verified || run.Superseded || run.API != c.API || run.Mode != c.Mode || run.Reader != c.Reader {
				continue
			}
			var l []float64
			for _, q := range r.Requests {
				l = append(l, q.LatencyMs)
			}
			lat = append(lat, l)
			drain = append(drain, []float64{run.DrainS})
			rpsA = append(rpsA, []float64{perSecond(run.Requests, run.ToLastResponseS)})
			rpsB = append(rpsB, []float64{perSecond(run.Requests, run.ToLogsReadS)})
			backlog = append(backlog, []float64{float64(run.BacklogMaxBytes)})
			cpu = append(cpu, []float64{run.APICPUCores})
		}
		var latMarks []string
		if c.RunsVerified > c.RunsTrusted {
			latMarks = append(latMarks, "lag-untrusted runs")
		}
		p99 := compare.Measured(cond, "p99_ms", "ms", compare.Quantile(99), lat)
		p99.Requests = c.Requests
		p99.Marks = slices.Clone(latMarks)
		if !c.P99Resolved && !math.IsNaN(float64(c.P99Ms)) {
			p99.Marks = append(p99.Marks, "p99 not resolved")
		}
		p50 := compare.Measured(cond, "p50_ms", "ms", compare.Quantile(50), lat)
		p50.Marks = latMarks
		mean := compare.Measured(cond, "mean_ms", "ms", compare.Mean{}, lat)
		mean.Marks = latMarks
		a := compare.Measured(cond, "rps_to_last_response", "req/s", compare.Mean{}, rpsA)
		a.Value = float64(c.RPSToLastResponse)
		rb := compare.Measured(cond, "rps_to_logs_read", "req/s", compare.Mean{}, rpsB)
		rb.Value = float64(c.RPSToLogsRead)
		out = append(out, p99, p50, compare.Measured(cond, "drain_s", "s", compare.Mean{}, drain), rb,
			compare.Measured(cond, "api_cpu_cores", "cores", compare.Mean{}, cpu), mean, a,
			compare.Measured(cond, "backlog_max_bytes", "B", compare.Mean{}, backlog))
	}
	return out
}

func perSecond(n int, s float64) float64 {
	if s <= 0 {
		return math.NaN()
	}
	return float64(n) / s
}

// PublishedRows are the article's figures as fixed rows, for every condition the
// bundles have, labelled with the API the article measured.
func PublishedRows(pub reference.Figures, bundles []*schema.Bundle) []compare.Row {
	metrics := []struct{ name, unit, published string }{
		{"p99_ms", "ms", "p99_pooled"}, {"drain_s", "s", "drain_mean"}, {"rps_to_logs_read", "req/s", "rps_to_logs_read"},
		{"api_cpu_cores", "cores", "cpu_cores_mean"}, {"rps_to_last_response", "req/s", "rps_to_last_response"},
	}
	type mr struct{ mode, reader string }
	var order []mr
	for _, b := range bundles {
		for _, c := range b.Manifest.Parameters.Modes {
			for _, r := range b.Manifest.Parameters.Readers {
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
			if v, ok := pub.Lookup(k.mode, k.reader, m.published); ok {
				row := compare.Fixed(cond, m.name, m.unit, v)
				if m.name == "p99_ms" {
					row.Requests = pubSetup.RequestsPerCondition
				}
				out = append(out, row)
			}
		}
	}
	return out
}

// runtimes names each API of a bundle with the runtime its image reported.
func runtimes(m schema.Manifest) string {
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

// Figures are the bundle's figures (Rows), for verify, report and compare alike.
func (Experiment) Figures(res *verify.Result) ([]compare.Row, error) {
	b := schema.Of(res)
	if b == nil {
		return nil, fmt.Errorf("%s: not verified as a bundle of the fifo-stall experiment", res.Name)
	}
	return Rows(b), nil
}
