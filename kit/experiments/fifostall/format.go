package fifostall

import (
	"fmt"
	"math"
	"sort"

	"github.com/logbench/logbench/kit/offline/bundle"
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
			lowest = bundle.Opt(c.Sweep[0].RateRPS).Fixed(0) + " req/s"
		}
		return fmt.Sprintf("none: no rate held send-lag p99 within %s ms on %g CPU (lowest tried: %s)", figure.Text(c.CapacityLagBoundMs), c.CapacityCPUs, lowest)
	}
	return fmt.Sprintf("%s req/s on %g CPU (send-lag p99 within %s ms)", bundle.Opt(c.CapacityRPS).Fixed(0), c.CapacityCPUs, figure.Text(c.CapacityLagBoundMs))
}

// calibrationRows are the instrument's calibration, as the manifest has it.
func calibrationRows(c *Calibration) [][2]string {
	if c == nil {
		return nil
	}
	return [][2]string{
		{"send lag at " + bundle.Opt(c.RateRPS).Fixed(0) + " req/s", fmt.Sprintf("p50 %s ms, p99 %s ms, max %s ms", figure.Text(c.SendLagP50Ms), figure.Text(c.SendLagP99Ms), figure.Text(c.SendLagMaxMs))},
		{"slow reader", fmt.Sprintf("%s KiB/s achieved of a %s KiB/s bound", bundle.Opt(c.ReaderAchievedBytesPerS/1024).Fixed(1), bundle.Opt(float64(c.ReaderBoundBytesPerS)/1024).Fixed(1))},
		{"pipe capacity", fmt.Sprintf("%s KiB", bundle.Opt(float64(c.PipeCapacityBytes)/1024).Fixed(0))},
		{"clock and timers", fmt.Sprintf("resolution %d ns; sleep overshoot p50 %s us, p99 %s us", c.ClockResolutionNs, bundle.Opt(c.SleepOvershootP50Us).Fixed(1), bundle.Opt(c.SleepOvershootP99Us).Fixed(1))},
		{"load generator capacity", capacityText(c)},
		{"kit overhead per run", bundle.Opt(c.RunOverheadS).Fixed(2) + " s"},
	}
}
