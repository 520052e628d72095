package tabular

import (
	"maps"
	"reflect"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// later are the columns of a table (its row type row) that an earlier kit's bundles
// lack, and the kit that added each, read as absent and noted: Own.Later's, and each
// column whose field declares it in a tag, later:"it measured several libraries".
func (t *Experiment[P, R]) later(row reflect.Type) map[string]string {
	out := maps.Clone(t.Own.Later)
	for _, f := range bundle.FieldsOfType(row) {
		if kit := row.FieldByIndex(f.Index).Tag.Get("later"); kit != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[f.Column] = kit
		}
	}
	return out
}
