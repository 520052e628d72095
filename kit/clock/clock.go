// Package clock sleeps precisely. The Go runtime waits for its timers in epoll with
// millisecond resolution, so time.Sleep and timers wake up to a millisecond late; the
// load generator's schedule and the slow reader's pacing need better than that. A
// nanosleep(2) on the kernel's high-resolution timer wakes within tens of microseconds
// and costs no CPU while it waits.
package clock

import (
	"context"
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// spin is how long before the deadline SleepUntil stops sleeping and spins instead:
// long enough to absorb the kernel's timer slack and the wake-up, short enough to cost
// little CPU (at 20 sends a second, well under 1% of a core).
const spin = 200 * time.Microsecond

// SleepUntil returns at at, or when ctx ends, which it checks at least every 100 ms. It
// sleeps in the kernel (the calling goroutine holds its thread there; the Go scheduler
// runs other goroutines on other threads), then spins the last moment, yielding to
// other goroutines.
func SleepUntil(ctx context.Context, at time.Time) {
	for ctx.Err() == nil {
		wait := time.Until(at) - spin
		if wait <= 0 {
			break
		}
		ts := unix.NsecToTimespec(min(wait, 100*time.Millisecond).Nanoseconds())
		unix.Nanosleep(&ts, nil) // an early return (EINTR) just loops
	}
	for ctx.Err() == nil && time.Now().Before(at) {
		runtime.Gosched()
	}
}
