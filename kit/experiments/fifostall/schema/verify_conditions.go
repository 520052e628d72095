package schema

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"

	"github.com/logbench/logbench/kit/offline/verify"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// modelColumns are conditions.csv's columns that come from the model, not from the
// runs: a newer kit's model may say otherwise, which is a note, not a problem.
var modelColumns = map[string]bool{
	"offered_bytes_per_s": true, "reader_bound_bytes_per_s": true, "predicted_drain_s": true,
	"predicted_rps_to_last_response": true, "predicted_rps_to_logs_read": true, "predicted_backlog_max_bytes": true,
}

// conditions: conditions.csv is exactly what the runs give, recomputed. A condition's
// row given twice, of no run, or missing for runs is verify.Tables' problem (the table's
// key and references).
func (v *verifier) conditions() {
	b, _ := v.res.Own.(*Bundle)
	if b == nil {
		return
	}
	runs := slices.Clone(b.Runs)
	for i := range runs {
		if r, ok := v.recomputed[i]; ok {
			runs[i].Run = r
		}
	}
	want := DeriveConditions(runs, v.manifestBody.Parameters)
	v.derived = want
	v.figures = FiguresByCondition(Figures(&Bundle{Manifest: v.manifestBody, Runs: runs}))
	type key struct{ api, mode, reader string }
	keyOf := func(c ConditionRow) key { return key{c.API, c.Mode, c.Reader} }
	name := func(k key) string { return "condition " + k.api + "/" + k.mode + "/" + k.reader }
	wantAt := map[key]int{}
	for i, c := range want {
		wantAt[keyOf(c)] = i
	}
	seen := map[key]bool{}
	fields := bundle.FieldsOf[ConditionRow]()
	for i, have := range v.conds {
		k, line := keyOf(have), v.condLines[i]
		j, known := wantAt[k]
		if seen[k] || !known {
			continue
		}
		seen[k] = true
		hv, wv := reflect.ValueOf(have), reflect.ValueOf(want[j])
		for _, f := range fields {
			if slices.Contains(v.absent[ConditionsFile], f.Column) {
				continue // not in the file: nothing to compare
			}
			h, w := hv.FieldByIndex(f.Index), wv.FieldByIndex(f.Index)
			if equalValue(h, w) {
				continue
			}
			p := verify.Problem{File: ConditionsFile, Line: line, Key: name(k), Column: f.Column, Have: show(h), Want: show(w),
				Msg: "recomputed from " + RunsFile + ", " + RequestsFile + " and " + ContainersFile}
			if modelColumns[f.Column] {
				p.Msg = "this kit's model; the bundle's measured figures are unaffected"
				v.res.Notes = append(v.res.Notes, p)
				continue
			}
			v.problem(p)
		}
	}
}

func equalValue(h, w reflect.Value) bool {
	switch h.Kind() {
	case reflect.Float32, reflect.Float64:
		return same(h.Float(), w.Float())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return h.Int() == w.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return h.Uint() == w.Uint()
	case reflect.Bool:
		return h.Bool() == w.Bool()
	case reflect.String:
		return h.String() == w.String()
	}
	return reflect.DeepEqual(h.Interface(), w.Interface())
}

func show(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return number(v.Float())
	case reflect.String:
		return strconv.Quote(short(v.String()))
	}
	return fmt.Sprint(v.Interface())
}
