package fifostall

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
	v := &verifier{Check: c, manifestBody: *m,
		requests: tabular.Of[RequestRow](c.Rows, RequestsFile), containers: tabular.Of[ContainerRow](c.Rows, ContainersFile),
		timeline: tabular.Of[TimelineRow](c.Rows, TimelineFile)}
	c.Res.Described = fmt.Sprintf("%d requests, %d container rows, %d timeline samples", len(v.requests), len(v.containers), len(v.timeline))
	c.Res.Counts.Conditions = len(tabular.Of[ConditionRow](c.Derived, ConditionsFile))
	v.index()
	v.runs()
	v.derived = DeriveConditions(c.Judged, c.Rows, m.Parameters)
	v.figures = compare.StatedOf(Figures(c.Judged, c.Rows, v.derived))
	v.rows()    // verify_rows.go
	v.physics() // verify_physics.go
	v.trust()
}

// verifier is the kit's check of a bundle (its rows, their lines, the columns its
// files lack, the runs judged again) with fifo-stall's rows by their types, and each
// run's rows in the other files.
type verifier struct {
	*tabular.Check[*Params, RunRow]
	manifestBody Manifest
	requests     []RequestRow
	containers   []ContainerRow
	timeline     []TimelineRow

	// derived are the conditions recomputed from the recomputed runs: what the trust
	// lines say, whatever conditions.csv claims.
	derived []ConditionRow
	// figures are the conditions' figures as compare states them (Figures), from the
	// same recomputed runs: what the trust lines say of each p99.
	figures compare.Stated

	// first are the runs each first of its run_id, in order: the runs the rules hold.
	first []int
	reqOf [][]int // per run: indexes into requests
	tlOf  [][]int // and into timeline
}

// at says a problem of run i's row of runs.csv.
func (v *verifier) at(i int, column, have, want, msg string) {
	v.Problem(verify.Problem{File: RunsFile, Line: v.Lines[RunsFile][i], Key: "run " + v.Runs[i].RunID, Column: column, Have: have, Want: want, Msg: msg})
}

func i64(n int64) string { return strconv.FormatInt(n, 10) }

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

// index gives each run its rows in the other files. A run_id seen again, or a row of no
// run, is verify.Tables' problem, and an empty one the kit's (not the ID of a run); each
// run's rows go to its first row, and a row of no run to none.
func (v *verifier) index() {
	reqs, tl := tabular.IndexByRun(v.requests), tabular.IndexByRun(v.timeline)
	v.reqOf, v.tlOf = make([][]int, len(v.Runs)), make([][]int, len(v.Runs))
	seen := map[string]bool{}
	for i, r := range v.Runs {
		if r.RunID != "" && !seen[r.RunID] {
			seen[r.RunID] = true
			v.first = append(v.first, i)
			v.reqOf[i], v.tlOf[i] = reqs[r.RunID], tl[r.RunID]
		}
	}
}
