package fifostall

import (
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/report"
)

// ConditionTableOf is the report's table of a bundle's conditions (labelled label), its
// figures as rows states them: what the package's external tests read of the report.
func ConditionTableOf(label string, b *TabularBundle, rows []compare.Row) report.Table {
	return conditionTable(TabularDrawn{Label: label, Own: drawn{m: ManifestOf(b), conds: conditions(b, rows)}})
}
