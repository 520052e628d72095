package qps

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html/template"
	"image/color"
	"io"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/report"
	"github.com/logbench/logbench/kit/offline/verify"
)

// PublishedLabel is the published figures' column in a comparison.
const PublishedLabel = "published"

// cell is one condition of one source in a comparison.
type cell struct {
	rps, lo, hi, ratio Opt
	runs               string
}

// Compare sets bundles side by side, condition by condition: requests/s with its
// interval and the ratio to console+file, the published figures first with Published.
func (Experiment) Compare(out, warn io.Writer, sources []experiment.Source, opt experiment.CompareOptions) error {
	var labels []string
	table := map[string]map[string]cell{} // condition -> label -> cell
	var order []string
	add := func(label, cond string, c cell) {
		if table[cond] == nil {
			table[cond] = map[string]cell{}
			order = append(order, cond)
		}
		table[cond][label] = c
	}
	if opt.Published {
		pub, err := LoadPublished()
		if err != nil {
			return err
		}
		labels = append(labels, PublishedLabel)
		for _, config := range Configs {
			v, ok := pub.RequestsPerS[config]
			if !ok {
				continue
			}
			r := None
			if cf, ok := pub.RequestsPerS[ConsoleFile]; ok {
				r = Opt(v / cf)
			}
			add(PublishedLabel, NodeAPI+"/"+config, cell{rps: Opt(v), lo: None, hi: None, ratio: r, runs: "-"})
		}
	}
	for _, s := range sources {
		b, err := bundleOf(s.Result)
		if err != nil {
			return err
		}
		labels = append(labels, s.Label)
		if u := UnlikePublished(b.M.Parameters); opt.Published && len(u) > 1 {
			fmt.Fprintf(warn, "%s: %s\n", s.Label, strings.Join(u[:len(u)-1], "; "))
		}
		for _, c := range b.Conditions {
			add(s.Label, c.API+"/"+c.Config, cell{rps: c.RequestsPerS, lo: c.RequestsPerSCILow, hi: c.RequestsPerSCIHigh, ratio: c.RatioToConsoleFile,
				runs: fmt.Sprintf("%d/%d", c.RunsVerified, c.Runs)})
		}
	}
	switch opt.Format {
	case "", "text", "markdown":
		sep := "\t"
		tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
		var w io.Writer = tw
		if opt.Format == "markdown" {
			sep, w = " | ", out
		}
		head := []string{"condition"}
		for _, l := range labels {
			head = append(head, l+" req/s", "95% interval", "ratio", "runs ok")
		}
		line := func(fields []string) {
			if opt.Format == "markdown" {
				fmt.Fprintf(w, "| %s |\n", strings.Join(fields, sep))
				return
			}
			fmt.Fprintln(w, strings.Join(fields, sep))
		}
		line(head)
		if opt.Format == "markdown" {
			line(strings.Split(strings.Repeat("---,", len(head)-1)+"---", ","))
		}
		for _, cond := range order {
			fields := []string{cond}
			for _, l := range labels {
				c, ok := table[cond][l]
				if !ok {
					fields = append(fields, "-", "-", "-", "-")
					continue
				}
				fields = append(fields, num(c.rps, 0), interval(c.lo, c.hi), num(c.ratio, 2), c.runs)
			}
			line(fields)
		}
		return tw.Flush()
	case "csv":
		cw := csv.NewWriter(out)
		cw.Write([]string{"condition", "source", "requests_per_s", "requests_per_s_ci_low", "requests_per_s_ci_high", "ratio_to_console_file", "runs_verified"})
		for _, cond := range order {
			for _, l := range labels {
				if c, ok := table[cond][l]; ok {
					cw.Write([]string{cond, l, csvNum(c.rps), csvNum(c.lo), csvNum(c.hi), csvNum(c.ratio), c.runs})
				}
			}
		}
		cw.Flush()
		return cw.Error()
	case "json":
		type row struct {
			Condition string   `json:"condition"`
			Source    string   `json:"source"`
			RPS       *float64 `json:"requests_per_s"`
			Low       *float64 `json:"requests_per_s_ci_low"`
			High      *float64 `json:"requests_per_s_ci_high"`
			Ratio     *float64 `json:"ratio_to_console_file"`
			Runs      string   `json:"runs_verified"`
		}
		var rows []row
		for _, cond := range order {
			for _, l := range labels {
				if c, ok := table[cond][l]; ok {
					rows = append(rows, row{cond, l, ptr(c.rps), ptr(c.lo), ptr(c.hi), ptr(c.ratio), c.runs})
				}
			}
		}
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	return fmt.Errorf("unknown format %q (known: text, csv, json, markdown)", opt.Format)
}

func csvNum(o Opt) string {
	if !present(o) {
		return ""
	}
	return fmt.Sprint(float64(o))
}

func ptr(o Opt) *float64 {
	if !present(o) {
		return nil
	}
	f := float64(o)
	return &f
}

// Report draws the bundle as one HTML page: the conditions beside the published
// figures, a plot of requests/s with intervals, and every run.
func (Experiment) Report(w io.Writer, res *verify.Result, version string) error {
	b, err := bundleOf(res)
	if err != nil {
		return err
	}
	pub, err := LoadPublished()
	if err != nil {
		return err
	}
	var table bytes.Buffer
	writeTable(&table, b.Conditions)
	plotSVG, err := ratePlot(b.Conditions, pub)
	if err != nil {
		plotSVG = ""
	}
	var problems []string
	for _, p := range res.Problems {
		problems = append(problems, p.String())
	}
	m := b.M
	return page.Execute(w, map[string]any{
		"Name": res.Name, "Summary": res.Summary(), "Problems": problems, "Version": version,
		"M": m, "Params": fmt.Sprintf("%+v", m.Parameters), "Versions": m.Versions,
		"Table": table.String(), "Plot": template.HTML(plotSVG), "Source": pub.Source,
		"Notes": UnlikePublished(m.Parameters), "Runs": b.Runs,
	})
}

var page = template.Must(template.New("qps").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>logbench qps: {{.Name}}</title>
<style>body{font-family:"Liberation Sans",Arial,sans-serif;max-width:1200px;margin:2em auto;color:#222}
pre{font-size:12px;overflow-x:auto}table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}
.bad{color:#b00}</style></head><body>
<h1>qps: requests per second with access logs</h1>
<p>{{.Summary}}</p>
{{if .Problems}}<ul class="bad">{{range .Problems}}<li>{{.}}</li>{{end}}</ul>{{end}}
<p>engine {{.M.Engine.EngineVersion}} on {{.M.Engine.Host}} ({{.M.Engine.Platform}}, {{.M.Engine.CPUs}} CPUs, cgroup v{{.M.Engine.CgroupVersion}}); kit {{.M.KitVersion}} {{.M.KitCommit}}; report by logbench {{.Version}}</p>
<p>parameters: {{.Params}}</p>
{{range $api, $v := .Versions}}<p>{{$api}}: {{range $k, $x := $v}}{{$k}} {{$x}} {{end}}</p>{{end}}
<h2>Conditions beside the published figures</h2>
<pre>{{.Table}}</pre>
<p>published: {{.Source}}</p>
{{range .Notes}}<p>note: {{.}}</p>{{end}}
{{.Plot}}
<h2>Runs</h2>
<table><tr><th>run</th><th>api/config</th><th>round</th><th>req/s</th><th>p50 ms</th><th>p99 ms</th><th>api cores</th><th>console</th><th>file</th><th>verified</th></tr>
{{range .Runs}}<tr><td>{{.RunID}}</td><td>{{.API}}/{{.Config}}</td><td>{{.Round}}</td><td>{{printf "%.0f" .RequestsPerS}}</td><td>{{printf "%.2f" .LatencyP50Ms}}</td><td>{{printf "%.2f" .LatencyP99Ms}}</td><td>{{printf "%.2f" .APICPUCores}}</td><td>{{.ConsoleVerified}}</td><td>{{.FileVerified}}</td><td>{{if .Verified}}yes{{else}}<span class="bad">{{.Failure}}</span>{{end}}</td></tr>
{{end}}</table>
</body></html>
`))

// ratePlot is requests/s per condition, measured (with its interval) beside published.
func ratePlot(conds []ConditionRow, pub Published) (string, error) {
	p := plot.New()
	p.Title.Text = "requests per second by configuration"
	p.Y.Label.Text = "req/s"
	var names []string
	measured, published := plotter.Values{}, plotter.Values{}
	var errs plotter.YErrors
	for _, c := range conds {
		names = append(names, c.API+" "+c.Config)
		measured = append(measured, orZero(c.RequestsPerS))
		lo, hi := 0.0, 0.0
		if present(c.RequestsPerSCILow) {
			lo, hi = float64(c.RequestsPerS-c.RequestsPerSCILow), float64(c.RequestsPerSCIHigh-c.RequestsPerS)
		}
		errs = append(errs, struct{ Low, High float64 }{lo, hi})
		published = append(published, orZero(c.PublishedReqPerS))
	}
	if len(names) == 0 {
		return "", nil
	}
	w := vg.Points(18)
	mb, err := plotter.NewBarChart(measured, w)
	if err != nil {
		return "", err
	}
	mb.Color, mb.Offset = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, -w/2
	pb, err := plotter.NewBarChart(published, w)
	if err != nil {
		return "", err
	}
	pb.Color, pb.Offset = color.RGBA{R: 0xbb, G: 0xbb, B: 0xbb, A: 0xff}, w/2
	p.Add(mb, pb)
	xys := make(plotter.XYs, len(measured))
	for i := range measured {
		xys[i].X, xys[i].Y = float64(i)-0.0, measured[i]
	}
	eb, err := plotter.NewYErrorBars(struct {
		plotter.XYs
		plotter.YErrors
	}{xys, errs})
	if err == nil {
		eb.XYs = shift(eb.XYs, -0.18)
		p.Add(eb)
	}
	p.Legend.Add("measured (95% interval)", mb)
	p.Legend.Add("published (seed 004)", pb)
	p.Legend.Top = true
	p.NominalX(names...)
	return report.SVG(p, vg.Points(140+70*float64(len(names))), vg.Points(300))
}

func shift(xys plotter.XYs, dx float64) plotter.XYs {
	out := make(plotter.XYs, len(xys))
	for i, p := range xys {
		out[i] = plotter.XY{X: p.X + dx, Y: p.Y}
	}
	return out
}
