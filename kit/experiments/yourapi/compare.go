package yourapi

import (
	"fmt"
	"io"
	"slices"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/compare"
)

// metrics are the figures a comparison sets side by side, in its order, each a value
// per pooled run: how it is read from a run, and its unit.
var metrics = []struct {
	compare.Metric
	unit string
	of   func(RunRow) Opt
}{
	{compare.Metric{Name: "requests_per_s", Title: "requests per second", Headline: true}, "req/s", func(r RunRow) Opt { return r.RequestsPerS }},
	{compare.Metric{Name: "p50_run_mean_ms", Title: "median latency (per run)", Wide: true}, "ms", func(r RunRow) Opt { return r.LatencyP50Ms }},
	{compare.Metric{Name: "p99_run_mean_ms", Title: "p99 latency (per run)", Headline: true}, "ms", func(r RunRow) Opt { return r.LatencyP99Ms }},
	{compare.Metric{Name: "cpu_us_per_request", Title: "CPU per request, inside the container + in the engine"}, "us", func(r RunRow) Opt { return r.CPUUsPerReq }},
	{compare.Metric{Name: "api_cpu_us_per_request", Title: "CPU per request inside the container (the service's processes)", Wide: true}, "us", func(r RunRow) Opt { return r.APIUsPerReq }},
	{compare.Metric{Name: "engine_cpu_us_per_request", Title: "CPU per request in the engine (dockerd, containerd, shims)", Wide: true}, "us", func(r RunRow) Opt { return r.EngineUsPerReq }},
	{compare.Metric{Name: "lines_per_request", Title: "log lines per request (counted, not verified)"}, "lines", func(r RunRow) Opt { return r.LinesPerRequest }},
	{compare.Metric{Name: "bytes_per_request", Title: "log bytes per request (counted, not verified)", Wide: true}, "B", func(r RunRow) Opt { return r.BytesPerRequest }},
}

// Metrics are the figures' names and titles, in compare's order.
var Metrics = func() (out []compare.Metric) {
	for _, m := range metrics {
		out = append(out, m.Metric)
	}
	return out
}()

// ServiceKey is the condition key a bundle compared within itself matches its
// configurations by: the service, one for the whole bundle, so that each configuration
// is a column of its own.
const ServiceKey = "service"

// Rows are a bundle's rows for the comparison engine: per configuration (the baseline
// first) and metric, one value per pooled run. A configuration's lines per request are
// marked when a run's lines moved.
func Rows(b *Bundle) []compare.Row {
	p := b.Params()
	if p.Capacity.On() {
		return Search.Rows(p, b.Runs, func(subject string) []compare.KV { return []compare.KV{{Key: "config", Value: subject}} })
	}
	names := append([]string{p.Baseline}, slices.DeleteFunc(p.ConfigNames(), func(n string) bool { return n == p.Baseline })...)
	var rows []compare.Row
	for _, config := range names {
		kvs := []compare.KV{{Key: "config", Value: config}}
		c := cond(drawn{Bundle: b}, config)
		if c == nil { // a baseline no configuration has, which verify refuses
			c = &ConditionRow{LinesSteady: true}
		}
		counted := pooledOf(b.Runs, config)
		for _, m := range metrics {
			runs := compare.OnePerRun(counted, m.of)
			if len(runs) == 0 {
				continue
			}
			row := compare.Measured(kvs, m.Name, m.unit, compare.Mean{}, runs)
			row.Headline = m.Headline // noisy runs the kit marks (tabular.MarkNoisy)
			if (m.Name == "lines_per_request" || m.Name == "bytes_per_request") && !c.LinesSteady {
				row.Marks = []string{"lines per request moved"}
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// legend says what each metric rests on.
var legend = []string{
	"your-api: every figure is one value per run, over the runs that count (verified, trusted and not redone): requests/s as autocannon reports it (the mean of the run's whole seconds), latency the run's own percentile, CPU over the measured interval per response. cpu_us_per_request is inside the container (its processes) + in the engine (dockerd, containerd, the shims).",
	"your-api marks: lines per request moved, a configuration with a run whose lines per request left its median (runs.csv, column mark).",
	"your-api: " + Counted + ".",
}

// Compare sets your-api bundles side by side through tabular's comparison, the first
// the baseline, configuration by configuration. One bundle alone is compared within
// itself: each configuration a column, matched by the service (ServiceKey) every row
// names, set against the baseline configuration its manifest names.
func (e yourAPI) Compare(out, warn io.Writer, sources []experiment.Source, opt experiment.CompareOptions) error {
	if opt.Published {
		return usagef("--published: your-api has no published figures; a bundle's reference is its own baseline configuration (logbench compare BUNDLE sets the others against it)")
	}
	c := e.Comparison(sources)
	if len(sources) == 1 {
		side := c.Side
		c.Side = func(s experiment.Source) (compare.Side, error) {
			sd, err := side(s)
			if err != nil {
				return sd, err
			}
			p := s.Result.Own.(*Bundle).Params()
			if !slices.ContainsFunc(s.Result.Own.(*Bundle).Runs, func(r RunRow) bool { return r.Config == p.Baseline && pooled(r) }) {
				return compare.Side{}, fmt.Errorf("%s: the baseline configuration %s has no run that counts (verified, trusted, not redone): there is nothing to set the others against", s.Label, p.Baseline)
			}
			for i := range sd.Rows {
				sd.Rows[i].Condition = append([]compare.KV{{Key: ServiceKey, Value: p.Image}}, sd.Rows[i].Condition...)
			}
			return sd, nil
		}
		if len(c.Legend) > 0 {
			c.Legend = append(c.Legend, fmt.Sprintf("%s alone: each configuration is a column of its own, [config=NAME], set against the baseline configuration %s; the runs of every configuration were taken in the same rounds on the same host.",
				sources[0].Label, sources[0].Result.Own.(*Bundle).Params().Baseline))
		}
		if len(opt.Match) == 0 {
			opt.Match = []string{ServiceKey}
		}
	}
	return experiment.CompareWith(out, warn, sources, opt, c)
}
