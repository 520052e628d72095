// Package number is how the offline tools read and compare the numbers of a bundle. A
// number read from a bundle is finite, whatever its spelling ("inf", "-Inf", "+Inf",
// "infinity", "NaN", "nan" all are refused), unless its column's schema says a missing
// value may be spelled so; and a recomputed figure compared with a non-finite one never
// matches.
package number

import (
	"errors"
	"math"
	"strconv"
)

// ErrNotFinite is a field that spells an infinity or a NaN.
var ErrNotFinite = errors.New("not a finite number")

// ErrNotNumber is a field that is not a number at all.
var ErrNotNumber = errors.New("not a number")

// Parse reads a decimal number as a bundle writes it and refuses every non-finite value
// (strconv.ParseFloat takes "inf", "Infinity", "NaN" and more, in any case) and every
// value out of float64's range.
func Parse(s string) (float64, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return 0, ErrNotFinite
		}
		return 0, ErrNotNumber
	}
	if !Finite(f) {
		return 0, ErrNotFinite
	}
	return f, nil
}

// Finite says whether f is neither an infinity nor a NaN.
func Finite(f float64) bool { return !math.IsInf(f, 0) && !math.IsNaN(f) }

// Rel is the relative tolerance of Same: the files hold the shortest exact decimal, so
// a figure recomputed from them equals the written one to the last bits of a float64
// unless rows were summed in another order.
const Rel = 1e-9

// Same compares a figure as written with its recomputed value: see Close, at Rel.
func Same(have, want float64) bool { return Close(have, want, Rel) }

// Close says whether a written figure matches its recomputed value within rel of the
// larger. Two NaNs match (a figure absent on both sides); an infinity matches nothing,
// not even itself, and a NaN matches only a NaN: |a-b| <= rel*max(|a|,|b|) holds
// whenever one side is infinite, so that test alone would let an infinity stand for
// any figure.
func Close(have, want, rel float64) bool {
	if math.IsNaN(have) || math.IsNaN(want) {
		return math.IsNaN(have) && math.IsNaN(want)
	}
	if math.IsInf(have, 0) || math.IsInf(want, 0) {
		return false
	}
	if have == want {
		return true
	}
	return math.Abs(have-want) <= rel*math.Max(math.Abs(have), math.Abs(want))
}
