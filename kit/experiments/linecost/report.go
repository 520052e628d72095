package linecost

import (
	"bytes"
	"fmt"
	"html/template"
	"image/color"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/logbench/logbench/kit/offline/report"
	"github.com/logbench/logbench/kit/offline/verify"
)

// Colours of the report's style (kit/offline/report): Okabe and Ito, apart for the
// colour-blind and in grey.
var (
	langColour = map[string]color.Color{Go: color.RGBA{0, 114, 178, 255}, Python: color.RGBA{230, 159, 0, 255}, Node: color.RGBA{0, 158, 115, 255}}
	pubColour  = color.RGBA{120, 120, 120, 255}
	lightGrey  = color.RGBA{225, 225, 225, 255}
	sans       = font.Font{Typeface: "Liberation", Variant: "Sans"}
)

// Report writes one bundle as a self-contained HTML page: the verification, the
// table beside the published figures, the orderings, and a plot of every way's time
// per line (log axis) with its interval.
func (Experiment) Report(w io.Writer, res *verify.Result, version string) error {
	b, err := bundleOf(res)
	if err != nil {
		return err
	}
	pub, err := LoadPublished()
	if err != nil {
		return err
	}
	var table, orderings bytes.Buffer
	WriteTable(&table, b.Conditions, b.Manifest.Parameters)
	for _, o := range Orderings(b.Conditions) {
		fmt.Fprintln(&orderings, o)
	}
	for _, r := range Ratios(b.Conditions, pub) {
		fmt.Fprintln(&orderings, r)
	}
	plotSVG, plotErr := costPlot(b.Conditions)
	var problems []string
	for _, p := range res.Problems {
		problems = append(problems, p.String())
	}
	m := b.Manifest
	data := map[string]any{
		"Name": res.Name, "OK": res.OK(), "Problems": problems, "Version": version,
		"Command": m.Command, "Created": m.CreatedUTC.Format("2006-01-02 15:04 UTC"),
		"Engine": fmt.Sprintf("%s, Docker %s, %d CPUs, %s, cgroup v%s, kernel %s", m.Engine.Host, m.Engine.EngineVersion, m.Engine.CPUs, m.Engine.Platform, m.Engine.CgroupVersion, m.Engine.Kernel),
		"Disk":   b.fsFacts(), "Table": table.String(), "Orderings": orderings.String(),
		"Plot": template.HTML(plotSVG), "PlotErr": plotErr, "Source": Source,
		"Runs": fmt.Sprintf("%d runs, %d verified", len(b.Runs), res.Counts.Verified),
	}
	return page.Execute(w, data)
}

var page = template.Must(template.New("linecost").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>logbench report: {{.Name}}</title>
<style>
  :root { --ok: #0b7a3e; --bad: #b3261e; --ink: #1d1d1f; --muted: #5f6368; --rule: #e3e3e3; }
  body { margin: 0; padding: 24px 32px 48px; font: 15px/1.45 "Liberation Sans", Arial, Helvetica, sans-serif; color: var(--ink); background: #fff; }
  main { max-width: 1400px; margin: 0 auto; }
  h1 { font-size: 26px; margin: 0 0 4px; }
  h2 { font-size: 20px; margin: 36px 0 6px; padding-top: 8px; border-top: 1px solid var(--rule); }
  p.sub { color: var(--muted); margin: 0 0 12px; }
  .status { padding: 12px 16px; border-radius: 6px; margin: 16px 0; border: 1px solid; }
  .status.ok { border-color: var(--ok); background: #eef8f1; }
  .status.bad { border-color: var(--bad); background: #fcefee; }
  .status ul { margin: 8px 0 0; padding-left: 20px; font: 13px/1.4 "Liberation Mono", Menlo, Consolas, monospace; }
  pre { font: 12px/1.4 "Liberation Mono", Menlo, Consolas, monospace; overflow-x: auto; }
  figure { margin: 0; max-width: 900px; }
  figure svg { width: 100%; height: auto; display: block; }
  .err { color: var(--bad); font-family: monospace; }
  footer { margin-top: 40px; color: var(--muted); font-size: 12px; }
</style>
</head>
<body>
<main>
<h1>logbench report: {{.Name}}</h1>
<p class="sub">line-cost · {{.Command}} · {{.Created}} · {{.Runs}} · {{.Engine}}</p>
{{if .OK}}<div class="status ok"><strong>Verified</strong>: every file, every trial's lines and every figure recomputed and equal.</div>
{{else}}<div class="status bad"><strong>Does not verify</strong><ul>{{range .Problems}}<li>{{.}}</li>{{end}}</ul></div>{{end}}
<h2>Time per line</h2>
<p class="sub">Median of trials, with its 95% bootstrap interval; CPU time of the calling thread, wall time for fsync; grey diamonds are the seed's figures (wall-clock, on a virtual machine).</p>
{{if .Plot}}<figure>{{.Plot}}</figure>{{else}}<p class="err">{{.PlotErr}}</p>{{end}}
<pre>{{.Table}}</pre>
<h2>The seed's findings</h2>
<pre>{{.Orderings}}</pre>
<p class="sub">Log files on {{.Disk}}.</p>
<footer>published: {{.Source}} · written by logbench {{.Version}}</footer>
</main>
</body>
</html>
`))

// costPlot draws every condition's headline per line on a log axis, one colour per
// language, its interval as error bars, and the published figures beside them.
func costPlot(conds []ConditionRow) (out string, err error) {
	defer func() {
		if r := recover(); r != nil { // gonum/plot panics on a few inputs: a missing plot, not a crash
			out, err = "", fmt.Errorf("plot: %v", r)
		}
	}()
	p := plot.New()
	p.Title.Text = "What one log line costs"
	p.Title.TextStyle.Font = font.From(sans, 13)
	p.X.Label.Text, p.Y.Label.Text = "way", "ns per line (log)"
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(sans, 11)
		a.Tick.Label.Font = font.From(sans, 10)
	}
	p.Legend.TextStyle.Font = font.From(sans, 10)
	p.Legend.Top, p.Legend.Left = true, true
	g := plotter.NewGrid()
	g.Vertical.Width = 0
	g.Horizontal.Color = lightGrey
	p.Add(g)

	var ways, langs []string
	for _, c := range conds {
		if !contains(ways, c.Way) {
			ways = append(ways, c.Way)
		}
		if !contains(langs, c.Language) {
			langs = append(langs, c.Language)
		}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	widen := func(v float64) {
		if v > 0 && !math.IsInf(v, 0) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	pub, _ := LoadPublished()
	for li, lang := range langs {
		var xys plotter.XYs
		var errs plotter.YErrors
		offset := (float64(li) - float64(len(langs)-1)/2) * 0.18
		for wi, way := range ways {
			for _, c := range conds {
				if c.Language != lang || c.Way != way || !(c.NsPerLine > 0) {
					continue
				}
				xys = append(xys, plotter.XY{X: float64(wi) + offset, Y: c.NsPerLine})
				low, high := c.NsPerLine-c.NsPerLineLow, c.NsPerLineHigh-c.NsPerLine
				if math.IsNaN(low) || c.NsPerLineLow <= 0 {
					low, high = 0, 0
				}
				errs = append(errs, struct{ Low, High float64 }{low, high})
				widen(c.NsPerLineLow)
				widen(c.NsPerLineHigh)
				widen(c.NsPerLine)
			}
		}
		if len(xys) == 0 {
			continue
		}
		col := langColour[lang]
		if col == nil {
			col = color.Black
		}
		s, err := plotter.NewScatter(xys)
		if err != nil {
			return "", err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(3.5), Shape: draw.CircleGlyph{}}
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{xys, errs})
		if err != nil {
			return "", err
		}
		eb.LineStyle.Color = col
		p.Add(eb, s)
		p.Legend.Add(lang, s)
	}
	var pxys plotter.XYs
	for wi, way := range ways {
		if f, ok := pub.PerLine(way); ok {
			pxys = append(pxys, plotter.XY{X: float64(wi) + 0.32, Y: f.Ns})
			widen(f.Ns)
		}
	}
	if len(pxys) > 0 {
		s, err := plotter.NewScatter(pxys)
		if err != nil {
			return "", err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: pubColour, Radius: vg.Points(3.5), Shape: draw.PyramidGlyph{}}
		p.Add(s)
		p.Legend.Add("published", s)
	}
	if !(lo > 0) {
		lo, hi = 1, 10
	}
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = report.LogTicks{}
	p.Y.Min, p.Y.Max = lo/1.5, hi*1.5
	var ticks []plot.Tick
	for i, w := range ways {
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: w})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = -0.6, float64(len(ways))-0.4

	return report.SVG(p, vg.Points(720), vg.Points(380))
}
