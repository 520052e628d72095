package number

import (
	"math"
	"regexp"
	"strconv"
	"testing"
)

// grammar is the package's grammar as a regular expression: the fuzz test's second
// opinion on the hand-written scanner.
var grammar = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// FuzzParseAndClose drives the reader and the comparison every verification uses:
// Parse never returns a non-finite value, takes exactly the grammar's spellings and
// agrees with strconv on them, and Close is symmetric, takes no infinity, and holds
// only within rel of the larger value.
func FuzzParseAndClose(f *testing.F) {
	for _, s := range []string{"1", "-inf", "+Inf", "infinity", "NaN", "1e308", "1e999", "-0", "0x1p-3", "1_0", "+5", "007", "1e-400", "5e-324"} {
		f.Add(s, 1.0, math.Inf(-1), 1e-9)
	}
	f.Add("2", math.NaN(), math.NaN(), 1e-9)
	f.Add("2", math.MaxFloat64, -math.MaxFloat64, 1.0)
	f.Fuzz(func(t *testing.T, s string, a, b, rel float64) {
		x, err := Parse(s)
		if err == nil {
			if !Finite(x) {
				t.Fatalf("Parse(%q) = %v", s, x)
			}
			if y, err := strconv.ParseFloat(s, 64); err != nil || y != x {
				t.Fatalf("Parse(%q) = %v, strconv %v %v", s, x, y, err)
			}
			if !grammar.MatchString(s) || math.Signbit(x) && x == 0 {
				t.Fatalf("Parse(%q) = %v: out of the grammar", s, x)
			}
		} else if grammar.MatchString(s) && err == ErrNotPlain {
			t.Fatalf("Parse(%q): %v, but it is in the grammar", s, err)
		}
		if n, err := ParseInt(s, 64); err == nil && (strconv.FormatInt(n, 10) != s) {
			t.Fatalf("ParseInt(%q) = %d: not its one spelling", s, n)
		}
		if Close(a, b, rel) != Close(b, a, rel) {
			t.Fatalf("Close(%v, %v) is not symmetric", a, b)
		}
		if !Close(a, b, rel) {
			return
		}
		switch {
		case math.IsInf(a, 0) || math.IsInf(b, 0):
			t.Fatalf("Close(%v, %v, %v) with an infinity", a, b, rel)
		case math.IsNaN(a) != math.IsNaN(b):
			t.Fatalf("Close(%v, %v, %v): a NaN against a number", a, b, rel)
		case !math.IsNaN(a) && a != b && !(math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))):
			t.Fatalf("Close(%v, %v, %v) beyond rel", a, b, rel)
		}
	})
}

// FuzzWhatTheKitWritesReadsBack: the shortest decimal of any finite float64, in either
// of the forms the kit writes ('g' in figures, 'f' in gocsv's and Opt's tables), reads
// back as the same value; a negative zero is written as 0 (bundle.Encode) and so is
// not among them.
func FuzzWhatTheKitWritesReadsBack(f *testing.F) {
	for _, x := range []float64{0, 1, -1, 0.1, 1758.7, 1e21, 1e-7, 5e-324, -5e-324, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 123456789012345678} {
		f.Add(x)
	}
	f.Fuzz(func(t *testing.T, x float64) {
		if !Finite(x) || x == 0 && math.Signbit(x) {
			return
		}
		for _, format := range []byte{'g', 'f', 'e'} {
			s := strconv.FormatFloat(x, format, -1, 64)
			if y, err := Parse(s); err != nil || y != x {
				t.Fatalf("%v written %q reads as %v, %v", x, s, y, err)
			}
		}
		if x == math.Trunc(x) && math.Abs(x) < 1<<62 {
			s := strconv.FormatInt(int64(x), 10)
			if n, err := ParseInt(s, 64); err != nil || float64(n) != x {
				t.Fatalf("%v written %q reads as %v, %v", x, s, n, err)
			}
		}
	})
}
