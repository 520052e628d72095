package loadgen

import (
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/contract/stats"
)

// MeasureTimer reads the clock until it moves, many times, and sleeps 1 ms sleeps times.
func MeasureTimer(sleeps int) contract.TimerFacts {
	var f contract.TimerFacts
	for range 1000 {
		a := time.Now()
		b := time.Now()
		for b.Equal(a) {
			b = time.Now()
		}
		if step := b.Sub(a).Nanoseconds(); f.ClockResolutionNs == 0 || step < f.ClockResolutionNs {
			f.ClockResolutionNs = step
		}
	}
	over := make([]float64, 0, sleeps)
	for range sleeps {
		start := time.Now()
		time.Sleep(time.Millisecond)
		over = append(over, float64(time.Since(start)-time.Millisecond)/1e3)
	}
	f.SleepOvershootP50Us, f.SleepOvershootP99Us = stats.NearestRank(over, 50), stats.NearestRank(over, 99)
	return f
}
