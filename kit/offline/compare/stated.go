package compare

import (
	"strings"

	"github.com/logbench/logbench/kit/offline/figure"
)

// Stated are figure rows as Estimate states them, by condition and metric: what a
// summary, a report or verify's notes read of a bundle's figures, the same figure with
// the same interval everywhere.
type Stated map[string]figure.Estimate

// StatedOf keys each row's estimate by its condition's values (ConditionName) and its
// metric.
func StatedOf(rows []Row) Stated {
	out := Stated{}
	for _, r := range rows {
		out[ConditionName(r.Condition)+" "+r.Metric] = Estimate(r)
	}
	return out
}

// Of is the figure of metric of the condition named condition ("go/slog/format"),
// absent (no runs) when the rows have none.
func (s Stated) Of(condition, metric string) figure.Estimate {
	if e, ok := s[condition+" "+metric]; ok {
		return e
	}
	return figure.Of(nil)
}

// ConditionName is a condition by its values, as the kit names runs and charts
// ("go/slog/format").
func ConditionName(kvs []KV) string {
	vals := make([]string, len(kvs))
	for i, kv := range kvs {
		vals[i] = kv.Value
	}
	return strings.Join(vals, "/")
}

// IntervalCell is an estimate's 95% interval as a table's cell: "[1630, 10248]", "one
// run" where one run gives none, "-" without runs.
func IntervalCell(e figure.Estimate) string {
	switch {
	case e.HasInterval():
		return e.IntervalText()
	case e.Runs == 1:
		return "one run"
	}
	return "-"
}
