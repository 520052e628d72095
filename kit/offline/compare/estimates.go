package compare

import (
	"strings"

	"github.com/logbench/logbench/kit/offline/figure"
)

// Estimates are one condition's figures by metric, each as Estimate states it: the one
// statistic every output of the kit shows.
type Estimates map[string]figure.Estimate

// Of is the figure of metric, absent (NaN, no runs) where the condition has none.
func (e Estimates) Of(metric string) figure.Estimate {
	if v, ok := e[metric]; ok {
		return v
	}
	return figure.Of(nil)
}

// ByCondition are the estimates of rows by condition, named by its values in order
// ("go/none/fast"): what a summary's table or a report's drawing reads of a bundle's
// figures, condition by condition.
func ByCondition(rows []Row) map[string]Estimates {
	out := map[string]Estimates{}
	for _, r := range rows {
		values := make([]string, len(r.Condition))
		for i, kv := range r.Condition {
			values[i] = kv.Value
		}
		k := strings.Join(values, "/")
		if out[k] == nil {
			out[k] = Estimates{}
		}
		out[k][r.Metric] = Estimate(r)
	}
	return out
}
