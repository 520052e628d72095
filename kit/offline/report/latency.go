package report

import (
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Drawings of request latencies that any experiment measuring them shares: each
// request's latency at its percentile (ByPercentile) and at its scheduled send
// (BySchedule).

// LineStyles tell lines of one colour apart: a bundle's, or a series'.
var LineStyles = [][]vg.Length{nil, {vg.Points(5), vg.Points(3)}, {vg.Points(1.5), vg.Points(2)}, {vg.Points(8), vg.Points(2), vg.Points(2), vg.Points(2)}}

// PercentileTicks label an axis of 1/(1-q) at 50%, 90%, 99%, 99.9% and 99.99%, with a
// tick unlabelled at 0% (the axis' start), whose label would touch 50%'s: on a log
// scale of 1/(1-q) the two are a tenth of the axis apart.
type PercentileTicks struct{}

func (PercentileTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for _, q := range []float64{0, 50, 90, 99, 99.9, 99.99} {
		x := 1 / (1 - q/100)
		if x >= lo && x <= hi {
			t := plot.Tick{Value: x}
			if q > 0 {
				t.Label = strconv.FormatFloat(q, 'f', -1, 64) + "%"
			}
			out = append(out, t)
		}
	}
	return out
}

// PercentileLine is one condition's pooled request latencies in one bundle, as
// ByPercentile draws them.
type PercentileLine struct {
	// Name is the condition as the legend names it; Bundle is the bundle's place among
	// those drawn, Condition the condition's in its bundle (its colour).
	Name              string
	Bundle, Condition int
	Ms                []float64
}

// ByPercentile draws each line's latencies against 1/(1-q) on log axes, as
// HdrHistogram's percentile plots do: the tail gets the room a linear percentile axis
// gives the median. A colour per condition; with several bundles (labels, in order) a
// line style per bundle, else a style per condition as well, so that two conditions of
// the same latencies both show. It draws nothing (false) when no latency is above 0.
func ByPercentile(title string, lines []PercentileLine, bundles []string) (Figure, bool) {
	ch := NewChart(title, "percentile (log scale of 1/(1-q))", "latency (ms, log scale)")
	lo, hi, maxX := math.Inf(1), 0.0, 2.0
	var named []string
	for _, c := range lines {
		sorted := slices.Sorted(slices.Values(c.Ms))
		var xys plotter.XYs
		for k, v := range sorted {
			if v <= 0 {
				continue
			}
			x := 1 / (1 - float64(k)/float64(len(sorted))) // k/n: the fraction below v
			xys = append(xys, plotter.XY{X: x, Y: v})
			lo, hi, maxX = min(lo, v), max(hi, v), max(maxX, x)
		}
		if len(xys) == 0 {
			continue
		}
		l, err := Line(Thin(xys, 2000), Colour(c.Condition), 1.4, false)
		if err != nil {
			continue
		}
		l.Dashes = LineStyles[c.Condition%len(LineStyles)]
		if len(bundles) > 1 {
			l.Dashes = LineStyles[c.Bundle%len(LineStyles)]
		}
		ch.Add(l)
		if !slices.Contains(named, c.Name) {
			named = append(named, c.Name)
			if len(bundles) > 1 {
				ch.AddLegend(c.Name, Swatch{Colour: Colour(c.Condition)})
			} else {
				ch.AddLegend(c.Name, l)
			}
		}
	}
	if math.IsInf(lo, 1) {
		return Figure{}, false
	}
	if len(bundles) > 1 {
		for j, label := range bundles {
			if l, err := Line(plotter.XYs{{}, {X: 1}}, Grey, 1.4, false); err == nil {
				l.Dashes = LineStyles[j%len(LineStyles)]
				ch.AddLegend(label, l)
			}
		}
	}
	ch.P.X.Scale = plot.LogScale{}
	ch.P.X.Tick.Marker = PercentileTicks{}
	ch.P.X.Min, ch.P.X.Max = 1, maxX*1.2
	LogAxis(&ch.P.Y, lo, hi)
	return ch.Render(), true
}

// BySchedule draws each request's latency (Y, ms) at its scheduled send (X, s from the
// first): a stall shows as a ramp, a slow start as early outliers. Each of bundles'
// runs is a Trace of its requests. With one bundle a colour per run, each run named, so
// that a run unlike the others shows; with several a colour per bundle, named once. A
// latency not above 0 has no place on the log axis and is left out; it draws nothing
// (false) when no request is left.
func BySchedule(title string, bundles []Traces) (Figure, bool) {
	ch := NewChart(title, "scheduled send (s from the first)", "latency (ms, log scale)")
	lo, hi := math.Inf(1), 0.0
	for _, b := range bundles {
		for i, run := range b.Runs {
			var xys plotter.XYs
			for _, p := range run.XYs {
				if p.Y > 0 && !math.IsInf(p.Y, 0) {
					xys = append(xys, p)
					lo, hi = min(lo, p.Y), max(hi, p.Y)
				}
			}
			if len(xys) == 0 {
				continue
			}
			col := b.Colour
			if len(bundles) == 1 {
				col = Colour(i)
			}
			pts, err := Points(xys, col, draw.CircleGlyph{}, 1.6)
			if err != nil {
				continue
			}
			ch.Add(pts)
			switch {
			case len(bundles) == 1:
				ch.AddLegend(run.Name, pts)
			case i == 0:
				ch.AddLegend(b.Label, pts)
			}
		}
	}
	if math.IsInf(lo, 1) {
		return Figure{}, false
	}
	ch.P.X.Min = 0
	ch.P.X.Tick.Marker = LinearTicks{}
	LogAxis(&ch.P.Y, lo, hi)
	return ch.Render(), true
}
