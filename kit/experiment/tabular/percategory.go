package tabular

import (
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/report"
)

// PerCategory are the bundles' bars of one value each (of) in each category, a series
// a bundle in its colour: a figure of the condition itself (a ratio to the baseline),
// not one over its runs (OverRuns). of gives report.Absent where a bundle has none.
func PerCategory[P experiment.Params, R any](ds []Drawn[P, R], cats []string, of func(d Drawn[P, R], cat string) report.Value) *report.Grouped {
	g := Grouped(ds)
	for _, cat := range cats {
		for j, d := range ds {
			g.Series[j].Values = append(g.Series[j].Values, of(d, cat))
		}
	}
	return g
}
