// Package verify checks a result bundle against itself: every file against SHA256SUMS,
// and every aggregate against the rows it was computed from, so that neither a flipped
// byte nor an edited figure with a recomputed checksum goes unnoticed.
package verify

import (
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// maxLineErrors bounds the parse problems reported per file: past that, one more says
// how many were left out.
const maxLineErrors = 20

// Verify checks everything a bundle's files say about each other (see the README's
// "Verify, archive, compare, report" for the list). It never stops at the first
// problem, and it only reads: a bundle on disk is never touched.
func Verify(f *bundle.Files) *Result {
	v := &verifier{res: &Result{Name: f.Name}, files: f.Data, ok: map[string]bool{}, absent: map[string][]string{}}
	v.entries(f)
	v.checksums()
	v.manifest()
	v.tables()
	v.dataPackage() // datapackage.go
	if v.ok[bundle.RunsFile] {
		v.index()
		if v.ok[bundle.RequestsFile] {
			v.runs()
		}
		if v.ok[bundle.ManifestFile] {
			v.manifestCounts()
		}
		if v.ok[bundle.ManifestFile] && v.ok[bundle.RequestsFile] && v.ok[bundle.ContainersFile] && v.ok[bundle.ConditionsFile] {
			v.conditions()
		}
	}
	return v.res
}

type verifier struct {
	res   *Result
	files map[string][]byte
	// ok says a file is present and parsed without a problem, so that checks that
	// rest on it can be made without a cascade of follow-on complaints.
	ok map[string]bool
	// absent are the columns each file lacks that verification does not rest on.
	absent map[string][]string

	manifestBody bundle.Manifest
	runRows      []bundle.RunRow
	runLines     []int
	requests     []bundle.RequestRow
	reqLines     []int
	containers   []bundle.ContainerRow
	ctLines      []int
	timeline     []bundle.TimelineRow
	tlLines      []int
	conds        []bundle.ConditionRow
	condLines    []int

	// recomputed are the runs' rows with every derived figure recomputed (runs), which
	// conditions.csv is checked against: a forged run figure is one problem, in runs.csv.
	recomputed map[int]bundle.RunRow

	byRun map[string]int // run_id -> index in runRows
	reqOf [][]int        // per run: indexes into requests
	ctOf  [][]int
	tlOf  [][]int
}

func (v *verifier) problem(p Problem) { v.res.Problems = append(v.res.Problems, p) }

// same compares a figure in a file with its recomputed value: both absent, or equal up
// to the last bits of a float64 (the files hold the shortest exact decimal, so a
// recomputation from them is bit-for-bit equal unless rows were reordered).
func same(have, want float64) bool { return near(have, want, 1e-9) }

func near(have, want, rel float64) bool {
	if math.IsNaN(have) || math.IsNaN(want) {
		return math.IsNaN(have) && math.IsNaN(want)
	}
	if have == want {
		return true
	}
	return math.Abs(have-want) <= rel*math.Max(math.Abs(have), math.Abs(want))
}

// number writes a figure as the files do; an absent one is "(empty)".
func number(f float64) string {
	if math.IsNaN(f) {
		return "(empty)"
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

func i64(n int64) string { return strconv.FormatInt(n, 10) }

func isDigest(s string) bool {
	_, err := hex.DecodeString(s)
	return err == nil && len(s) == 64
}

// short keeps a value from a hostile file to one readable piece of a line.
func short(s string) string {
	const most = 72
	if len(s) > most {
		s = s[:most] + "…"
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
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
