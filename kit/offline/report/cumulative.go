package report

import (
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Cumulative is a drawing of quantities that grow over a run (bytes written, bytes
// read) and what lies between them, a line per run and series, against the rate that
// bounds them.
type Cumulative struct {
	Title, XLabel, YLabel string
	// Series name the lines of each run, in order; each has its own colour where one
	// bundle is drawn, its own dash where several are (each in its bundle's colour).
	Series []PointSeries
	// Bound is a rate (y per x) drawn as a dashed line from the origin, named
	// BoundName; 0 draws none. End is the x where the offered load ended, a dotted
	// line named EndName; 0 draws none.
	Bound, End         float64
	BoundName, EndName string
}

// Plot draws the runs: runs[j] are bundle j's, each run's lines in the order of
// c.Series (an empty one is not drawn). The axes start at 0 and end just past the
// furthest point; a point that is not finite is left out.
func (c Cumulative) Plot(bundles []Series, runs [][][]plotter.XYs) Figure {
	ch := NewChart(c.Title, c.XLabel, c.YLabel)
	var end, top float64
	several := len(bundles) > 1
	for j, b := range bundles {
		for i, run := range runs[j] {
			for k, s := range c.Series {
				var xys plotter.XYs
				for _, xy := range run[k] {
					if ok(xy.X) && ok(xy.Y) {
						end, top = max(end, xy.X), max(top, xy.Y)
						xys = append(xys, xy)
					}
				}
				if len(xys) == 0 {
					continue
				}
				col := s.Colour
				if several {
					col = b.Colour
				}
				l, err := Line(Thin(xys, 500), col, 1.3, false)
				if err != nil {
					continue
				}
				if several {
					l.Dashes = LineStyles[k%len(LineStyles)]
				}
				ch.Add(l)
				switch {
				case i != 0 || several && j != 0:
				case several:
					legend, _ := Line(plotter.XYs{{}, {X: 1}}, Grey, 1.3, false)
					legend.Dashes = l.Dashes
					ch.AddLegend(s.Name, legend)
				default:
					ch.AddLegend(s.Name, l)
				}
			}
		}
	}
	BundleLegend(ch, bundles)
	ch.P.X.Min, ch.P.Y.Min = 0, 0
	ch.P.X.Tick.Marker, ch.P.Y.Tick.Marker = LinearTicks{}, LinearTicks{}
	if end > 0 && top > 0 {
		if until := min(end, top/c.Bound); c.Bound > 0 {
			if l, err := Line(plotter.XYs{{X: 0, Y: 0}, {X: until, Y: c.Bound * until}}, Grey, 1, true); err == nil {
				ch.Add(l)
				ch.AddLegend(c.BoundName, l)
			}
		}
		if c.End > 0 {
			if l, err := Line(plotter.XYs{{X: c.End, Y: 0}, {X: c.End, Y: top}}, Grey, 1, true); err == nil {
				l.Dashes = []vg.Length{vg.Points(1), vg.Points(3)}
				ch.Add(l)
				ch.AddLegend(c.EndName, l)
			}
		}
		ch.P.X.Max, ch.P.Y.Max = end*1.02, top*1.05
	}
	return ch.Render()
}
