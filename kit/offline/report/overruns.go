package report

import (
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"

	"github.com/logbench/logbench/kit/offline/figure"
)

// What a page draws of a figure stated over runs (kit/offline/figure): the estimate
// with its interval, each run's value, and the figures beside it.

// WithInterval is an estimate as a drawing's value: its interval as a whisker, whose
// low end is held at floor when it reaches below (a log axis has no 0).
func WithInterval(e figure.Estimate, floor float64) Value {
	v := Value{V: e.Value, Lo: math.NaN(), Hi: math.NaN()}
	if e.HasInterval() {
		v.Lo, v.Hi = max(e.Low, floor), e.High
	}
	return v
}

// BundleLegend names each bundle in its colour, when there are several: a drawing
// whose colours are the bundles'.
func BundleLegend(ch *Chart, bundles []Series) {
	if len(bundles) < 2 {
		return
	}
	for _, b := range bundles {
		ch.AddLegend(b.Name, Swatch{Colour: b.Colour})
	}
}

// RunsCell is one bundle's figure of one category as RunsPlot draws it.
type RunsCell struct {
	// Estimate is the figure over runs: a point, its interval a whisker.
	Estimate figure.Estimate
	// Runs are each run's own figure, a ring each; Pooled is the figure of the runs'
	// samples pooled, a cross; Published is the publication's figure of the
	// category, a black stroke across it. Each is drawn where it is above 0.
	Runs              []float64
	Pooled, Published float64
}

// RunsNames are the legend's names of RunsPlot's marks: the estimate's (with one
// bundle; with several, each bundle is named), a run's, the pooled figure's and the
// published one's.
type RunsNames struct{ Estimate, Run, Pooled, Published string }

// RunsPlot draws a figure stated over runs for each category on a log axis from lo to
// hi: each bundle's estimate with its interval (a whisker that reaches below the axis
// runs off its bottom), every run's figure, the pooled figure and the published one.
// of gives bundle j's figure of category i, false where the bundle has none.
func RunsPlot(title, yLabel string, cats []string, bundles []Series, names RunsNames, lo, hi float64, of func(i, j int) (RunsCell, bool)) Figure {
	floor := lo / 1.4 // the axis' bottom (LogAxis)
	g := &Grouped{Points: true, Published: make([]float64, len(cats))}
	for _, b := range bundles {
		g.Series = append(g.Series, Series{Name: b.Name, Colour: b.Colour})
	}
	var marks []plot.Plotter
	pooledShown := false
	for i := range cats {
		g.Published[i] = math.NaN()
		for j, b := range bundles {
			s, ok := of(i, j)
			if !ok {
				g.Series[j].Values = append(g.Series[j].Values, Absent)
				continue
			}
			if s.Published > 0 {
				g.Published[i] = s.Published
			}
			v := WithInterval(s.Estimate, floor)
			if !(v.V > 0) {
				v.V = math.NaN()
			}
			g.Series[j].Values = append(g.Series[j].Values, v)
			var ys plotter.XYs
			for _, r := range s.Runs {
				if r > 0 {
					ys = append(ys, plotter.XY{X: g.X(i, j), Y: r})
				}
			}
			if len(ys) > 0 {
				if pts, err := Points(ys, b.Colour, draw.RingGlyph{}, 2.5); err == nil {
					marks = append(marks, pts)
				}
			}
			if s.Pooled > 0 {
				if pts, err := Points(plotter.XYs{{X: g.X(i, j), Y: s.Pooled}}, b.Colour, draw.CrossGlyph{}, 3.5); err == nil {
					marks = append(marks, pts)
					pooledShown = true
				}
			}
		}
	}
	ch := NewChart(title, "", yLabel)
	ch.Add(g)
	ch.Add(marks...)
	for _, s := range g.Series {
		name := s.Name
		if len(bundles) == 1 {
			name = names.Estimate
		}
		ch.AddLegend(name, Swatch{Colour: s.Colour})
	}
	if ring, err := Points(plotter.XYs{{}}, Grey, draw.RingGlyph{}, 2.5); err == nil {
		ch.AddLegend(names.Run, ring)
	}
	if cross, err := Points(plotter.XYs{{}}, Grey, draw.CrossGlyph{}, 3.5); err == nil && pooledShown {
		ch.AddLegend(names.Pooled, cross)
	}
	if slices.ContainsFunc(g.Published, func(v float64) bool { return v > 0 }) {
		ch.AddLegend(names.Published, PublishedMark{})
	}
	Categories(ch.P, cats)
	LogAxis(&ch.P.Y, lo, hi)
	return ch.Render()
}

// PointSeries is one series of CategoryPoints: a shape of its own, and its colour where
// one bundle is drawn.
type PointSeries struct {
	Name   string
	Colour color.RGBA
}

// CategoryPoints draws values by category on a log axis from lo to hi, a point each,
// never a line (a line between two categories would claim something between them): a
// shape per series; with one bundle a colour per series, with several the bundle's,
// each series named in grey. value gives series k's value of category i in bundle j,
// false where the bundle has none; a value not above 0 is not drawn. A series whose
// points cannot be drawn is a figure that says so, before the chart.
func CategoryPoints(title, yLabel string, cats []string, bundles []Series, series []PointSeries, lo, hi float64, value func(k, i, j int) (float64, bool)) []Figure {
	var out []Figure
	g := &Grouped{Series: bundles}
	ch := NewChart(title, "", yLabel)
	BundleLegend(ch, bundles)
	for k, s := range series {
		var legend plot.Thumbnailer
		for j, b := range bundles {
			var xys plotter.XYs
			for i := range cats {
				if v, ok := value(k, i, j); ok && v > 0 {
					xys = append(xys, plotter.XY{X: g.X(i, j), Y: v})
				}
			}
			col := s.Colour
			if len(bundles) > 1 {
				col = b.Colour
			}
			if len(xys) == 0 {
				continue
			}
			pts, err := Points(xys, col, Shapes[k], 3.5)
			if err != nil {
				out = append(out, Failed(title, err))
				continue
			}
			ch.Add(pts)
			if legend == nil {
				if len(bundles) > 1 {
					grey, _ := Points(xys, Grey, Shapes[k], 3.5)
					legend = grey
				} else {
					legend = pts
				}
			}
		}
		if legend != nil {
			ch.AddLegend(s.Name, legend)
		}
	}
	Categories(ch.P, cats)
	LogAxis(&ch.P.Y, lo, hi)
	return append(out, ch.Render())
}
