package fifostalltest

import (
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/experiments/fifostall"
	"github.com/logbench/logbench/kit/offline/verify"
)

// Bundle is a fifo-stall bundle as a test builds and edits it: its manifest, each run
// with its rows in every file, and the conditions derived from them.
type Bundle struct {
	Manifest   fifostall.Manifest
	Runs       []fifostall.Rows
	Conditions []fifostall.ConditionRow
}

// Tables are the runs and their rows in the per-run tables, as the kit's bundle holds
// them.
func Tables(runs []fifostall.Rows) ([]fifostall.RunRow, tabular.Rows) {
	var out []fifostall.RunRow
	var requests []fifostall.RequestRow
	var containers []fifostall.ContainerRow
	var timeline []fifostall.TimelineRow
	for _, r := range runs {
		out = append(out, r.Run)
		requests, containers, timeline = append(requests, r.Requests...), append(containers, r.Containers...), append(timeline, r.Timeline...)
	}
	return out, tabular.Rows{fifostall.RequestsFile: requests, fifostall.ContainersFile: containers, fifostall.TimelineFile: timeline}
}

// Derived are the conditions of runs, as the kit derives them.
func Derived(runs []fifostall.Rows, params fifostall.Params) []fifostall.ConditionRow {
	rs, rows := Tables(runs)
	return fifostall.DeriveConditions(rs, rows, params)
}

// Of is the fifo-stall bundle a verification read, each run with its rows (a run_id
// given twice has its rows with its first row) and the conditions derived from them;
// nil when it could not read one.
func Of(res *verify.Result) *Bundle {
	t, ok := res.Own.(*fifostall.TabularBundle)
	if !ok || t == nil {
		return nil
	}
	m, _ := t.M.(*fifostall.Manifest)
	if m == nil {
		return nil
	}
	reqs, cts := tabular.ByRun(tabular.Of[fifostall.RequestRow](t.Rows, fifostall.RequestsFile)), tabular.ByRun(tabular.Of[fifostall.ContainerRow](t.Rows, fifostall.ContainersFile))
	tl := tabular.ByRun(tabular.Of[fifostall.TimelineRow](t.Rows, fifostall.TimelineFile))
	b := &Bundle{Manifest: *m, Runs: make([]fifostall.Rows, len(t.Runs)), Conditions: fifostall.Conditions(t)}
	seen := map[string]bool{}
	for i, r := range t.Runs {
		b.Runs[i].Run = r
		if !seen[r.RunID] {
			seen[r.RunID] = true
			b.Runs[i].Requests, b.Runs[i].Containers, b.Runs[i].Timeline = reqs[r.RunID], cts[r.RunID], tl[r.RunID]
		}
	}
	return b
}
