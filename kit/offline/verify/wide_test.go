package verify

import (
	"math"
	"testing"
)

// TestAWideIntervalIsPastATenthEitherSide: ±10% is not wide, past it is; no interval,
// or no positive figure, is never wide.
func TestAWideIntervalIsPastATenthEitherSide(t *testing.T) {
	for _, c := range []struct {
		figure, lo, hi float64
		wide           bool
	}{{100, 90, 110, false}, {100, 89, 111, true}, {100, math.NaN(), math.NaN(), false}, {0, -5, 5, false}} {
		if got := Wide(c.figure, c.lo, c.hi); got != c.wide {
			t.Errorf("Wide(%v, %v, %v) = %v, want %v", c.figure, c.lo, c.hi, got, c.wide)
		}
	}
}
