package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// OverRuns is a per-run figure of one condition as a bar draws it: the mean over the
// runs, the runs' range as its whisker (none for a single run); Absent without a run.
// A value that is not finite (a figure a run could not give) counts in neither.
func OverRuns(values []float64) Value {
	var vs []float64
	for _, v := range values {
		if ok(v) {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return Absent
	}
	sum := 0.0
	for _, v := range vs {
		sum += v
	}
	out := Value{V: sum / float64(len(vs)), Lo: NaN, Hi: NaN}
	if len(vs) > 1 {
		out.Lo, out.Hi = slices.Min(vs), slices.Max(vs)
	}
	return out
}

// Trace is one run's line over time: its points, and its name in the legend when its
// bundle is the page's only one ("run 2").
type Trace struct {
	Name string
	XYs  plotter.XYs
}

// Traces are one bundle's runs of a condition, in its colour.
type Traces struct {
	Label  string
	Colour color.RGBA
	Runs   []Trace
}

// dashes tell one bundle's runs apart when the colour is the bundle's.
var dashes = LineStyles[:3]

// runStyle is run k's line and mark: with one bundle a colour per run, then past the
// palette's end a dash and a shape more, so that no two runs look alike; with several,
// the bundle's colour, the run told by its dash and shape.
func runStyle(k int, bundleColour color.RGBA, oneBundle bool) (c color.RGBA, dash []vg.Length, shape draw.GlyphDrawer) {
	if oneBundle {
		round := k / len(Palette)
		return Colour(k), dashes[round%len(dashes)], Shapes[round%len(Shapes)]
	}
	return bundleColour, dashes[k%len(dashes)], Shapes[(k/len(dashes))%len(Shapes)]
}

// RunLines draws each run of one condition over time, a line with its points: with one
// bundle a colour per run, each run named in the legend; with several a colour per
// bundle, named once, its runs told apart by their dashes and marks, each style named
// in the legend too. The axes start at 0. It draws nothing (false) when no run has a
// point above 0.
func RunLines(title, xLabel, yLabel string, bundles []Traces) (Figure, bool) {
	ch := NewChart(title, xLabel, yLabel)
	top := 0.0
	styles := 0 // run styles named in the legend, with several bundles
	for _, b := range bundles {
		named := false
		for k, r := range b.Runs {
			if len(r.XYs) == 0 {
				continue
			}
			for _, p := range r.XYs {
				top = max(top, p.Y)
			}
			col, dash, shape := runStyle(k, b.Colour, len(bundles) == 1)
			l, err := Line(r.XYs, col, 1.4, false)
			if err != nil {
				continue
			}
			l.Dashes = dash
			pts, _ := Points(r.XYs, col, shape, 2)
			ch.Add(l, pts)
			switch {
			case len(bundles) == 1:
				ch.AddLegend(r.Name, l, pts)
			case !named:
				ch.AddLegend(b.Label, Swatch{Colour: col})
				named = true
			}
			styles = max(styles, k+1)
		}
	}
	if !(top > 0) || math.IsInf(top, 0) {
		return Figure{}, false
	}
	if len(bundles) > 1 {
		for k := range styles {
			_, dash, shape := runStyle(k, Grey, false)
			l, _ := Line(plotter.XYs{{}, {X: 1}}, Grey, 1.4, false)
			l.Dashes = dash
			pts, _ := Points(plotter.XYs{{}}, Grey, shape, 2)
			ch.AddLegend(fmt.Sprintf("run %d", k+1), l, pts)
		}
	}
	ch.P.X.Min, ch.P.Y.Min, ch.P.Y.Max = 0, 0, top*1.08
	ch.P.X.Tick.Marker, ch.P.Y.Tick.Marker = LinearTicks{}, LinearTicks{}
	return ch.Render(), true
}

// Seconds is one run's per-second counts as a line to draw: the rows of a bundle's
// series table (qps's and your-api's series.csv) whose run is runID, each read by of
// into its run, second and count.
func Seconds[S any](rows []S, runID string, of func(S) (run string, second int, count int64)) plotter.XYs {
	var xys plotter.XYs
	for _, s := range rows {
		if run, second, n := of(s); run == runID {
			xys = append(xys, plotter.XY{X: float64(second), Y: float64(n)})
		}
	}
	return xys
}

// PerSecondPlots draw each run's per-second counts, a plot per category (cats): of
// gives each of n bundles' runs of a category, its label and colour.
func PerSecondPlots(cats []string, yLabel string, n int, of func(i int, cat string) Traces) []Figure {
	var out []Figure
	for _, cat := range cats {
		var traces []Traces
		for i := range n {
			traces = append(traces, of(i, cat))
		}
		if f, ok := RunLines(cat+": requests per second", "second of the measured interval", yLabel, traces); ok {
			out = append(out, f)
		}
	}
	return out
}

// RoundTrace is a run's per-second counts (Seconds), named by its round.
func RoundTrace[S any](rows []S, runID string, round int, of func(S) (run string, second int, count int64)) Trace {
	return Trace{Name: fmt.Sprintf("run %d", round), XYs: Seconds(rows, runID, of)}
}
