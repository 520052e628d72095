package report

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// MaxTickLabel is the longest a tick label may be: a short number, never a double's
// every digit (0.7000000000000001).
const MaxTickLabel = 8

// shortTicks labels an axis with whatever marker it has, each numeric label written at
// the precision of the axis' step: no label carries a double's rounding, or runs past
// MaxTickLabel characters. Labels that are not numbers (categories, 20k, 50%) stay.
type shortTicks struct {
	plot.Ticker
	// log: the steps between a log axis' ticks differ; each label gets its own
	// precision.
	log bool
}

func (s shortTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := s.Ticker.Ticks(lo, hi)
	step := math.Inf(1)
	prev := math.NaN()
	for _, t := range ticks {
		if t.Label == "" {
			continue
		}
		if d := math.Abs(t.Value - prev); d > 0 {
			step = min(step, d)
		}
		prev = t.Value
	}
	if s.log {
		step = math.Inf(1)
	}
	for i, t := range ticks {
		if _, err := strconv.ParseFloat(t.Label, 64); err != nil || t.Label == "" {
			continue
		}
		ticks[i].Label = TickLabel(t.Value, step)
	}
	return ticks
}

// TickLabel writes a tick's value rounded to the precision of the step between
// labelled ticks (its own precision for a lone tick, or with an infinite step), at most MaxTickLabel characters:
// 0.7, 2.25, 1500, 25k, 1.5M.
func TickLabel(v, step float64) string {
	finite := step > 0 && !math.IsInf(step, 0)
	if finite && math.Abs(v) < 1e-9*step {
		v = 0 // a double's rounding of 0, not -0.0 or 1e-17
	}
	decimals := 0
	if finite {
		// The fewest decimals that write the step itself exactly (0.25: 2; 5: 0).
		for decimals < 6 && math.Abs(step*math.Pow(10, float64(decimals))-math.Round(step*math.Pow(10, float64(decimals)))) > 1e-6 {
			decimals++
		}
	} else {
		for decimals < 6 && math.Abs(v*math.Pow(10, float64(decimals))-math.Round(v*math.Pow(10, float64(decimals)))) > 1e-6*math.Abs(v)*math.Pow(10, float64(decimals)) {
			decimals++
		}
	}
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if len(s) <= MaxTickLabel && math.Abs(v) < 1e6 {
		return s
	}
	if math.Abs(v) >= 1e4 {
		return Short(v)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// shorten makes both axes' markers write short labels, once.
func shorten(p *plot.Plot) {
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		if _, done := a.Tick.Marker.(shortTicks); !done && a.Tick.Marker != nil {
			_, log := a.Scale.(plot.LogScale)
			a.Tick.Marker = shortTicks{Ticker: a.Tick.Marker, log: log}
		}
	}
}
