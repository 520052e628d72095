package fifostall

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"github.com/docker/go-units"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/logbench/logbench/kit/experiments/fifostall/schema"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/figure"
	"github.com/logbench/logbench/kit/offline/report"
)

// The drawings of fifo-stall's page. Several bundles share each plot's axes: a colour
// per bundle (the page's legend of bundles), a shape or a line style per series.

// find is the condition of a bundle at category cat (api/mode or mode) and reader.
func (d drawn) find(cat, reader string, multiAPI bool) (condition, bool) {
	for _, c := range d.conds {
		if c.reader == reader && c.label(multiAPI) == cat {
			return c, true
		}
	}
	return condition{}, false
}

// latencyRange is the smallest and largest positive latency figure the plots of reader
// show, over every bundle, so that they share one scale: from the lowest p50 or run's
// p99 to the largest latency, interval or published p99. An interval's low end below it
// runs off the bottom (whisker).
func latencyRange(bs []drawn, reader string) (lo, hi float64) {
	lo, hi = math.Inf(1), 0
	seeLow := func(v float64) {
		if v > 0 && !math.IsInf(v, 0) {
			lo = min(lo, v)
		}
	}
	seeHigh := func(v float64) {
		if v > 0 && !math.IsInf(v, 0) {
			hi = max(hi, v)
		}
	}
	for _, d := range bs {
		for _, c := range d.conds {
			if c.reader != reader {
				continue
			}
			seeLow(c.fig(schema.MetricP50).Value)
			for _, r := range c.runs {
				seeLow(float64(r.Run.P99Ms))
			}
			for _, v := range c.lat {
				seeHigh(v)
			}
			seeHigh(c.pubP99)
			seeHigh(c.fig(schema.MetricP99).High)
		}
	}
	if math.IsInf(lo, 1) || hi < lo {
		return 0.1, 10
	}
	return lo, hi
}

// withInterval is an estimate as a drawing's value: its interval as a whisker, whose
// low end is held at floor when it reaches below (a log axis has no 0).
func withInterval(e figure.Estimate, floor float64) report.Value {
	v := report.Value{V: e.Value, Lo: math.NaN(), Hi: math.NaN()}
	if e.HasInterval() {
		v.Lo, v.Hi = max(e.Low, floor), e.High
	}
	return v
}

// bundleLegend names each bundle in its colour, when there are several.
func bundleLegend(ch *report.Chart, bs []drawn) {
	if len(bs) < 2 {
		return
	}
	for _, d := range bs {
		ch.AddLegend(d.label, report.Swatch{Colour: d.colour})
	}
}

// group is the layout of bundles within a category, the same as the bars'.
func group(bs []drawn) *report.Grouped {
	g := &report.Grouped{}
	for _, d := range bs {
		g.Series = append(g.Series, report.Series{Name: d.label, Colour: d.colour})
	}
	return g
}

func percentilePlots(bs []drawn, cats, readers []string, multiAPI bool) []report.Figure {
	var out []report.Figure
	pcts := []struct {
		name string
		pct  float64
		col  color.RGBA
	}{{"p50", 50, report.Blue}, {"p90", 90, report.Green}, {"p99", 99, report.Orange}, {"max", 100, report.Red}}
	// p50 and p99 are the figures compare states; p90 and the largest latency are taken
	// the same way: each run's, then the mean over runs.
	g := group(bs)
	for _, reader := range readers {
		// Each reader its own range: the slow reader's seconds would flatten the fast
		// reader's milliseconds.
		lo, hi := latencyRange(bs, reader)
		title := fmt.Sprintf("Latency percentiles, %s reader", reader)
		ch := report.NewChart(title, "", "latency (ms, log scale)")
		bundleLegend(ch, bs)
		// Points per condition, never lines: the conditions are categories, and a line
		// between two modes would claim something between them.
		for k, s := range pcts {
			var legend plot.Thumbnailer
			for j, d := range bs {
				var xys plotter.XYs
				for i, cat := range cats {
					c, ok := d.find(cat, reader, multiAPI)
					if !ok {
						continue
					}
					if v := c.overRuns(s.pct).Value; v > 0 {
						xys = append(xys, plotter.XY{X: g.X(i, j), Y: v})
					}
				}
				col := s.col
				if len(bs) > 1 {
					col = d.colour
				}
				if len(xys) == 0 {
					continue
				}
				pts, err := report.Points(xys, col, report.Shapes[k], 3.5)
				if err != nil {
					out = append(out, report.Failed(title, err))
					continue
				}
				ch.Add(pts)
				if legend == nil {
					if len(bs) > 1 {
						grey, _ := report.Points(xys, report.Grey, report.Shapes[k], 3.5)
						legend = grey
					} else {
						legend = pts
					}
				}
			}
			if legend != nil {
				ch.AddLegend(s.name, legend)
			}
		}
		report.Categories(ch.P, cats)
		report.LogAxis(&ch.P.Y, lo, hi)
		out = append(out, ch.Render())
	}
	return out
}

// overRuns is the condition's latency percentile pct as compare states a figure: each
// run's, then the mean over runs; p50 and p99 are its Figures rows themselves.
func (c condition) overRuns(pct float64) figure.Estimate {
	switch pct {
	case 50:
		return c.fig(schema.MetricP50)
	case 99:
		return c.fig(schema.MetricP99)
	}
	runs := make([][]float64, 0, len(c.runs))
	for _, r := range c.runs {
		l := make([]float64, 0, len(r.Requests))
		for _, q := range r.Requests {
			l = append(l, q.LatencyMs)
		}
		runs = append(runs, l)
	}
	return compare.Estimate(compare.Measured(nil, "", "ms", compare.Quantile(pct), runs))
}

// runPlots draw each condition's p99 as compare states it (the mean of its runs' p99s,
// with its interval as a whisker), every run's p99 as a ring, the p99 of the pooled
// requests as a cross, and the article's p99 of its pooled requests.
func runPlots(bs []drawn, cats, readers []string, multiAPI bool) []report.Figure {
	var out []report.Figure
	for _, reader := range readers {
		lo, hi := latencyRange(bs, reader)
		floor := lo / 1.4 // the axis' bottom (report.LogAxis)
		title := fmt.Sprintf("p99 per run, %s reader", reader)
		g := group(bs)
		g.Points = true
		g.Published = make([]float64, len(cats))
		var marks []plot.Plotter
		pooledShown := false
		for i, cat := range cats {
			g.Published[i] = math.NaN()
			for j, d := range bs {
				c, ok := d.find(cat, reader, multiAPI)
				if !ok {
					g.Series[j].Values = append(g.Series[j].Values, report.Absent)
					continue
				}
				if c.pubP99 > 0 {
					g.Published[i] = c.pubP99
				}
				v := withInterval(c.fig(schema.MetricP99), floor)
				if !(v.V > 0) {
					v.V = math.NaN()
				}
				g.Series[j].Values = append(g.Series[j].Values, v)
				var ys plotter.XYs
				for _, r := range c.runs {
					if p := float64(r.Run.P99Ms); p > 0 {
						ys = append(ys, plotter.XY{X: g.X(i, j), Y: p})
					}
				}
				if len(ys) > 0 {
					if pts, err := report.Points(ys, bs[j].colour, draw.RingGlyph{}, 2.5); err == nil {
						marks = append(marks, pts)
					}
				}
				if p := float64(c.row.P99Ms); p > 0 {
					if pts, err := report.Points(plotter.XYs{{X: g.X(i, j), Y: p}}, bs[j].colour, draw.CrossGlyph{}, 3.5); err == nil {
						marks = append(marks, pts)
						pooledShown = true
					}
				}
			}
		}
		ch := report.NewChart(title, "", "p99 latency (ms, log scale)")
		ch.Add(g)
		ch.Add(marks...)
		for _, s := range g.Series {
			name := s.Name
			if len(bs) == 1 {
				name = "p99, mean over runs, 95% interval"
			}
			ch.AddLegend(name, report.Swatch{Colour: s.Colour})
		}
		if ring, err := report.Points(plotter.XYs{{}}, report.Grey, draw.RingGlyph{}, 2.5); err == nil {
			ch.AddLegend("each run's p99", ring)
		}
		if cross, err := report.Points(plotter.XYs{{}}, report.Grey, draw.CrossGlyph{}, 3.5); err == nil && pooledShown {
			ch.AddLegend("p99 of the pooled requests", cross)
		}
		if slices.ContainsFunc(g.Published, func(v float64) bool { return v > 0 }) {
			ch.AddLegend("published p99 of the pooled requests", report.PublishedMark{})
		}
		report.Categories(ch.P, cats)
		report.LogAxis(&ch.P.Y, lo, hi)
		out = append(out, ch.Render())
	}
	return out
}

// hdrPlots draw each condition's pooled latencies by percentile (report.ByPercentile),
// a plot per reader: a colour per condition, a line style per bundle.
func hdrPlots(bs []drawn, readers []string, multiAPI bool) []report.Figure {
	var out []report.Figure
	var labels []string
	for _, d := range bs {
		labels = append(labels, d.label)
	}
	for _, reader := range readers {
		var lines []report.PercentileLine
		for j, d := range bs {
			ofReader := slices.DeleteFunc(slices.Clone(d.conds), func(c condition) bool { return c.reader != reader })
			for i, c := range ofReader {
				lines = append(lines, report.PercentileLine{Name: c.label(multiAPI), Bundle: j, Condition: i, Ms: c.lat})
			}
		}
		if f, ok := report.ByPercentile(fmt.Sprintf("Latency by percentile, %s reader", reader), lines, labels); ok {
			out = append(out, f)
		}
	}
	return out
}

// keys are every bundle's conditions, in the first bundle's order, then the others':
// mode/reader, or api/mode/reader when a bundle has several APIs.
func keys(bs []drawn, multiAPI bool) []string {
	var out []string
	for _, d := range bs {
		for _, c := range d.conds {
			if k := c.label(multiAPI) + "/" + c.reader; !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

func (d drawn) byKey(key string, multiAPI bool) (condition, bool) {
	for _, c := range d.conds {
		if c.label(multiAPI)+"/"+c.reader == key {
			return c, true
		}
	}
	return condition{}, false
}

// titleOf names a plot of one condition: with its API when one bundle is drawn.
func titleOf(bs []drawn, c condition, key string) string {
	if len(bs) == 1 {
		return c.key()
	}
	return key
}

// schedulePlots draw each request's latency at its scheduled send (report.BySchedule),
// a plot per condition.
func schedulePlots(bs []drawn, multiAPI bool) []report.Figure {
	var out []report.Figure
	for _, key := range keys(bs, multiAPI) {
		title := ""
		traces := make([]report.Traces, len(bs))
		for j, d := range bs {
			traces[j] = report.Traces{Label: d.label, Colour: d.colour}
			c, ok := d.byKey(key, multiAPI)
			if !ok {
				continue
			}
			if title == "" {
				title = titleOf(bs, c, key) + ": latency by scheduled send"
			}
			for _, run := range c.runs {
				t := report.Trace{Name: fmt.Sprintf("run %d (%s)", run.Run.Round, run.Run.RunID)}
				for _, q := range run.Requests {
					t.XYs = append(t.XYs, plotter.XY{X: q.ScheduledOffsetS, Y: q.LatencyMs})
				}
				traces[j].Runs = append(traces[j].Runs, t)
			}
		}
		if f, ok := report.BySchedule(title, traces); ok {
			out = append(out, f)
		}
	}
	return out
}

// saturates says whether the condition offers more log bytes per second than its
// reader reads.
func saturates(c condition) bool {
	r := c.row
	return r.ReaderBoundBytesPerS > 0 && r.OfferedBytesPerS > r.ReaderBoundBytesPerS && len(c.runs) > 0
}

// timelinePlots draw, for each condition that saturates its reader, the log bytes
// generated and read and the backlog between them over time, a line per run.
func timelinePlots(bs []drawn, multiAPI bool) []report.Figure {
	var out []report.Figure
	for _, key := range keys(bs, multiAPI) {
		var end, top, bound, durationS float64
		ch := (*report.Chart)(nil)
		for j, d := range bs {
			c, ok := d.byKey(key, multiAPI)
			if !ok || !saturates(c) {
				continue
			}
			if ch == nil {
				title := titleOf(bs, c, key)
				if len(bs) == 1 {
					title = fmt.Sprintf("%s (%d runs)", title, len(c.runs))
				}
				ch = report.NewChart(title, "s since the first scheduled send", "logged (KiB)")
				bound, durationS = c.row.ReaderBoundBytesPerS/1024, d.b.Manifest.Parameters.DurationS
			}
			for i, run := range c.runs {
				var gen, read plotter.XYs
				for _, t := range run.Timeline {
					xy := plotter.XY{X: t.OffsetS, Y: float64(t.Bytes) / 1024}
					if math.IsNaN(xy.X) || math.IsInf(xy.X, 0) || math.IsNaN(xy.Y) || math.IsInf(xy.Y, 0) {
						continue
					}
					end, top = max(end, xy.X), max(top, xy.Y)
					switch t.Series {
					case "generated":
						gen = append(gen, xy)
					case "read":
						read = append(read, xy)
					}
				}
				for k, s := range []struct {
					name string
					xys  plotter.XYs
					col  color.RGBA
				}{{"generated", gen, report.Blue}, {"read", read, report.Orange}, {"backlog", backlog(run.Timeline), report.Green}} {
					if len(s.xys) == 0 {
						continue
					}
					col := s.col
					if len(bs) > 1 {
						col = d.colour
					}
					l, err := report.Line(report.Thin(s.xys, 500), col, 1.3, false)
					if err != nil {
						continue
					}
					if len(bs) > 1 {
						l.Dashes = report.LineStyles[k%len(report.LineStyles)]
					}
					ch.Add(l)
					if i == 0 && (len(bs) == 1 || j == 0) {
						if len(bs) > 1 {
							legend, _ := report.Line(plotter.XYs{{}, {X: 1}}, report.Grey, 1.3, false)
							legend.Dashes = l.Dashes
							ch.AddLegend(s.name, legend)
						} else {
							ch.AddLegend(s.name, l)
						}
					}
				}
			}
		}
		if ch == nil {
			continue
		}
		bundleLegend(ch, bs)
		ch.P.X.Min, ch.P.Y.Min = 0, 0
		ch.P.X.Tick.Marker, ch.P.Y.Tick.Marker = report.LinearTicks{}, report.LinearTicks{}
		if end > 0 && top > 0 {
			until := min(end, top/bound)
			if l, err := report.Line(plotter.XYs{{X: 0, Y: 0}, {X: until, Y: bound * until}}, report.Grey, 1, true); err == nil {
				ch.Add(l)
				ch.AddLegend(fmt.Sprintf("reader bound %s/s", units.BytesSize(bound*1024)), l)
			}
			if durationS > 0 {
				if l, err := report.Line(plotter.XYs{{X: durationS, Y: 0}, {X: durationS, Y: top}}, report.Grey, 1, true); err == nil {
					l.Dashes = []vg.Length{vg.Points(1), vg.Points(3)}
					ch.Add(l)
					ch.AddLegend("end of the load", l)
				}
			}
			ch.P.X.Max, ch.P.Y.Max = end*1.02, top*1.05
		}
		out = append(out, ch.Render())
	}
	return out
}
