package bundle

import (
	"math"
	"testing"
)

// TestFixedLinesUpAndWritesNoInfinity: a figure to fixed decimals, and "-" for one that
// is missing or not finite (a rate over no time), never "+Inf".
func TestFixedLinesUpAndWritesNoInfinity(t *testing.T) {
	for _, tc := range []struct {
		v        Opt
		decimals int
		want     string
	}{
		{0, 3, "0.000"},
		{0.2494, 3, "0.249"},
		{2.0306, 3, "2.031"},
		{1234.4, 0, "1234"},
		{None, 1, "-"},
		{Opt(math.Inf(1)), 1, "-"},
		{Opt(math.Inf(-1)), 0, "-"},
	} {
		if have := tc.v.Fixed(tc.decimals); have != tc.want {
			t.Errorf("Opt(%v).Fixed(%d) = %q, want %q", float64(tc.v), tc.decimals, have, tc.want)
		}
	}
}
