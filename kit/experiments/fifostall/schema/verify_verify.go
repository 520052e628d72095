package schema

import (
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/verify"
)

// rules are fifo-stall's checks of a bundle beyond the kit's (which has read every
// file, recomputed every run's figures and every condition, and held every table to no
// negative quantity and the runs to their times): each verified run's proof that no log
// byte was lost, the attempts of a round, every run of a condition of the parameters,
// the rules of what can happen at all (verify_rows.go, verify_physics.go), and how far
// the figures can be trusted (verify_trust.go).
func rules(c *tabular.Check[*Params, RunRow]) {
	m, _ := c.M.(*Manifest)
	v := &verifier{res: c.Res, manifestBody: *m, absent: c.Absent,
		runRows: c.Runs, runLines: c.Lines[RunsFile], judged: c.Judged,
		requests: tabular.Of[RequestRow](c.Rows, RequestsFile), reqLines: c.Lines[RequestsFile],
		containers: tabular.Of[ContainerRow](c.Rows, ContainersFile), ctLines: c.Lines[ContainersFile],
		timeline: tabular.Of[TimelineRow](c.Rows, TimelineFile), tlLines: c.Lines[TimelineFile],
		conds: tabular.Of[ConditionRow](c.Derived, ConditionsFile)}
	c.Res.Described = fmt.Sprintf("%d requests, %d container rows, %d timeline samples", len(v.requests), len(v.containers), len(v.timeline))
	c.Res.Counts.Conditions = len(v.conds)
	v.index()
	v.runs()
	tabular.CheckAttempts(c)
	runs := WithRows(c.Judged, c.Rows)
	v.derived = DeriveConditions(runs, m.Parameters)
	v.figures = compare.StatedOf(Figures(&Bundle{Manifest: *m, Runs: runs}))
	v.runsOfParameters()
	v.rows()    // verify_rows.go
	v.physics() // verify_physics.go
	v.trust()
}

type verifier struct {
	res *verify.Result
	// absent are the columns each file lacks, written before the kit added them.
	absent map[string]map[string]bool

	manifestBody Manifest
	runRows      []RunRow
	runLines     []int
	requests     []RequestRow
	reqLines     []int
	containers   []ContainerRow
	ctLines      []int
	timeline     []TimelineRow
	tlLines      []int
	conds        []ConditionRow

	// judged are the runs' rows with every derived figure derived again (by the kit,
	// with RunFigures), which the trust lines rest on, whatever runs.csv claims.
	judged []RunRow
	// derived are the conditions recomputed from the recomputed runs: what the trust
	// lines say, whatever conditions.csv claims.
	derived []ConditionRow
	// figures are the conditions' figures as compare states them (Figures), from the
	// same recomputed runs: what the trust lines say of each p99.
	figures compare.Stated

	byRun map[string]int // run_id -> index in runRows
	reqOf [][]int        // per run: indexes into requests
	ctOf  [][]int
	tlOf  [][]int
}

func (v *verifier) problem(p verify.Problem) { v.res.Problems = append(v.res.Problems, p) }

// at says a problem of run i's row of runs.csv.
func (v *verifier) at(i int, column, have, want, msg string) {
	v.problem(verify.Problem{File: RunsFile, Line: v.runLines[i], Key: "run " + v.runRows[i].RunID, Column: column, Have: have, Want: want, Msg: msg})
}

func number(f float64) string { return verify.Number(f) }
func short(s string) string   { return verify.Short(s) }
func i64(n int64) string      { return strconv.FormatInt(n, 10) }

func isDigest(s string) bool {
	_, err := hex.DecodeString(s)
	return err == nil && len(s) == 64
}

// lineSpan names the lines of a run's rows (idx, of a file's lines): "lines 2-161",
// "line 7", "(no rows)".
func lineSpan(idx []int, lines []int) string {
	at := make([]int, len(idx))
	for k, j := range idx {
		at[k] = lines[j]
	}
	return tabular.LineSpan(at)
}
