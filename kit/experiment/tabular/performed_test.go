package tabular

import (
	"testing"
	"time"

	"github.com/logbench/logbench/kit/experiment"
)

// TestAPerformedRunIsItsAttempt: the run's columns as the matrix performed it, in UTC,
// and a matrix that did not number its attempts performed the first.
func TestAPerformedRunIsItsAttempt(t *testing.T) {
	started := time.Date(2026, 12, 3, 19, 0, 0, 5, time.FixedZone("CET", 3600))
	for _, tc := range []struct {
		attempt, want int
	}{{0, 1}, {1, 1}, {3, 3}} {
		run := experiment.Run{ID: "r7", Round: 2, Position: 4, Attempt: tc.attempt, Started: started, Wall: 1500 * time.Millisecond}
		want := Performed{RunID: "r7", RunPlace: RunPlace{Round: 2, Position: 4, StartedUTC: "2026-12-03T18:00:00.000000005Z", WallS: 1.5},
			Attempted: Attempted{Attempt: tc.want}}
		if have := PerformedOf(run); have != want {
			t.Errorf("attempt %d: %+v, want %+v", tc.attempt, have, want)
		}
		if have := RunPlaceOf(run); have != want.RunPlace {
			t.Errorf("RunPlaceOf: %+v, want %+v", have, want.RunPlace)
		}
	}
}
