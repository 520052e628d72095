package bundle

import "testing"

func TestPer(t *testing.T) {
	for _, tc := range []struct {
		num, den, want Opt
	}{
		{3, 2, 1.5},
		{0, 2, 0},
		{3, 0, None},
		{3, -1, None},
		{None, 2, None},
		{3, None, None},
	} {
		if got := Per(tc.num, tc.den); got != tc.want && (got.Present() || tc.want.Present()) {
			t.Errorf("Per(%v, %v) = %v, want %v", tc.num, tc.den, got, tc.want)
		}
	}
}
