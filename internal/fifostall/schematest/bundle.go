package schematest

import (
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/experiments/fifostall/schema"
	"github.com/logbench/logbench/kit/offline/verify"
)

// Bundle is a fifo-stall bundle as a test builds and edits it: its manifest, each run
// with its rows in every file, and the conditions derived from them.
type Bundle struct {
	Manifest   schema.Manifest
	Runs       []schema.Rows
	Conditions []schema.ConditionRow
}

// Tables are the runs and their rows in the per-run tables, as the kit's bundle holds
// them.
func Tables(runs []schema.Rows) ([]schema.RunRow, tabular.Rows) {
	var out []schema.RunRow
	var requests []schema.RequestRow
	var containers []schema.ContainerRow
	var timeline []schema.TimelineRow
	for _, r := range runs {
		out = append(out, r.Run)
		requests, containers, timeline = append(requests, r.Requests...), append(containers, r.Containers...), append(timeline, r.Timeline...)
	}
	return out, tabular.Rows{schema.RequestsFile: requests, schema.ContainersFile: containers, schema.TimelineFile: timeline}
}

// Derived are the conditions of runs, as the kit derives them.
func Derived(runs []schema.Rows, params schema.Params) []schema.ConditionRow {
	rs, rows := Tables(runs)
	return schema.DeriveConditions(rs, rows, params)
}

// Of is the fifo-stall bundle a verification read, each run with its rows (a run_id
// given twice has its rows with its first row) and the conditions derived from them;
// nil when it could not read one.
func Of(res *verify.Result) *Bundle {
	t, ok := res.Own.(*schema.Tabular)
	if !ok || t == nil {
		return nil
	}
	m, _ := t.M.(*schema.Manifest)
	if m == nil {
		return nil
	}
	reqs, cts := tabular.ByRun(tabular.Of[schema.RequestRow](t.Rows, schema.RequestsFile)), tabular.ByRun(tabular.Of[schema.ContainerRow](t.Rows, schema.ContainersFile))
	tl := tabular.ByRun(tabular.Of[schema.TimelineRow](t.Rows, schema.TimelineFile))
	b := &Bundle{Manifest: *m, Runs: make([]schema.Rows, len(t.Runs)), Conditions: schema.Conditions(t)}
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
