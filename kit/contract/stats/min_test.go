package stats

import (
	"math"
	"testing"
)

// TestMin: the smallest value, NaN for none, and NaN when any value is NaN (a figure a
// run could not give spoils the range, as it does Max's).
func TestMin(t *testing.T) {
	for _, tc := range []struct {
		values []float64
		want   float64
	}{
		{[]float64{3, 1, 2}, 1},
		{[]float64{-0.5}, -0.5},
		{nil, math.NaN()},
		{[]float64{1, math.NaN(), 0}, math.NaN()},
	} {
		have := Min(tc.values)
		if have != tc.want && !(math.IsNaN(have) && math.IsNaN(tc.want)) {
			t.Errorf("Min(%v) = %v, want %v", tc.values, have, tc.want)
		}
	}
}
