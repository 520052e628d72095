package tabular

import (
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/report"
)

// What a report's tables of several bundles share: each bundle's own table under its
// label, or one table whose rows name their bundle first.

// TableEach is a table of each bundle (table), in the order of the bundles: the
// conditions or runs of each, apart.
func TableEach[P experiment.Params, R any](ds []Drawn[P, R], table func(d Drawn[P, R]) report.Table) []report.Table {
	var out []report.Table
	for _, d := range ds {
		out = append(out, table(d))
	}
	return out
}

// Labelled is t with every bundle's rows (rows, without the bundle) after its own, each
// led by its bundle's label: t's first column is the bundle.
func Labelled[P experiment.Params, R any](ds []Drawn[P, R], t report.Table, rows func(d Drawn[P, R]) [][]string) report.Table {
	for _, d := range ds {
		for _, r := range rows(d) {
			t.Rows = append(t.Rows, append([]string{d.Label}, r...))
		}
	}
	return t
}

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
