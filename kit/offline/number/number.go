// Package number is how the offline tools read and compare the numbers of a bundle.
//
// A number read from a bundle has one spelling that every common CSV reader (Python's
// float and csv, pandas, R, a spreadsheet, strconv) reads as the same value: JSON's
// number grammar, an optional '-', digits without a leading zero, an optional fraction
// and an optional exponent (-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?). Everything
// else that some reader takes and another does not, or takes as another value, is
// refused: "+5", "007" (octal to some), "0x1p3" and "1_0" (Go's), ".5" and "5.",
// " 1", "-0" (a zero whose sign some readers keep and some drop), a literal that is
// not zero but reads as 0 ("1e-400"), and every spelling of an infinity or a NaN
// ("inf", "-Inf", "infinity", "NaN", ...), unless its column's schema says a missing
// value may be spelled so. A recomputed figure compared with a non-finite one never
// matches.
//
// What the kit writes always reads back: strconv's shortest decimal ('f' or 'g', -1
// digits) of any finite float64 is in the grammar, and the writer spells a negative
// zero as 0 (bundle.Encode).
package number

import (
	"errors"
	"math"
	"strconv"
)

// ErrNotFinite is a field that spells an infinity or a NaN, or a value beyond
// float64's range.
var ErrNotFinite = errors.New("not a finite number")

// ErrNotNumber is a field that is not a number at all.
var ErrNotNumber = errors.New("not a number")

// ErrNotInteger is a field of an integer column that is no integer ("1.5", "1e3", "x").
var ErrNotInteger = errors.New("not an integer")

// ErrNotNonNegative is a field of a column of non-negative integers that is no such
// integer.
var ErrNotNonNegative = errors.New("not a non-negative integer")

// ErrNotPlain is a number spelled in a way other readers read differently or not at
// all: a '+' sign, a leading zero, hexadecimal, an underscore, a bare '.', spaces.
var ErrNotPlain = errors.New("not a plain decimal number (an optional '-', digits without a leading zero, an optional fraction and exponent): other readers read it otherwise or not at all")

// ErrNegativeZero is "-0" in any spelling ("-0.0", "-0e5"): readers disagree on its sign.
var ErrNegativeZero = errors.New("a negative zero, whose sign readers keep or drop: write 0")

// ErrUnderflow is a literal that is not zero but too small for a float64: it would
// read as 0.
var ErrUnderflow = errors.New("too small for a float64: it would read as 0")

// Parse reads a decimal number as a bundle writes it (the package's grammar) and
// refuses every other spelling, every non-finite value and every value out of
// float64's range.
func Parse(s string) (float64, error) {
	shape := scan(s)
	if !shape.ok {
		if shape.nonFinite {
			return 0, ErrNotFinite
		}
		if shape.numberLike {
			return 0, ErrNotPlain
		}
		return 0, ErrNotNumber
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return 0, ErrNotFinite
		}
		return 0, ErrNotNumber // the grammar is strconv's: not reached
	}
	switch {
	case !Finite(f):
		return 0, ErrNotFinite
	case f == 0 && shape.nonZeroDigit:
		return 0, ErrUnderflow
	case f == 0 && shape.negative:
		return 0, ErrNegativeZero
	}
	return f, nil
}

// ParseInt reads an integer of the given bit size in the same grammar, without
// fraction or exponent: "+5", "007" and "-0" are refused as in Parse.
func ParseInt(s string, bitSize int) (int64, error) {
	if err := integerShape(s, ErrNotInteger); err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(s, 10, bitSize)
	if err != nil {
		return 0, errOutOfRange(bitSize)
	}
	return n, nil
}

// ParseUint reads a non-negative integer of the given bit size in the same grammar.
func ParseUint(s string, bitSize int) (uint64, error) {
	if err := integerShape(s, ErrNotNonNegative); err != nil {
		return 0, err
	}
	n, err := strconv.ParseUint(s, 10, bitSize)
	if err != nil {
		return 0, errOutOfRange(bitSize)
	}
	return n, nil
}

func errOutOfRange(bitSize int) error {
	return errors.New("out of range for a " + strconv.Itoa(bitSize) + "-bit integer")
}

// integerShape checks s is -?(0|[1-9][0-9]*) and not -0, or is no negative integer
// when notKind is ErrNotNonNegative; notKind is the error of a field that is none.
func integerShape(s string, notKind error) error {
	sh := scan(s)
	switch {
	case !sh.ok && sh.numberLike:
		return ErrNotPlain
	case !sh.ok || sh.fraction || sh.exponent:
		return notKind
	case sh.negative && notKind == ErrNotNonNegative:
		return notKind
	case sh.negative && !sh.nonZeroDigit:
		return ErrNegativeZero
	}
	return nil
}

// shape is what scan learns of a field.
type shape struct {
	ok           bool // in the grammar
	negative     bool // a leading '-'
	fraction     bool // a '.' and digits
	exponent     bool // an 'e' or 'E' and digits
	nonZeroDigit bool // a digit other than 0 before the exponent
	// numberLike says a field out of the grammar that a reader could take for a
	// number (it has a digit): refused as not plain rather than as not a number.
	numberLike bool
	nonFinite  bool // an infinity or a NaN in one of strconv's spellings
}

// scan checks s against -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? in one pass.
func scan(s string) shape {
	var sh shape
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			sh.numberLike = true
			break
		}
	}
	if !sh.numberLike {
		if _, err := strconv.ParseFloat(s, 64); err == nil || errors.Is(err, strconv.ErrRange) {
			sh.nonFinite = true // "inf", "NaN", "+Infinity"...: strconv's words
		}
		return sh
	}
	i := 0
	digits := func() int {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	if i < len(s) && s[i] == '-' {
		sh.negative = true
		i++
	}
	start := i
	n := digits()
	if n == 0 || n > 1 && s[start] == '0' {
		return sh
	}
	sh.nonZeroDigit = nonZero(s[start:i])
	if i < len(s) && s[i] == '.' {
		i++
		start = i
		if digits() == 0 {
			return sh
		}
		sh.fraction = true
		sh.nonZeroDigit = sh.nonZeroDigit || nonZero(s[start:i])
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return sh
		}
		sh.exponent = true
	}
	sh.ok = i == len(s)
	return sh
}

func nonZero(digits string) bool {
	for i := 0; i < len(digits); i++ {
		if digits[i] != '0' {
			return true
		}
	}
	return false
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
