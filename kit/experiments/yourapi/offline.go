package yourapi

import (
	"bytes"
	"fmt"
	"html/template"
	"image/color"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/report"
	"github.com/logbench/logbench/kit/offline/verify"
)

// metrics are the figures a comparison sets side by side, each a value per pooled run.
var metrics = []struct {
	compare.Metric
	unit string
	of   func(RunRow) Opt
}{
	{compare.Metric{Name: "requests_per_s", Title: "requests per second"}, "req/s", func(r RunRow) Opt { return r.RequestsPerS }},
	{compare.Metric{Name: "p50_ms", Title: "median latency (per run)", Wide: true}, "ms", func(r RunRow) Opt { return Opt(r.LatencyP50Ms) }},
	{compare.Metric{Name: "p99_ms", Title: "p99 latency (per run)"}, "ms", func(r RunRow) Opt { return Opt(r.LatencyP99Ms) }},
	{compare.Metric{Name: "cpu_us_per_request", Title: "CPU per request, inside + outside the container"}, "us", func(r RunRow) Opt { return r.CPUUsPerReq }},
	{compare.Metric{Name: "lines_per_request", Title: "log lines per request (counted, not verified)"}, "1", func(r RunRow) Opt { return r.LinesPerRequest }},
}

// Rows are a bundle's comparison rows: per configuration and metric, one value per
// pooled run.
func Rows(b *Bundle) []compare.Row {
	var rows []compare.Row
	for _, config := range b.M.Parameters.ConfigNames() {
		cond := []compare.KV{{Key: "config", Value: config}}
		for _, m := range metrics {
			var runs [][]float64
			for _, r := range b.Runs {
				if r.Config == config && pooled(r) && m.of(r).Present() {
					runs = append(runs, []float64{float64(m.of(r))})
				}
			}
			if len(runs) > 0 {
				rows = append(rows, compare.Measured(cond, m.Name, m.unit, compare.Mean{}, runs))
			}
		}
	}
	return rows
}

// Compare sets bundles side by side through the kit's comparison engine, the first the
// baseline: each metric's change with its interval and significance.
func (Experiment) Compare(out, warn io.Writer, sources []experiment.Source, opt experiment.CompareOptions) error {
	if opt.Published {
		return fmt.Errorf("--published: your-api has no published figures; its reference is the baseline configuration")
	}
	var srcs []compare.Source
	var first *Bundle
	var notes compare.Notes
	for _, s := range sources {
		b, err := bundleOf(s.Result)
		if err != nil {
			return err
		}
		p := b.M.Parameters
		if first == nil {
			first = b
		} else if f := first.M.Parameters; f.Load != p.Load || f.Limits != p.Limits || f.Port != p.Port || f.Path != p.Path {
			notes.Warnings = append(notes.Warnings, fmt.Sprintf("%s was measured under another load, path or limits than %s", s.Label, sources[0].Label))
		}
		srcs = append(srcs, compare.Source{Label: s.Label, Rows: Rows(b),
			Host: []compare.KV{{Key: "image", Value: p.Image}, {Key: "host", Value: b.M.Engine.Host}, {Key: "load", Value: p.Load}}})
	}
	for _, w := range notes.Warnings {
		fmt.Fprintln(warn, w)
	}
	var ms []compare.Metric
	for _, m := range metrics {
		ms = append(ms, m.Metric)
	}
	res, err := compare.Compare(srcs, compare.Options{Match: opt.Match, Metrics: ms})
	if err != nil {
		return err
	}
	notes.Legend = append(notes.Legend, Counted)
	return res.Render(out, opt.Format, notes, opt.Wide, 0)
}

// Report writes one bundle as an HTML page: the configurations, the manifest's
// settings and every run.
func (Experiment) Report(w io.Writer, sources []experiment.Source, version string) error {
	if len(sources) != 1 {
		return experiment.Usagef("a your-api report draws one bundle a page (their configurations are the user's own, not shared axes): report them one by one, and set them side by side with compare")
	}
	res := sources[0].Result
	b, err := bundleOf(res)
	if err != nil {
		return err
	}
	var table bytes.Buffer
	if err := b.Summary(&table); err != nil {
		return err
	}
	var problems []string
	for _, p := range res.Problems {
		problems = append(problems, p.String())
	}
	var plots []template.HTML
	for _, f := range []func([]ConditionRow) (string, error){ratePlot, cpuPlot} {
		if svg, err := f(b.Conditions); err == nil && svg != "" {
			plots = append(plots, template.HTML(svg))
		}
	}
	return page.Execute(w, map[string]any{"Name": res.Name, "Summary": res.Summary(), "Problems": problems, "Version": version,
		"M": b.M, "P": b.M.Parameters, "Table": table.String(), "Runs": b.Runs, "Plots": plots})
}

// ratePlot is requests per second per configuration with its interval over runs.
func ratePlot(conds []ConditionRow) (string, error) {
	p := plot.New()
	p.Title.Text = "requests per second by configuration (95% interval over runs)"
	p.Y.Label.Text = "req/s"
	var names []string
	values, xys := plotter.Values{}, plotter.XYs{}
	var errs plotter.YErrors
	for i, c := range conds {
		names = append(names, c.Config)
		v := 0.0
		if c.RequestsPerS.Present() {
			v = float64(c.RequestsPerS)
		}
		values = append(values, v)
		xys = append(xys, plotter.XY{X: float64(i), Y: v})
		lo, hi := 0.0, 0.0
		if c.RequestsPerSLow.Present() {
			lo, hi = v-float64(c.RequestsPerSLow), float64(c.RequestsPerSHigh)-v
		}
		errs = append(errs, struct{ Low, High float64 }{lo, hi})
	}
	if len(names) == 0 {
		return "", nil
	}
	bars, err := plotter.NewBarChart(values, vg.Points(24))
	if err != nil {
		return "", err
	}
	bars.Color = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}
	p.Add(bars)
	if eb, err := plotter.NewYErrorBars(struct {
		plotter.XYs
		plotter.YErrors
	}{xys, errs}); err == nil {
		p.Add(eb)
	}
	p.NominalX(names...)
	return report.SVG(p, vg.Points(160+60*float64(len(names))), vg.Points(280))
}

// cpuPlot is CPU per request inside and outside the container, stacked.
func cpuPlot(conds []ConditionRow) (string, error) {
	p := plot.New()
	p.Title.Text = "CPU per request: inside the container + in the engine"
	p.Y.Label.Text = "us per request"
	var names []string
	in, out := plotter.Values{}, plotter.Values{}
	for _, c := range conds {
		names = append(names, c.Config)
		in = append(in, orZero(c.APIUsPerReq))
		out = append(out, orZero(c.EngineUsPerReq))
	}
	if len(names) == 0 {
		return "", nil
	}
	inBars, err := plotter.NewBarChart(in, vg.Points(24))
	if err != nil {
		return "", err
	}
	outBars, err := plotter.NewBarChart(out, vg.Points(24))
	if err != nil {
		return "", err
	}
	inBars.Color, outBars.Color = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}
	outBars.StackOn(inBars)
	p.Add(inBars, outBars)
	p.Legend.Add("inside (the service's processes)", inBars)
	p.Legend.Add("engine (dockerd, containerd, shims)", outBars)
	p.Legend.Top = true
	p.NominalX(names...)
	return report.SVG(p, vg.Points(160+60*float64(len(names))), vg.Points(280))
}

func orZero(o Opt) float64 {
	if !o.Present() {
		return 0
	}
	return float64(o)
}

var page = template.Must(template.New("your-api").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>logbench your-api: {{.Name}}</title>
<style>body{font-family:"Liberation Sans",Arial,sans-serif;max-width:1200px;margin:2em auto;color:#222}
pre{font-size:12px;overflow-x:auto}table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}
.bad{color:#b00}</style></head><body>
<h1>your-api: {{.P.Image}}</h1>
<p>{{.Summary}}</p>
{{if .Problems}}<ul class="bad">{{range .Problems}}<li>{{.}}</li>{{end}}</ul>{{end}}
<p>image {{.P.Image}} ({{.P.ImageID}}), GET :{{.P.Port}}{{.P.Path}}; engine {{.M.Engine.EngineVersion}} on {{.M.Engine.Host}} ({{.M.Engine.Platform}}, {{.M.Engine.CPUs}} CPUs); kit {{.M.KitVersion}} {{.M.KitCommit}}; report by logbench {{.Version}}</p>
<p><strong>{{.M.Counted}}</strong></p>
<h2>Configurations</h2>
<table><tr><th>config</th><th>env</th><th>command</th></tr>
{{range .P.Configs}}<tr><td>{{.Name}}</td><td>{{range .Env}}{{.}} {{end}}</td><td>{{range .Cmd}}{{.}} {{end}}</td></tr>{{end}}</table>
<pre>{{.Table}}</pre>
{{range .Plots}}{{.}}{{end}}
<p>hardening: read-only root {{.P.Hardening.ReadOnlyRoot}}, user {{if .P.Hardening.User}}{{.P.Hardening.User}}{{else}}the image's{{end}}, capabilities dropped {{.P.Hardening.CapDrop}}{{range .P.Hardening.CapAdd}} +{{.}}{{end}}, no new privileges {{.P.Hardening.NoNewPrivileges}}</p>
<p>CPU: {{.P.CPUHow}}</p>
<h2>Runs</h2>
<table><tr><th>run</th><th>config</th><th>round</th><th>req/s</th><th>p50 ms</th><th>p99 ms</th><th>lines/req</th><th>cpu us/req</th><th>mark</th><th>verified</th></tr>
{{range .Runs}}<tr><td>{{.RunID}}</td><td>{{.Config}}</td><td>{{.Round}}</td><td>{{printf "%.0f" .RequestsPerS}}</td><td>{{printf "%.2f" .LatencyP50Ms}}</td><td>{{printf "%.2f" .LatencyP99Ms}}</td><td>{{printf "%.3f" .LinesPerRequest}}</td><td>{{printf "%.1f" .CPUUsPerReq}}</td><td>{{.Mark}}</td><td>{{if .Verified}}yes{{else}}<span class="bad">{{.Failure}}</span>{{end}}</td></tr>
{{end}}</table>
</body></html>
`))

// Figures are the bundle's figures (Rows), for verify, report and compare alike.
func (Experiment) Figures(res *verify.Result) ([]compare.Row, error) {
	b, err := bundleOf(res)
	if err != nil {
		return nil, err
	}
	return Rows(b), nil
}
