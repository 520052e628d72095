package verify

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// Rules a row type declares in its columns' tags, held by the kit in every table of
// every experiment, so that a rule written once reaches every table whose columns have
// the shape: what no measurement can show, whatever the experiment.
const (
	// RuleOrdered: a column tagged atleast:"a,b" is at least columns a and b of its
	// row, where both are present: the order statistics of one sample (p50 <= p99 <=
	// max, the mean within its sample), the phases of one request. A column tagged
	// absent:"0" writes 0 for what did not happen (a phase after an error), which is
	// then no value to order.
	RuleOrdered = "ordered"
	// RuleNumbered: a column tagged numbered:"0" (or "0,1": either first) numbers each
	// run's rows in the file's order from its first, without a gap or a repeat: the
	// seconds of a run, the requests of a load generator.
	RuleNumbered = "numbered"
	// RuleVerdict: a row with the columns verified and failure is data exactly when it
	// has no failure, and one that is not says why.
	RuleVerdict = "verdict-says-why"
)

// NonNegative holds every column of rows (of file, at lines) that has a unit in units
// to 0 or more (rule non-negative): a duration, a count, a size, a share or a rate is
// never negative, whatever clock or counter gave it. signed are the columns that may be,
// each a difference (a cost against a baseline, what remains of the host's CPU), or a
// sentinel the kernel uses (-1: unlimited). An absent figure (NaN) is skipped. One
// problem per row and column, at most MaxLineErrors per column.
func NonNegative[T any](res *Result, file string, lines []int, rows []T, key func(T) string, units map[string]string, signed ...string) {
	all := reflect.ValueOf(rows)
	for _, f := range bundle.FieldsOf[T]() {
		if units[f.Column] == "" || slices.Contains(signed, f.Column) {
			continue
		}
		neg := capped{res: res, file: file, column: f.Column, what: "negative"}
		for i, row := range rows {
			if x := numeric(all.Index(i).FieldByIndex(f.Index)); x < 0 { // false for NaN and for a field of no number
				neg.add(Problem{File: file, Line: lineOf(lines, i), Key: key(row), Column: f.Column, Have: Number(x), Want: "0 or more",
					Msg: Rule(RuleNonNegative, fmt.Sprintf("a quantity in %s is never negative", units[f.Column]))})
			}
		}
		neg.close()
	}
}

// Verdicts holds rows (of file, at lines) that have the columns verified and failure to
// RuleVerdict. At most MaxLineErrors problems.
func Verdicts[T any](res *Result, file string, lines []int, rows []T, key func(T) string) {
	var verified, failure []int
	for _, f := range bundle.FieldsOf[T]() {
		switch f.Column {
		case "verified":
			verified = f.Index
		case "failure":
			failure = f.Index
		}
	}
	typ := reflect.TypeFor[T]()
	if verified == nil || failure == nil || typ.FieldByIndex(verified).Type.Kind() != reflect.Bool || typ.FieldByIndex(failure).Type.Kind() != reflect.String {
		return
	}
	all := reflect.ValueOf(rows)
	out := capped{res: res, file: file, column: "verified", what: "with a verdict that does not say why"}
	for i, row := range rows {
		v, why := all.Index(i).FieldByIndex(verified).Bool(), strings.TrimSpace(all.Index(i).FieldByIndex(failure).String())
		switch {
		case v && why != "":
			out.add(Problem{File: file, Line: lineOf(lines, i), Key: key(row), Column: "verified", Have: "true", Want: "false",
				Msg: Rule(RuleVerdict, "the row has a failure: "+Short(why))})
		case !v && why == "":
			out.add(Problem{File: file, Line: lineOf(lines, i), Key: key(row), Column: "failure", Have: `""`, Want: "the reason",
				Msg: Rule(RuleVerdict, "a row that is not data says why")})
		}
	}
	out.close()
}

// Ordered holds rows (of file, at lines) to their columns' atleast tags (rule
// ordered); a column absent from the file (absent) or a missing value (NaN) is left
// out. At most MaxLineErrors problems a column.
func Ordered[T any](res *Result, file string, lines []int, rows []T, key func(T) string, absent map[string]bool) {
	typ, all := reflect.TypeFor[T](), reflect.ValueOf(rows)
	index := map[string][]int{}
	for _, f := range bundle.FieldsOf[T]() {
		index[f.Column] = f.Index
	}
	for _, f := range bundle.FieldsOf[T]() {
		tag := typ.FieldByIndex(f.Index).Tag.Get("atleast")
		if tag == "" || absent[f.Column] {
			continue
		}
		for _, low := range strings.Split(tag, ",") {
			li, ok := index[low]
			if !ok {
				panic(fmt.Sprintf("%s: column %s is at least %s, which %s has not", file, f.Column, low, typ))
			}
			if absent[low] {
				continue
			}
			out := capped{res: res, file: file, column: f.Column, what: "below " + low}
			zeroV, zeroL := zeroAbsent(typ, f.Index), zeroAbsent(typ, li)
			for i, row := range rows {
				v, l := present(all.Index(i).FieldByIndex(f.Index), zeroV), present(all.Index(i).FieldByIndex(li), zeroL)
				if v < l { // false where either is NaN
					out.add(Problem{File: file, Line: lineOf(lines, i), Key: key(row), Column: f.Column, Have: Number(v), Want: "at least " + Number(l),
						Msg: Rule(RuleOrdered, f.Column+" below "+low)})
				}
			}
			out.close()
		}
	}
}

// Numbered holds rows (of file, at lines) to their columns' numbered tags (rule
// numbered): run names each row's run; a run's rows are numbered in the file's order,
// from one of the tag's firsts. One problem a run, at its first row out of place; at
// most MaxLineErrors a column.
func Numbered[T any](res *Result, file string, lines []int, rows []T, run func(T) string) {
	typ, all := reflect.TypeFor[T](), reflect.ValueOf(rows)
	for _, f := range bundle.FieldsOf[T]() {
		tag := typ.FieldByIndex(f.Index).Tag.Get("numbered")
		if tag == "" {
			continue
		}
		firsts := strings.Split(tag, ",")
		out := capped{res: res, file: file, column: f.Column, what: "out of their run's numbering"}
		next, broken := map[string]float64{}, map[string]bool{}
		for i, row := range rows {
			id, v := run(row), numeric(all.Index(i).FieldByIndex(f.Index))
			want, seen := next[id]
			if broken[id] || seen && v == want || !seen && slices.Contains(firsts, Number(v)) {
				next[id] = v + 1
				continue
			}
			w := strconv.FormatFloat(want, 'f', -1, 64)
			if !seen {
				w = strings.Join(firsts, " or ")
			}
			broken[id] = true
			out.add(Problem{File: file, Line: lineOf(lines, i), Key: "run " + Short(id), Column: f.Column, Have: Number(v), Want: w,
				Msg: Rule(RuleNumbered, "a run's rows are numbered from "+strings.Join(firsts, " or ")+" in order, without a gap or a repeat")})
		}
		out.close()
	}
}

// zeroAbsent says the column at index is tagged absent:"0": it writes 0 for what did
// not happen.
func zeroAbsent(typ reflect.Type, index []int) bool {
	return typ.FieldByIndex(index).Tag.Get("absent") == "0"
}

// present is a field's value, NaN where it is absent: not a number, or 0 in a column
// that writes 0 for what did not happen (zero).
func present(v reflect.Value, zero bool) float64 {
	x := numeric(v)
	if x == 0 && zero {
		return math.NaN()
	}
	return x
}

// numeric is a numeric field's value, NaN for any other.
func numeric(v reflect.Value) float64 {
	switch v.Kind() {
	case reflect.Float64, reflect.Float32:
		return v.Float()
	case reflect.Int, reflect.Int64, reflect.Int32:
		return float64(v.Int())
	}
	return math.NaN()
}

func lineOf(lines []int, i int) int {
	if i < len(lines) {
		return lines[i]
	}
	return 0
}
