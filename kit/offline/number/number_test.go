package number

import (
	"math"
	"testing"
)

func TestParseRefusesEveryNonFiniteSpelling(t *testing.T) {
	for _, s := range []string{"inf", "Inf", "INF", "-inf", "-Inf", "-INF", "+Inf", "+inf", "infinity", "Infinity", "-infinity", "+INFINITY", "NaN", "nan", "NAN", "1e999", "-1e400", "0x1p2000"} {
		if f, err := Parse(s); err != ErrNotFinite {
			t.Errorf("Parse(%q) = %v, %v: want ErrNotFinite", s, f, err)
		}
	}
	for _, s := range []string{"", " 1", "1 ", "1,5", "one", "1e", "--1", "-nan", "+NaN"} {
		if f, err := Parse(s); err != ErrNotNumber {
			t.Errorf("Parse(%q) = %v, %v: want ErrNotNumber", s, f, err)
		}
	}
	for s, want := range map[string]float64{"0": 0, "-0": 0, "1.5": 1.5, "1758.25": 1758.25, "1e-300": 1e-300, "-2": -2} {
		if f, err := Parse(s); err != nil || f != want {
			t.Errorf("Parse(%q) = %v, %v", s, f, err)
		}
	}
}

func TestCloseTakesNoInfinity(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, tc := range []struct {
		have, want float64
		same       bool
	}{
		{1, 1, true},
		{1, 1 + 1e-12, true},
		{1, 1.001, false},
		{0, 0, true},
		{nan, nan, true}, // absent on both sides
		{nan, 1, false},
		{1, nan, false},
		{-inf, 1758, false},
		{1758, inf, false},
		{inf, inf, false},
		{-inf, -inf, false},
		{inf, nan, false},
		{math.MaxFloat64, inf, false},
	} {
		if got := Same(tc.have, tc.want); got != tc.same {
			t.Errorf("Same(%v, %v) = %v", tc.have, tc.want, got)
		}
	}
}
