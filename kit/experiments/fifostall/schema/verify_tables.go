package schema

import (
	"github.com/logbench/logbench/kit/experiment/tabular"
)

// index gives each run its rows in the other files. A run_id seen again, or a row of no
// run, is verify.Tables' problem, and an empty one the kit's (not the ID of a run); each
// run's rows go to its first row, and a row of no run to none.
func (v *verifier) index() {
	v.byRun = map[string]int{}
	for i, r := range v.Runs {
		if _, dup := v.byRun[r.RunID]; !dup && r.RunID != "" {
			v.byRun[r.RunID] = i
		}
	}
	n := len(v.Runs)
	v.reqOf, v.ctOf, v.tlOf = make([][]int, n), make([][]int, n), make([][]int, n)
	reqs, cts, tl := tabular.IndexByRun(v.requests), tabular.IndexByRun(v.containers), tabular.IndexByRun(v.timeline)
	for id, i := range v.byRun {
		v.reqOf[i], v.ctOf[i], v.tlOf[i] = reqs[id], cts[id], tl[id]
	}
}
