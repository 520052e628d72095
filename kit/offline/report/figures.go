package report

import (
	"fmt"
	"html/template"
	"image/color"
	"math"
	"slices"

	"github.com/docker/go-units"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/logbench/logbench/kit/contract/stats"
	"github.com/logbench/logbench/kit/offline/compare"
)

// categories puts labels on the x axis at 0..n-1, tilted so long mode names fit.
func categories(p *plot.Plot, labels []string) {
	p.NominalX(labels...)
	p.X.Tick.Label.Rotation = math.Pi / 7
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	p.X.Min, p.X.Max = -0.6, float64(len(labels))-0.4
}

func renderPlot(p *plot.Plot) figure {
	s, err := SVG(p, plotW, plotH)
	if err != nil {
		return figure{Title: p.Title.Text, Err: err.Error()}
	}
	return figure{Title: p.Title.Text, SVG: template.HTML(s)} // gonum escapes every text it draws
}

func failed(title string, err error) figure { return figure{Title: title, Err: err.Error()} }

// latencyRange is the smallest and largest positive latency figure any plot shows, so
// that the readers' plots share a scale.
func latencyRange(conds []condition) (lo, hi float64) {
	lo, hi = math.Inf(1), 0
	for _, c := range conds {
		for _, v := range append(slices.Clone(c.lat), c.pubP99) {
			if v > 0 && !math.IsInf(v, 0) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
		if v := stats.NearestRank(c.lat, 50); v > 0 {
			lo = min(lo, v)
		}
	}
	if math.IsInf(lo, 1) {
		return 0.1, 10
	}
	// Below the median of the fastest condition nothing is plotted: start there.
	med := math.Inf(1)
	for _, c := range conds {
		if v := stats.NearestRank(c.lat, 50); v > 0 {
			med = min(med, v)
		}
	}
	if !math.IsInf(med, 1) {
		lo = med
	}
	return lo, hi
}

// ofReader are the conditions of one reader.
func ofReader(conds []condition, reader string) []condition {
	var out []condition
	for _, c := range conds {
		if c.reader == reader {
			out = append(out, c)
		}
	}
	return out
}

func percentilePlots(conds []condition, readers []string, multiAPI bool) []figure {
	var out []figure
	for _, reader := range readers {
		// Each reader its own range: the slow reader's seconds would flatten the fast
		// reader's milliseconds.
		lo, hi := latencyRange(ofReader(conds, reader))
		title := fmt.Sprintf("Latency percentiles, %s reader", reader)
		p := newPlot(title, "", "latency (ms, log scale)")
		var labels []string
		series := []struct {
			name string
			pct  float64
			col  color.Color
			xys  plotter.XYs
		}{{"p50", 50, blue, nil}, {"p90", 90, green, nil}, {"p99", 99, orange, nil}, {"max", 100, red, nil}}
		for _, c := range conds {
			if c.reader != reader {
				continue
			}
			x := float64(len(labels))
			labels = append(labels, c.label(multiAPI))
			for i := range series {
				if v := stats.NearestRank(c.lat, series[i].pct); v > 0 {
					series[i].xys = append(series[i].xys, plotter.XY{X: x, Y: v})
				}
			}
		}
		// Points per condition, never lines: the conditions are categories, and a line
		// between two modes would claim something between them.
		shapes := []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}}
		for i, s := range series {
			if len(s.xys) == 0 {
				continue
			}
			pts, err := points(s.xys, s.col, shapes[i], 3.5)
			if err != nil {
				out = append(out, failed(title, err))
				continue
			}
			p.Add(pts)
			p.Legend.Add(s.name, pts)
		}
		categories(p, labels)
		logAxis(&p.Y, lo, hi)
		out = append(out, renderPlot(p))
	}
	return out
}

func runPlots(conds []condition, readers []string, multiAPI bool) []figure {
	var out []figure
	for _, reader := range readers {
		lo, hi := latencyRange(ofReader(conds, reader))
		title := fmt.Sprintf("p99 per run, %s reader", reader)
		p := newPlot(title, "", "p99 latency (ms, log scale)")
		var labels []string
		var runs, pooled, pub plotter.XYs
		for _, c := range conds {
			if c.reader != reader {
				continue
			}
			x := float64(len(labels))
			labels = append(labels, c.label(multiAPI))
			var ys []float64
			for _, r := range c.runs {
				if v := float64(r.Run.P99Ms); v > 0 {
					ys = append(ys, v)
					runs = append(runs, plotter.XY{X: x - 0.08, Y: v})
				}
			}
			if len(ys) > 1 {
				if bar, err := line(plotter.XYs{{X: x - 0.08, Y: slices.Min(ys)}, {X: x - 0.08, Y: slices.Max(ys)}}, paleBlue, 6, false); err == nil {
					p.Add(bar)
				}
			}
			if v := float64(c.row.P99Ms); v > 0 {
				pooled = append(pooled, plotter.XY{X: x + 0.12, Y: v})
			}
			if c.pubP99 > 0 {
				pub = append(pub, plotter.XY{X: x + 0.3, Y: c.pubP99})
			}
		}
		for _, s := range []struct {
			name   string
			xys    plotter.XYs
			col    color.Color
			shape  draw.GlyphDrawer
			radius float64
		}{
			{"each run's p99", runs, blue, draw.CircleGlyph{}, 2.5},
			{"pooled p99", pooled, orange, draw.PyramidGlyph{}, 0},
			{"published p99", pub, purple, draw.TriangleGlyph{}, 3.5},
		} {
			if len(s.xys) == 0 {
				continue
			}
			shape := s.shape
			if s.radius == 0 {
				shape, s.radius = diamond{}, 4
			}
			pts, err := points(s.xys, s.col, shape, s.radius)
			if err != nil {
				out = append(out, failed(title, err))
				continue
			}
			p.Add(pts)
			p.Legend.Add(s.name, pts)
		}
		categories(p, labels)
		logAxis(&p.Y, lo, hi)
		out = append(out, renderPlot(p))
	}
	return out
}

func timelinePlots(conds []condition, durationS float64) []figure {
	var out []figure
	for _, c := range conds {
		r := c.row
		if !(r.ReaderBoundBytesPerS > 0 && r.OfferedBytesPerS > r.ReaderBoundBytesPerS) || len(c.runs) == 0 {
			continue
		}
		title := fmt.Sprintf("%s/%s/%s (%d runs)", c.api, c.mode, c.reader, len(c.runs))
		p := newPlot(title, "s since the first scheduled send", "log bytes (KiB)")
		p.X.Min, p.Y.Min = 0, 0
		p.X.Tick.Marker, p.Y.Tick.Marker = linearTicks{}, linearTicks{}
		var end, top float64
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
			for _, s := range []struct {
				name string
				xys  plotter.XYs
				col  color.RGBA
			}{{"generated", gen, blue}, {"read", read, orange}, {"backlog", backlog(run.Timeline), green}} {
				if len(s.xys) == 0 {
					continue
				}
				l, err := line(thin(s.xys, 500), s.col, 1.3, false)
				if err != nil {
					continue
				}
				p.Add(l)
				if i == 0 {
					p.Legend.Add(s.name, l)
				}
			}
		}
		if end > 0 && top > 0 {
			bound := r.ReaderBoundBytesPerS / 1024
			until := min(end, top/bound)
			if l, err := line(plotter.XYs{{X: 0, Y: 0}, {X: until, Y: bound * until}}, grey, 1, true); err == nil {
				p.Add(l)
				p.Legend.Add(fmt.Sprintf("reader bound %s/s", units.BytesSize(r.ReaderBoundBytesPerS)), l)
			}
			if durationS > 0 {
				if l, err := line(plotter.XYs{{X: durationS, Y: 0}, {X: durationS, Y: top}}, light, 1, true); err == nil {
					l.Color = grey
					l.Dashes = []vg.Length{vg.Points(1), vg.Points(3)}
					p.Add(l)
					p.Legend.Add("end of the load", l)
				}
			}
			p.X.Max, p.Y.Max = end*1.02, top*1.05
		}
		out = append(out, renderPlot(p))
	}
	return out
}

func cpuPlots(conds []condition, readers []string, multiAPI bool) []figure {
	title := "API CPU by condition"
	p := newPlot(title, "", "mean cores")
	var labels []string
	index := map[string]int{}
	for _, c := range conds {
		l := c.label(multiAPI)
		if _, ok := index[l]; !ok {
			index[l] = len(labels)
			labels = append(labels, l)
		}
	}
	width := vg.Points(min(40, 240/float64(max(1, len(labels)*len(readers)))))
	colors := []color.RGBA{blue, orange, green, purple}
	for j, reader := range readers {
		values := make(plotter.Values, len(labels))
		for _, c := range conds {
			if c.reader == reader {
				if v := float64(c.row.APICPUCores); !math.IsNaN(v) && !math.IsInf(v, 0) {
					values[index[c.label(multiAPI)]] = v
				}
			}
		}
		bars, err := plotter.NewBarChart(values, width)
		if err != nil {
			return []figure{failed(title, err)}
		}
		bars.Color = colors[j%len(colors)]
		bars.LineStyle.Width = 0
		bars.Offset = vg.Length(float64(j)-float64(len(readers)-1)/2) * width
		p.Add(bars)
		p.Legend.Add(reader+" reader", bars)
	}
	categories(p, labels)
	p.Y.Min = 0
	p.Y.Tick.Marker = linearTicks{}
	return []figure{renderPlot(p)}
}

// diamond is a glyph that plotter does not have.
type diamond struct{}

func figRange(lo, hi float64) string {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return "-"
	}
	return compare.Figure(lo) + "–" + compare.Figure(hi)
}
