package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Value is one figure with its interval; NaN where absent (no interval: NaN bounds).
type Value struct{ V, Lo, Hi float64 }

// NaN is an absent figure.
var NaN = math.NaN()

// Absent is a value that is not there.
var Absent = Value{NaN, NaN, NaN}

// Series is one bundle's values over the categories of a grouped drawing.
type Series struct {
	Name   string
	Colour color.RGBA
	Values []Value // by category
}

// Grouped draws categories side by side, one bar (or point) per series in each, each
// whisker on its bar's centre line, and the published figure, where there is one, as a
// black stroke across the whole group. The bars start at the axis' minimum, so that a
// log axis has them too.
type Grouped struct {
	Series    []Series
	Published []float64 // by category; NaN where none was published
	// Points draws a point instead of a bar: for a log axis, where a bar's length
	// means nothing.
	Points bool
}

// groupWidth is the share of a category's width its bars take at most, maxBar one
// bar's.
const (
	groupWidth = 0.8
	maxBar     = 0.4
)

func (g *Grouped) n() int {
	n := len(g.Published)
	for _, s := range g.Series {
		n = max(n, len(s.Values))
	}
	return n
}

// centre is the x of series j in category i.
func (g *Grouped) centre(i, j int) (x, width float64) {
	w := g.barWidth()
	return float64(i) + (float64(j)-float64(len(g.Series)-1)/2)*w, w
}

// barWidth is one series' share of a category: the group's, but never more than
// maxBar, so that one bundle's bars are not slabs.
func (g *Grouped) barWidth() float64 {
	return min(groupWidth/float64(max(1, len(g.Series))), maxBar)
}

// Any says whether a series has a value to draw: a chart of none (a published figure
// alone has nothing to stand beside) is left out of the page, not drawn empty.
func (g *Grouped) Any() bool {
	for _, s := range g.Series {
		for _, v := range s.Values {
			if ok(v.V) {
				return true
			}
		}
	}
	return false
}

func ok(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// Plot implements plot.Plotter.
func (g *Grouped) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	base := ty(p.Y.Min)
	for j, s := range g.Series {
		for i, v := range s.Values {
			if !ok(v.V) {
				continue
			}
			x, w := g.centre(i, j)
			left, right := tx(x-w/2*0.92), tx(x+w/2*0.92)
			if g.Points {
				tag(c, "bar", fmt.Sprintf("s=%d", j), fmt.Sprintf("c=%d", i))
				c.SetColor(s.Colour)
				r := vg.Points(3.5)
				pt := vg.Point{X: tx(x), Y: ty(v.V)}
				c.Fill(vg.Rectangle{Min: vg.Point{X: pt.X - r, Y: pt.Y - r}, Max: vg.Point{X: pt.X + r, Y: pt.Y + r}}.Path())
			} else {
				tag(c, "bar", fmt.Sprintf("s=%d", j), fmt.Sprintf("c=%d", i))
				c.SetColor(s.Colour)
				c.Fill(vg.Rectangle{Min: vg.Point{X: left, Y: base}, Max: vg.Point{X: right, Y: ty(v.V)}}.Path())
			}
			if ok(v.Lo) && ok(v.Hi) {
				xc := tx(x)
				cap := min((right-left)*0.25, vg.Points(6))
				// An interval past the axis (a lower bound below zero, from few runs) is cut
				// at it and drawn without its cap there, so that it reads as going on
				// rather than crossing the tick labels.
				lo, hi := ty(max(v.Lo, p.Y.Min)), ty(min(v.Hi, p.Y.Max))
				var path vg.Path
				if v.Lo >= p.Y.Min {
					path.Move(vg.Point{X: xc - cap, Y: lo})
					path.Line(vg.Point{X: xc + cap, Y: lo})
				}
				path.Move(vg.Point{X: xc, Y: lo})
				path.Line(vg.Point{X: xc, Y: hi})
				if v.Hi <= p.Y.Max {
					path.Move(vg.Point{X: xc - cap, Y: hi})
					path.Line(vg.Point{X: xc + cap, Y: hi})
				}
				c.SetLineWidth(vg.Points(1.2))
				c.SetLineDash(nil, 0)
				c.SetColor(whiskerColour(s.Colour, g.Points))
				tag(c, "whisker", fmt.Sprintf("s=%d", j), fmt.Sprintf("c=%d", i))
				c.Stroke(path)
			}
		}
	}
	for i, v := range g.Published {
		if !ok(v) {
			continue
		}
		half := g.barWidth() * float64(max(1, len(g.Series))) / 2
		left, right := tx(float64(i)-half-0.06), tx(float64(i)+half+0.06)
		var path vg.Path
		path.Move(vg.Point{X: left, Y: ty(v)})
		path.Line(vg.Point{X: right, Y: ty(v)})
		c.SetLineWidth(vg.Points(2))
		c.SetLineDash([]vg.Length{vg.Points(5), vg.Points(2)}, 0)
		c.SetColor(Published)
		tag(c, "published", fmt.Sprintf("c=%d", i))
		c.Stroke(path)
	}
	c.SetLineDash(nil, 0)
}

// whiskerColour is black on a bar (the bar is the series' colour) and the series'
// colour beside a point.
func whiskerColour(c color.RGBA, points bool) color.Color {
	if points {
		return c
	}
	return color.RGBA{30, 30, 30, 255}
}

// DataRange implements plot.DataRanger.
func (g *Grouped) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = -0.6, float64(g.n())-0.4
	ymin, ymax = math.Inf(1), math.Inf(-1)
	see := func(v float64) {
		if ok(v) && (!g.Points || v > 0) {
			ymin, ymax = min(ymin, v), max(ymax, v)
		}
	}
	for _, s := range g.Series {
		for _, v := range s.Values {
			see(v.V)
			see(v.Lo)
			see(v.Hi)
		}
	}
	for _, v := range g.Published {
		see(v)
	}
	if math.IsInf(ymin, 1) {
		ymin, ymax = 0, 1
	}
	if !g.Points {
		ymin = min(0, ymin)
	}
	return xmin, xmax, ymin, ymax
}

// Range is the smallest and largest positive figure, for a log axis.
func (g *Grouped) Range() (lo, hi float64) {
	lo, hi = math.Inf(1), 0
	for _, s := range g.Series {
		for _, v := range s.Values {
			for _, x := range []float64{v.V, v.Lo, v.Hi} {
				if ok(x) && x > 0 {
					lo, hi = min(lo, x), max(hi, x)
				}
			}
		}
	}
	for _, x := range g.Published {
		if ok(x) && x > 0 {
			lo, hi = min(lo, x), max(hi, x)
		}
	}
	return lo, hi
}

// Swatch is a legend thumbnail: a filled box in a colour.
type Swatch struct{ Colour color.Color }

func (s Swatch) Thumbnail(c *draw.Canvas) {
	c.SetColor(s.Colour)
	r := c.Rectangle
	pad := (r.Max.Y - r.Min.Y) * 0.15
	c.Fill(vg.Rectangle{Min: vg.Point{X: r.Min.X, Y: r.Min.Y + pad}, Max: vg.Point{X: r.Max.X, Y: r.Max.Y - pad}}.Path())
}

// PublishedMark is the legend thumbnail of the published figure's stroke.
type PublishedMark struct{}

func (PublishedMark) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.SetLineWidth(vg.Points(2))
	c.SetLineDash([]vg.Length{vg.Points(5), vg.Points(2)}, 0)
	c.SetColor(Published)
	var path vg.Path
	path.Move(vg.Point{X: c.Min.X, Y: y})
	path.Line(vg.Point{X: c.Max.X, Y: y})
	c.Stroke(path)
	c.SetLineDash(nil, 0)
}

// Bars is a chart of grouped bars (points on a log axis), a legend entry per series
// and one for the published figures when any is there.
func Bars(title, yLabel string, categories []string, g *Grouped, logY bool) Figure {
	ch := NewChart(title, "", yLabel)
	g.Points = g.Points || logY
	ch.Add(g)
	for _, s := range g.Series {
		ch.AddLegend(s.Name, Swatch{s.Colour})
	}
	for _, v := range g.Published {
		if ok(v) {
			ch.AddLegend("published", PublishedMark{})
			break
		}
	}
	Categories(ch.P, categories)
	if logY {
		lo, hi := g.Range()
		LogAxis(&ch.P.Y, lo, hi)
	} else {
		_, _, _, ymax := g.DataRange()
		ch.P.Y.Min, ch.P.Y.Max = 0, ymax*1.08
		ch.P.Y.Tick.Marker = LinearTicks{}
	}
	return ch.Render()
}

// X is the centre of series j's bar in category i, for marks drawn beside the bars
// (each run's figure).
func (g *Grouped) X(i, j int) float64 {
	x, _ := g.centre(i, j)
	return x
}
