package fifostall

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/logbench/logbench/kit/offline/figure"

	"gonum.org/v1/plot/plotter"
)

// backlog is a run's log backlog over time: bytes generated minus bytes read, at each
// sample of either series.
func backlog(tl []TimelineRow) plotter.XYs {
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

// capacityText says the load generator's capacity, or that the sweep found none: a
// sweep where no rate held (a busy host) has no capacity, which is not 0 req/s.
func capacityText(c *Calibration) string {
	if c.CapacityRPS == 0 {
		lowest := "none"
		if len(c.Sweep) > 0 {
			lowest = fixed(c.Sweep[0].RateRPS, 0) + " req/s"
		}
		return fmt.Sprintf("none: no rate held send-lag p99 within %s ms on %g CPU (lowest tried: %s)", figure.Text(c.CapacityLagBoundMs), c.CapacityCPUs, lowest)
	}
	return fmt.Sprintf("%s req/s on %g CPU (send-lag p99 within %s ms)", fixed(c.CapacityRPS, 0), c.CapacityCPUs, figure.Text(c.CapacityLagBoundMs))
}

// calibrationRows are the instrument's calibration, as the manifest has it.
func calibrationRows(c *Calibration) [][2]string {
	if c == nil {
		return nil
	}
	return [][2]string{
		{"send lag at " + fixed(c.RateRPS, 0) + " req/s", fmt.Sprintf("p50 %s ms, p99 %s ms, max %s ms", figure.Text(c.SendLagP50Ms), figure.Text(c.SendLagP99Ms), figure.Text(c.SendLagMaxMs))},
		{"slow reader", fmt.Sprintf("%s KiB/s achieved of a %s KiB/s bound", fixed(c.ReaderAchievedBytesPerS/1024, 1), fixed(float64(c.ReaderBoundBytesPerS)/1024, 1))},
		{"pipe capacity", fmt.Sprintf("%s KiB", fixed(float64(c.PipeCapacityBytes)/1024, 0))},
		{"clock and timers", fmt.Sprintf("resolution %d ns; sleep overshoot p50 %s us, p99 %s us", c.ClockResolutionNs, fixed(c.SleepOvershootP50Us, 1), fixed(c.SleepOvershootP99Us, 1))},
		{"load generator capacity", capacityText(c)},
		{"kit overhead per run", fixed(c.RunOverheadS, 2) + " s"},
	}
}
