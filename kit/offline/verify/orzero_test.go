package verify

import (
	"math"
	"testing"
)

// TestAMissingPartAddsNothing: a missing figure is 0, any other itself.
func TestAMissingPartAddsNothing(t *testing.T) {
	for _, tc := range []struct{ have, want float64 }{{math.NaN(), 0}, {0, 0}, {-2.5, -2.5}, {3, 3}} {
		if got := OrZero(tc.have); got != tc.want {
			t.Errorf("OrZero(%v) = %v, want %v", tc.have, got, tc.want)
		}
	}
}
