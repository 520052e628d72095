package tabular

import (
	"reflect"
	"slices"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// Modelled is the derived table t with columns that come from a model, not from the
// runs (a prediction beside each measured figure): a newer kit's model may say
// otherwise than the one that wrote a bundle, which is a note, not a problem. verify
// notes each such column that differs, then reads it as this kit's model gives it; the
// rest of the table is held to the runs.
func Modelled[P experiment.Params](t Table[P], columns ...string) Table[P] {
	t.(interface{ modelled([]string) }).modelled(columns)
	return t
}

func (t *table[P, T]) modelled(columns []string) { t.model = columns }

func (t *table[P, T]) remodel(res *verify.Result, have, want any, lines []int) {
	if len(t.model) == 0 {
		return
	}
	wants := map[string]T{}
	for _, w := range asRows[T](want) {
		wants[rowKey(t.decl, w)] = w
	}
	rows := asRows[T](have)
	for i := range rows {
		w, ok := wants[rowKey(t.decl, rows[i])]
		if !ok {
			continue
		}
		h, wv := reflect.ValueOf(&rows[i]).Elem(), reflect.ValueOf(w)
		for _, f := range bundle.FieldsOf[T]() {
			if !slices.Contains(t.model, f.Column) {
				continue
			}
			hf, wf := h.FieldByIndex(f.Index), wv.FieldByIndex(f.Index)
			if hs, ws := verify.Number(hf.Float()), verify.Number(wf.Float()); hs != ws {
				res.Notes = append(res.Notes, verify.Problem{File: t.decl.File, Line: lines[i], Key: rowKey(t.decl, rows[i]), Column: f.Column,
					Have: hs, Want: ws, Msg: "this kit's model; the bundle's measured figures are unaffected"})
			}
			hf.Set(wf)
		}
	}
}
