package loadgen

import (
	"time"

	"github.com/logbench/logbench/kit/contract/stats"
)

// TimerFacts describe the clock and the timers the load generator schedules with.
type TimerFacts struct {
	// ClockResolutionNs is the smallest step seen between two readings of the clock.
	ClockResolutionNs int64 `json:"clock_resolution_ns"`
	// How late a 1 ms sleep wakes up, in microseconds.
	SleepOvershootP50Us float64 `json:"sleep_overshoot_p50_us"`
	SleepOvershootP99Us float64 `json:"sleep_overshoot_p99_us"`
}

// MeasureTimer reads the clock until it moves, many times, and sleeps 1 ms sleeps times.
func MeasureTimer(sleeps int) TimerFacts {
	var f TimerFacts
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
