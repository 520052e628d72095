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
