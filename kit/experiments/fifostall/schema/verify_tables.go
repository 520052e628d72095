package schema

import (
	"github.com/logbench/logbench/kit/offline/verify"
)

// index gives each run its rows in the other files. A run_id seen again, or a row of no
// run, is verify.Tables' problem; each run's rows go to its first row, and a row of no
// run to none.
func (v *verifier) index() {
	v.byRun = map[string]int{}
	for i, r := range v.runRows {
		if r.RunID == "" {
			v.problem(verify.Problem{File: RunsFile, Line: v.runLines[i], Column: "run_id", Msg: "empty"})
			continue
		}
		if _, dup := v.byRun[r.RunID]; !dup {
			v.byRun[r.RunID] = i
		}
	}
	n := len(v.runRows)
	v.reqOf, v.ctOf, v.tlOf = make([][]int, n), make([][]int, n), make([][]int, n)
	group := func(count int, id func(int) string, into [][]int) {
		for i := range count {
			if run, known := v.byRun[id(i)]; known {
				into[run] = append(into[run], i)
			}
		}
	}
	group(len(v.requests), func(i int) string { return v.requests[i].RunID }, v.reqOf)
	group(len(v.containers), func(i int) string { return v.containers[i].RunID }, v.ctOf)
	group(len(v.timeline), func(i int) string { return v.timeline[i].RunID }, v.tlOf)

}
