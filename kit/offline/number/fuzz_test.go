package number

import (
	"math"
	"strconv"
	"testing"
)

// FuzzParseAndClose drives the reader and the comparison every verification uses:
// Parse never returns a non-finite value, agrees with strconv on finite ones, and Close
// is symmetric, takes no infinity, and holds only within rel of the larger value.
func FuzzParseAndClose(f *testing.F) {
	for _, s := range []string{"1", "-inf", "+Inf", "infinity", "NaN", "1e308", "1e999", "-0", "0x1p-3"} {
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
