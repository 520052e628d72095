package bundle

import (
	"fmt"
	"math"
	"strconv"

	"github.com/logbench/logbench/kit/contract/stats"
	"github.com/logbench/logbench/kit/offline/figure"
	"github.com/logbench/logbench/kit/offline/number"
)

// Opt is a figure that may be absent: it is written as an empty field.
type Opt float64

// None is an absent figure.
var None = Opt(math.NaN())

// MarshalCSV writes an absent figure as nothing.
func (o Opt) MarshalCSV() (string, error) {
	switch {
	case math.IsNaN(float64(o)):
		return "", nil
	case o == 0:
		return "0", nil // never "-0", which the reader refuses (package number)
	}
	return strconv.FormatFloat(float64(o), 'f', -1, 64), nil
}

// UnmarshalCSV reads an empty field as absent.
func (o *Opt) UnmarshalCSV(s string) error {
	if s == "" {
		*o = None
		return nil
	}
	f, err := number.Parse(s)
	*o = Opt(f)
	return err
}

// OptIf is f when has, and absent otherwise: a figure its source reports as 0 when it
// has none (a latency without a response), which a bundle writes as missing, never 0.
func OptIf(has bool, f float64) Opt {
	if !has {
		return None
	}
	return Opt(f)
}

// EarlierZeros reads as missing each figure of an earlier kit's bundle that is 0
// where today's derivation has none (pairs of the figure as read and as derived): that
// 0 never was a measurement, and today's kit leaves the field empty. It says how many
// it read so, for verify's note.
func EarlierZeros(pairs ...[2]*Opt) int {
	n := 0
	for _, p := range pairs {
		if have, want := p[0], p[1]; *have == 0 && !want.Present() {
			*have, n = None, n+1
		}
	}
	return n
}

// Present says o holds a figure.
func (o Opt) Present() bool { return !math.IsNaN(float64(o)) }

// Fixed writes the figure to decimals places, as a summary's table does, so that a
// column lines up (0.000, 0.249, 2.031); - when absent or not finite.
func (o Opt) Fixed(decimals int) string {
	if !o.Present() || math.IsInf(float64(o), 0) {
		return "-"
	}
	return fmt.Sprintf("%.*f", decimals, float64(o))
}

// FixedInterval writes an interval to whole units, [lo, hi]; - when either end is
// absent.
func FixedInterval(lo, hi Opt) string {
	if !lo.Present() || !hi.Present() {
		return "-"
	}
	return fmt.Sprintf("[%.0f, %.0f]", float64(lo), float64(hi))
}

// MeanCI is the mean of v and its 95% Student-t interval over them; the interval is
// absent with fewer than two values, and everything is absent without any.
func MeanCI(v []float64) (mean, low, high Opt) {
	e := figure.Of(v)
	return optOf(e.Value), optOf(e.Low), optOf(e.High)
}

func optOf(f float64) Opt {
	if math.IsNaN(f) {
		return None
	}
	return Opt(f)
}

// MeanOf is the mean of v, absent without values.
func MeanOf(v []float64) Opt {
	if len(v) == 0 {
		return None
	}
	return Opt(stats.Mean(v))
}

// Ratio is num over den, absent when either is or den is 0.
func Ratio(num, den Opt) Opt {
	if !num.Present() || !den.Present() || den == 0 {
		return None
	}
	return num / den
}

// Diff is a - b, absent when either is.
func Diff(a, b Opt) Opt {
	if !a.Present() || !b.Present() {
		return None
	}
	return a - b
}
