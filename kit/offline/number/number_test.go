package number

import (
	"math"
	"testing"
)

func TestParseRefusesEveryNonFiniteSpelling(t *testing.T) {
	for _, s := range []string{"inf", "Inf", "INF", "-inf", "-Inf", "-INF", "+Inf", "+inf", "infinity", "Infinity", "-infinity", "+INFINITY", "NaN", "nan", "NAN", "1e999", "-1e400"} {
		if f, err := Parse(s); err != ErrNotFinite {
			t.Errorf("Parse(%q) = %v, %v: want ErrNotFinite", s, f, err)
		}
	}
	for _, s := range []string{"", "one", "-nan", "+NaN", "-"} {
		if f, err := Parse(s); err != ErrNotNumber {
			t.Errorf("Parse(%q) = %v, %v: want ErrNotNumber", s, f, err)
		}
	}
	for s, want := range map[string]float64{"0": 0, "0.0": 0, "1.5": 1.5, "1758.25": 1758.25, "1e-300": 1e-300, "-2": -2, "1e+21": 1e21, "1E5": 1e5,
		"1e-07": 1e-7, "0.5": 0.5, "-0.5": -0.5, "10": 10, "5e-324": 5e-324, "1.7976931348623157e+308": math.MaxFloat64} {
		if f, err := Parse(s); err != nil || f != want {
			t.Errorf("Parse(%q) = %v, %v", s, f, err)
		}
	}
}

// TestParseTakesOneGrammar: every spelling some common CSV reader reads otherwise than
// another (or strconv otherwise than Python's float) is refused, each for its reason.
func TestParseTakesOneGrammar(t *testing.T) {
	for s, want := range map[string]error{
		"0x1p3": ErrNotPlain, "0x10": ErrNotPlain, "1_0": ErrNotPlain, "+5": ErrNotPlain, "007": ErrNotPlain, "00.5": ErrNotPlain,
		".5": ErrNotPlain, "5.": ErrNotPlain, " 1": ErrNotPlain, "1 ": ErrNotPlain, "1,5": ErrNotPlain, "1e": ErrNotPlain, "--1": ErrNotPlain,
		"0x1p2000": ErrNotPlain, "1.5e": ErrNotPlain, "1e+": ErrNotPlain, "١": ErrNotNumber, "1\x00": ErrNotPlain,
		"-0": ErrNegativeZero, "-0.0": ErrNegativeZero, "-0e5": ErrNegativeZero, "-0.000": ErrNegativeZero,
		"1e-400": ErrUnderflow, "-1e-400": ErrUnderflow, "0.1e-323": ErrUnderflow, "2e-324": ErrUnderflow,
	} {
		if f, err := Parse(s); err != want {
			t.Errorf("Parse(%q) = %v, %v: want %v", s, f, err, want)
		}
	}
}

func TestParseIntTakesTheSameGrammar(t *testing.T) {
	for s, want := range map[string]int64{"0": 0, "7": 7, "-7": -7, "9223372036854775807": math.MaxInt64} {
		if n, err := ParseInt(s, 64); err != nil || n != want {
			t.Errorf("ParseInt(%q) = %v, %v", s, n, err)
		}
	}
	for _, s := range []string{"+5", "007", "-0", "1_0", "0x10", "1.0", "1e3", "", " 1", "9223372036854775808", "-"} {
		if n, err := ParseInt(s, 64); err == nil {
			t.Errorf("ParseInt(%q) = %v, want an error", s, n)
		}
	}
	if n, err := ParseInt("128", 8); err == nil {
		t.Errorf("ParseInt(128, 8) = %v", n)
	}
	if n, err := ParseUint("18446744073709551615", 64); err != nil || n != math.MaxUint64 {
		t.Errorf("ParseUint = %v, %v", n, err)
	}
	for _, s := range []string{"-1", "+1", "01", "-0"} {
		if n, err := ParseUint(s, 64); err == nil {
			t.Errorf("ParseUint(%q) = %v, want an error", s, n)
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
