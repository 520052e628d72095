package report

import (
	"errors"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// XY is a point of a Diagonal chart: of a series (a bundle, its colour) and of a
// category (its shape).
type XY struct {
	Series, Category int
	X, Y             float64
}

// Diagonal draws two figures of one unit against each other (CPU time against wall time
// per line) on log scales, beside the diagonal where they are equal (named equal in the
// legend): a colour per series and a shape per category, each named in the legend, the
// series only where there are several (names beside the points would crowd where they
// lie close). A point without both figures above 0 is not drawn.
func Diagonal(title, xLabel, yLabel, equal string, series []Series, categories []string, points []XY) Figure {
	ch := NewChart(title, xLabel, yLabel)
	lo, hi := math.Inf(1), 0.0
	shown := make([]bool, len(categories))
	for _, p := range points {
		if !(p.X > 0) || !(p.Y > 0) {
			continue
		}
		lo, hi = min(lo, p.X, p.Y), max(hi, p.X, p.Y)
		pts, err := Points(plotter.XYs{{X: p.X, Y: p.Y}}, series[p.Series].Colour, Shapes[p.Category%len(Shapes)], 4)
		if err != nil {
			return Failed(title, err)
		}
		ch.Add(pts)
		shown[p.Category] = true
	}
	if math.IsInf(lo, 1) {
		return Failed(title, errors.New("no point has both figures"))
	}
	for _, s := range series {
		if len(series) > 1 {
			ch.AddLegend(s.Name, Swatch{Colour: s.Colour})
		}
	}
	for k, c := range categories {
		if shown[k] {
			if pts, err := Points(plotter.XYs{{}}, Grey, Shapes[k%len(Shapes)], 4); err == nil {
				ch.AddLegend(c, pts)
			}
		}
	}
	lo, hi = lo/2, hi*3
	if diag, err := Line(plotter.XYs{{X: lo, Y: lo}, {X: hi, Y: hi}}, Grey, 1, true); err == nil {
		ch.Add(diag)
		ch.AddLegend(equal, diag)
	}
	for _, a := range []*plot.Axis{&ch.P.X, &ch.P.Y} {
		a.Scale = plot.LogScale{}
		a.Tick.Marker = LogTicks{}
		a.Min, a.Max = lo, hi
	}
	return ch.Render()
}
