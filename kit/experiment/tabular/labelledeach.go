package tabular

import (
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/report"
)

// LabelledEach are the tables each bundle has of the same kinds (tables: as many, in the
// same order, for every bundle) drawn as one table of each kind, as Labelled draws one:
// the first bundle's caption, its header led by "bundle", and every bundle's rows led by
// its label. An experiment writes its tables once, for its summary of one bundle, and
// the report shows every bundle's side by side.
func LabelledEach[P experiment.Params, R any](ds []Drawn[P, R], tables func(d Drawn[P, R]) []report.Table) []report.Table {
	var out []report.Table
	for i, d := range ds {
		for k, t := range tables(d) {
			if i == 0 {
				out = append(out, report.Table{Caption: t.Caption, Header: append([]string{"bundle"}, t.Header...), Text: t.Text + 1})
			}
			out[k] = Labelled(ds[i:i+1], out[k], func(Drawn[P, R]) [][]string { return t.Rows })
		}
	}
	return out
}
