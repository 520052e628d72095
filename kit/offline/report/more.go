package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// palette colours runs or conditions apart (Okabe and Ito, then two more).
var palette = []color.RGBA{blue, orange, green, red, purple, grey, {86, 180, 233, 255}}

// schedulePlots draw each request's latency at its scheduled send time, a colour per
// run: a stall shows as a ramp, a slow start as early outliers, and a run unlike the
// others as its own colour.
func schedulePlots(conds []condition) []figure {
	var out []figure
	for _, c := range conds {
		if len(c.runs) == 0 {
			continue
		}
		title := fmt.Sprintf("%s/%s/%s: latency by scheduled send", c.api, c.mode, c.reader)
		p := newPlot(title, "scheduled send (s from the first)", "latency (ms, log scale)")
		lo, hi := math.Inf(1), 0.0
		for i, run := range c.runs {
			var xys plotter.XYs
			for _, q := range run.Requests {
				if q.LatencyMs > 0 && !math.IsInf(q.LatencyMs, 0) {
					xys = append(xys, plotter.XY{X: q.ScheduledOffsetS, Y: q.LatencyMs})
					lo, hi = min(lo, q.LatencyMs), max(hi, q.LatencyMs)
				}
			}
			if len(xys) == 0 {
				continue
			}
			col := palette[i%len(palette)]
			pts, err := points(xys, col, draw.CircleGlyph{}, 1.6)
			if err != nil {
				continue
			}
			p.Add(pts)
			p.Legend.Add(fmt.Sprintf("run %d (%s)", run.Run.Round, run.Run.RunID), pts)
		}
		if math.IsInf(lo, 1) {
			continue
		}
		p.X.Min = 0
		p.X.Tick.Marker = linearTicks{}
		logAxis(&p.Y, lo, hi)
		out = append(out, renderPlot(p))
	}
	return out
}

// hdrPlots draw each condition's latency against 1/(1-q) on log axes, as HdrHistogram's
// percentile plots do: the tail gets the room a linear percentile axis gives the
// median. One plot per reader; a line joins the percentiles of one condition only.
func hdrPlots(conds []condition, readers []string, multiAPI bool) []figure {
	var out []figure
	for _, reader := range readers {
		title := fmt.Sprintf("Latency by percentile, %s reader", reader)
		p := newPlot(title, "percentile (log scale of 1/(1-q))", "latency (ms, log scale)")
		lo, hi := math.Inf(1), 0.0
		maxX := 2.0
		for i, c := range ofReader(conds, reader) {
			if len(c.lat) == 0 {
				continue
			}
			sorted := slices.Sorted(slices.Values(c.lat))
			n := len(sorted)
			var xys plotter.XYs
			for k := range n {
				q := float64(k) / float64(n) // the fraction below this value
				if sorted[k] <= 0 {
					continue
				}
				x := 1 / (1 - q)
				xys = append(xys, plotter.XY{X: x, Y: sorted[k]})
				lo, hi, maxX = min(lo, sorted[k]), max(hi, sorted[k]), max(maxX, x)
			}
			if len(xys) == 0 {
				continue
			}
			col := palette[i%len(palette)]
			l, err := line(xys, col, 1.4, false)
			if err != nil {
				continue
			}
			p.Add(l)
			p.Legend.Add(c.label(multiAPI), l)
		}
		if math.IsInf(lo, 1) {
			continue
		}
		p.Legend.Top, p.Legend.Left = true, true
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = percentileTicks{}
		p.X.Min, p.X.Max = 1, maxX*1.2
		logAxis(&p.Y, lo, hi)
		out = append(out, renderPlot(p))
	}
	return out
}

// percentileTicks label 1/(1-q) at 0%, 50%, 90%, 99%, 99.9%.
type percentileTicks struct{}

func (percentileTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for _, q := range []float64{0, 50, 90, 99, 99.9, 99.99} {
		x := 1 / (1 - q/100)
		if x >= lo && x <= hi {
			out = append(out, plot.Tick{Value: x, Label: strconv.FormatFloat(q, 'f', -1, 64) + "%"})
		}
	}
	return out
}

// backlog is a run's log backlog over time: bytes generated minus bytes read, at each
// sample of either series.
func backlog(tl []bundle.TimelineRow) plotter.XYs {
	type ev struct {
		t   float64
		gen bool
		b   int64
	}
	var evs []ev
	for _, r := range tl {
		if r.Series == "generated" || r.Series == "read" {
			evs = append(evs, ev{r.OffsetS, r.Series == "generated", r.Bytes})
		}
	}
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].t < evs[j].t })
	var gen, read int64
	var out plotter.XYs
	for _, e := range evs {
		if e.gen {
			gen = e.b
		} else {
			read = e.b
		}
		if !math.IsNaN(e.t) && !math.IsInf(e.t, 0) {
			out = append(out, plotter.XY{X: e.t, Y: float64(max(0, gen-read)) / 1024})
		}
	}
	return out
}

// ms writes milliseconds with three significant digits (1.23, 12.3, 123, 1758): the
// page's one format for latencies; "-" when absent.
func ms(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "-"
	case v == 0:
		return "0"
	case math.Abs(v) >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case math.Abs(v) >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case math.Abs(v) >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}

// fixed writes a figure with a fixed number of decimals, so that a column lines up
// (0.000, 0.249, 2.031 s); "-" when absent.
func fixed(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func superseded(b bool) string {
	if b {
		return " (redone)"
	}
	return ""
}

// calibrationRows are the instrument's calibration, as the manifest has it.
func calibrationRows(c *bundle.Calibration) [][2]string {
	if c == nil {
		return nil
	}
	capacity := fmt.Sprintf("%s req/s on %g CPU (send-lag p99 within %s ms)", fixed(c.CapacityRPS, 0), c.CapacityCPUs, ms(c.CapacityLagBoundMs))
	if c.CapacityRPS == 0 {
		capacity = "no rate held in the sweep"
	}
	return [][2]string{
		{"send lag at " + fixed(c.RateRPS, 0) + " req/s", fmt.Sprintf("p50 %s ms, p99 %s ms, max %s ms", ms(c.SendLagP50Ms), ms(c.SendLagP99Ms), ms(c.SendLagMaxMs))},
		{"slow reader", fmt.Sprintf("%s KiB/s achieved of a %s KiB/s bound", fixed(c.ReaderAchievedBytesPerS/1024, 1), fixed(float64(c.ReaderBoundBytesPerS)/1024, 1))},
		{"pipe capacity", fmt.Sprintf("%s KiB", fixed(float64(c.PipeCapacityBytes)/1024, 0))},
		{"clock and timers", fmt.Sprintf("resolution %d ns; sleep overshoot p50 %s us, p99 %s us", c.ClockResolutionNs, fixed(c.SleepOvershootP50Us, 1), fixed(c.SleepOvershootP99Us, 1))},
		{"load generator capacity", capacity},
		{"kit overhead per run", fixed(c.RunOverheadS, 2) + " s"},
	}
}
