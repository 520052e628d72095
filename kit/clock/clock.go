// Package clock sleeps precisely. The Go runtime waits for its timers in epoll with
// millisecond resolution, so time.Sleep and timers wake up to a millisecond late; the
// load generator's schedule and the slow reader's pacing need better than that.
package clock

import (
	"context"
	"runtime"
	"time"
)

// spin is how long before the deadline SleepUntil stops sleeping on a timer and spins:
// a timer may wake up to a millisecond late, so it is set this much early. The spin
// yields to other goroutines, and costs at most this much CPU per wake-up.
//
// Measured on loopback at 20 sends a second (send lag = actual - scheduled): timers
// alone, p50 0.67 ms; nanosleep(2) then a short spin, p50 0.05 ms but p99 2.5-11 ms (a
// goroutine woken from a system call waits for a processor); this, p50 0.05 ms and
// p99 0.2-1.0 ms.
const spin = 1500 * time.Microsecond

// SleepUntil returns at at, or as soon as ctx ends.
func SleepUntil(ctx context.Context, at time.Time) {
	if wait := time.Until(at) - spin; wait > 0 {
		timer := time.NewTimer(wait)
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return
		}
	}
	for ctx.Err() == nil && time.Now().Before(at) {
		runtime.Gosched()
	}
}
