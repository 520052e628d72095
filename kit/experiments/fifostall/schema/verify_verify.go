package schema

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// maxLineErrors bounds the parse problems reported per file: past that, one more says
// how many were left out.
const maxLineErrors = verify.MaxLineErrors

// Verify checks everything a fifo-stall bundle's files say about each other (see
// ../README.md, "What verify checks"). It never stops at the first problem, and it
// only reads: a bundle on disk is never touched. The result's Own is a *Verified.
func Verify(f *bundle.Files) *verify.Result {
	res := verify.Begin(f, Name, Names(), DataFiles)
	v := &verifier{res: res, files: f.Data, ok: map[string]bool{}, absent: map[string][]string{}}
	v.ok[bundle.ManifestFile] = verify.Manifest(res, f.Data, &v.manifestBody, func() *bundle.Common { return &v.manifestBody.Common }) &&
		experiment.CheckManifest(res, &v.manifestBody.Parameters)
	v.tables()
	v.dataPackage() // verify_datapackage.go
	verify.Tables(res, f.Data, tables, func(name string) bool { return v.ok[name] }, experiment.PlannedRuns(v.ok[bundle.ManifestFile], v.manifestBody.Parameters.Planned))
	if v.ok[RunsFile] {
		v.index()
		if v.ok[RequestsFile] {
			v.runs()
		}
		if v.ok[bundle.ManifestFile] {
			v.runsOfParameters()
		}
		v.rows() // verify_rows.go
		if v.ok[bundle.ManifestFile] && v.ok[RequestsFile] && v.ok[ContainersFile] && v.ok[ConditionsFile] {
			v.conditions()
		}
	}
	v.physics(time.Now()) // verify_physics.go
	v.trust()
	if v.ok[RunsFile] {
		verify.RunProbes(res, f.Data, v.runRows, func(r RunRow) string { return r.RunID })
	}
	return res
}

type verifier struct {
	res   *verify.Result
	files map[string][]byte
	// ok says a file is present and parsed without a problem, so that checks that
	// rest on it can be made without a cascade of follow-on complaints.
	ok map[string]bool
	// absent are the columns each file lacks that verification does not rest on.
	absent map[string][]string

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
	condLines    []int

	// recomputed are the runs' rows with every derived figure recomputed (runs), which
	// conditions.csv is checked against: a forged run figure is one problem, in runs.csv.
	recomputed map[int]RunRow
	// derived are the conditions recomputed from the recomputed runs: what the trust
	// lines say, whatever conditions.csv claims.
	derived []ConditionRow
	// figures are the conditions' figures as compare states them (Figures), from the
	// same recomputed runs: what the trust lines say of each p99.
	figures map[string]ConditionFigures

	byRun map[string]int // run_id -> index in runRows
	reqOf [][]int        // per run: indexes into requests
	ctOf  [][]int
	tlOf  [][]int
}

func (v *verifier) problem(p verify.Problem) { v.res.Problems = append(v.res.Problems, p) }

func same(have, want float64) bool      { return verify.Same(have, want) }
func near(have, want, rel float64) bool { return verify.Near(have, want, rel) }
func number(f float64) string           { return verify.Number(f) }
func short(s string) string             { return verify.Short(s) }
func i64(n int64) string                { return strconv.FormatInt(n, 10) }

func isDigest(s string) bool {
	_, err := hex.DecodeString(s)
	return err == nil && len(s) == 64
}

// lineSpan names the lines of a run's rows: "lines 2-161", "line 7", "(no rows)".
func lineSpan(idx []int, lines []int) string {
	switch len(idx) {
	case 0:
		return "(no rows)"
	case 1:
		return fmt.Sprintf("line %d", lines[idx[0]])
	}
	lo, hi := lines[idx[0]], lines[idx[0]]
	for _, j := range idx {
		lo, hi = min(lo, lines[j]), max(hi, lines[j])
	}
	return fmt.Sprintf("lines %d-%d", lo, hi)
}

// Of is the fifo-stall bundle a verification read, nil when it could not read one.
func Of(res *verify.Result) *Bundle {
	b, _ := res.Own.(*Bundle)
	return b
}
