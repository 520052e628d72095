package verify

import (
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/number"
)

// Derived holds the rows a bundle wrote to the rows its experiment derives afresh from
// the bundle's observed columns, so that no derived figure can be edited alone: every
// column of a row from the column from on (the first derived one; "" for every column)
// must equal the recomputed one, a float bit for bit (the files hold the shortest exact
// decimal) and two absent figures alike. A column absent from the file (written before
// the kit added it, see Rows) is not compared. Each difference is one problem naming the
// file, the row's line and key, the column, both values and why (where want comes from).
// A different number of rows is one problem.
func Derived[T any](res *Result, file string, lines []int, key func(T) string, have, want []T, from string, absent map[string]bool, why string) {
	if len(have) != len(want) {
		res.Problem(Problem{File: file, Have: strconv.Itoa(len(have)) + " rows", Want: strconv.Itoa(len(want)), Msg: why})
	}
	for i := range min(len(have), len(want)) {
		line := 0
		if i < len(lines) {
			line = lines[i]
		}
		Differ(res, file, line, key(have[i]), have[i], want[i], from, absent, why)
	}
}

// Differ is Derived of one row: have as written, want as derived, both of one row type.
func Differ(res *Result, file string, line int, key string, have, want any, from string, absent map[string]bool, why string) {
	h, w := reflect.ValueOf(have), reflect.ValueOf(want)
	fields := bundle.FieldsOfType(h.Type())
	start := 0
	for i, f := range fields {
		if f.Column == from {
			start = i
		}
	}
	for _, f := range fields[start:] {
		hv, wv := h.FieldByIndex(f.Index), w.FieldByIndex(f.Index)
		if absent[f.Column] || sameValue(hv, wv) {
			continue
		}
		res.Problem(Problem{File: file, Line: line, Key: key, Column: f.Column, Have: showValue(hv), Want: showValue(wv), Msg: why})
	}
}

func sameValue(h, w reflect.Value) bool {
	if h.Kind() == reflect.Float64 || h.Kind() == reflect.Float32 {
		return number.Same(h.Float(), w.Float())
	}
	return reflect.DeepEqual(h.Interface(), w.Interface())
}

func showValue(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Float64, reflect.Float32:
		if math.IsNaN(v.Float()) {
			return "(empty)"
		}
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	case reflect.String:
		return strconv.Quote(Short(v.String()))
	}
	return Short(fmt.Sprint(v.Interface()))
}
