package verify

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// Tables checks what every bundle must hold whichever experiment wrote it, from the
// experiment's declarations of its tables alone (bundle.Table), so that no experiment
// checks it its own way or forgets it:
//
//   - no two rows of a table share its key (Key);
//   - every row names, in the columns of each reference (Refs), a row of the table it
//     refers to;
//   - the manifest counts the table of runs (the one that names its Verified column) as
//     the matrix wrote it: runs_completed its rows, runs_verified those verified,
//     runs_superseded those a later attempt redid (none in an experiment that redoes
//     none); the runs that count, runs_completed - runs_superseded, are no more than
//     runs_planned, and complete says whether they are as many;
//   - runs_planned is planned, the runs the manifest's own parameters plan (every
//     condition once a round), so that a bundle cannot claim a plan its parameters do
//     not make; planned is negative when the parameters could not be read or fail their
//     rules (a problem already), and runs_planned is then held to nothing.
//
// It checks a file only when parsed says the experiment read it without a problem (one
// that did not has its problems already), and the manifest only when res.Common holds
// it. It counts the table of runs in res.Counts (Runs, Verified, Superseded) whenever its
// file reads as CSV.
func Tables(res *Result, files map[string][]byte, tables []bundle.Table, parsed func(file string) bool, planned int) {
	ok := func(file string) bool {
		_, present := files[file]
		return present && parsed(file)
	}
	for _, t := range tables {
		if !ok(t.File) {
			continue
		}
		uniqueKeys(res, t, files[t.File])
		for _, r := range t.Refs {
			i := slices.IndexFunc(tables, func(o bundle.Table) bool { return o.File == r.Table })
			if i >= 0 && ok(r.Table) {
				references(res, t, r, tables[i], r.Target(tables), files)
			}
		}
	}
	for _, t := range tables {
		if t.Verified != "" {
			if body, present := files[t.File]; present {
				runCounts(res, t, body, parsed(t.File), planned)
			}
		}
	}
}

// uniqueKeys: no two rows share the table's key. An empty value is a value: a bundle
// written before an axis was added leaves its column empty (line-cost's library).
func uniqueKeys(res *Result, t bundle.Table, body []byte) {
	if len(t.Key) == 0 {
		return
	}
	rows, lines, err := t.Values(body, t.Key...)
	if err != nil {
		return // the experiment's reading of the file names it
	}
	column := strings.Join(t.Key, ", ")
	twice := capped{res: res, file: t.File, column: column, what: "share a key with a row before them"}
	first := make(map[string]int, len(rows))
	for i, row := range rows {
		k := strings.Join(row, "\x00")
		if line, seen := first[k]; seen {
			twice.add(Problem{File: t.File, Line: lines[i], Key: keyOf(t.Key, row), Column: column,
				Msg: fmt.Sprintf("again (first on line %d): no two rows of %s share its key", line, t.File)})
			continue
		}
		first[k] = lines[i]
	}
	twice.close()
}

// references: every row of t names, in r's columns, a row of the table to in its
// columns target.
func references(res *Result, t bundle.Table, r bundle.Ref, to bundle.Table, target []string, files map[string][]byte) {
	if len(target) != len(r.Columns) {
		return // no declaration of the kit's own tables: bundle.Declared refuses it
	}
	from, lines, err := t.Values(files[t.File], r.Columns...)
	if err != nil {
		return
	}
	rows, _, err := to.Values(files[to.File], target...)
	if err != nil {
		return
	}
	known := make(map[string]bool, len(rows))
	for _, row := range rows {
		known[strings.Join(row, "\x00")] = true
	}
	column := strings.Join(r.Columns, ", ")
	dangling := capped{res: res, file: t.File, column: column, what: "name no row of " + to.File}
	for i, row := range from {
		if !known[strings.Join(row, "\x00")] {
			dangling.add(Problem{File: t.File, Line: lines[i], Key: keyOf(r.Columns, row), Column: column,
				Msg: fmt.Sprintf("no row of %s has this %s", to.File, strings.Join(target, ", "))})
		}
	}
	dangling.close()
}

// runCounts counts the table of runs in res.Counts and, when the experiment read it
// and its manifest, checks the manifest's counts against it and its plan.
func runCounts(res *Result, t bundle.Table, body []byte, parsed bool, planned int) {
	columns := []string{t.Verified}
	if t.Superseded != "" {
		columns = append(columns, t.Superseded)
	}
	rows, _, err := t.Values(body, columns...)
	if err != nil {
		return
	}
	verified, superseded := 0, 0
	for _, row := range rows {
		if yes, _ := strconv.ParseBool(row[0]); yes {
			verified++
		}
		if len(row) > 1 {
			if yes, _ := strconv.ParseBool(row[1]); yes {
				superseded++
			}
		}
	}
	c := &res.Counts
	c.Runs, c.Verified, c.Superseded = len(rows), verified, superseded
	m := res.Common
	if m == nil || !parsed {
		return
	}
	at := func(column string, have, want, msg string) {
		res.Problem(Problem{File: bundle.ManifestFile, Column: column, Have: have, Want: want, Msg: msg})
	}
	if m.RunsCompleted != len(rows) {
		at("runs_completed", strconv.Itoa(m.RunsCompleted), strconv.Itoa(len(rows)), "rows of "+t.File)
	}
	if m.RunsVerified != verified {
		at("runs_verified", strconv.Itoa(m.RunsVerified), strconv.Itoa(verified), fmt.Sprintf("rows of %s with %s true", t.File, t.Verified))
	}
	switch {
	case t.Superseded == "" && m.RunsSuperseded != 0:
		at("runs_superseded", strconv.Itoa(m.RunsSuperseded), "0", "this experiment redoes no run")
	case t.Superseded != "" && m.RunsSuperseded != superseded:
		at("runs_superseded", strconv.Itoa(m.RunsSuperseded), strconv.Itoa(superseded), fmt.Sprintf("rows of %s with %s true", t.File, t.Superseded))
	}
	counting := m.RunsCompleted - m.RunsSuperseded
	if counting > m.RunsPlanned {
		at("runs_completed", strconv.Itoa(m.RunsCompleted), "at most "+strconv.Itoa(m.RunsPlanned+m.RunsSuperseded),
			"runs_planned + runs_superseded: no run counts beyond the plan")
	}
	if want := counting == m.RunsPlanned; m.Complete != want {
		at("complete", strconv.FormatBool(m.Complete), strconv.FormatBool(want), "runs_completed - runs_superseded == runs_planned")
	}
	if planned >= 0 && m.RunsPlanned != planned {
		at("runs_planned", strconv.Itoa(m.RunsPlanned), strconv.Itoa(planned), "the runs the manifest's parameters plan: each condition once a round")
	}
}

// keyOf names a row by its values in columns: "run_id go-none-r1-4f2a, second 3".
func keyOf(columns, values []string) string {
	parts := make([]string, len(columns))
	for i, col := range columns {
		v := Short(values[i])
		if v == "" {
			v = `""`
		}
		parts[i] = col + " " + v
	}
	return strings.Join(parts, ", ")
}

// capped reports the first MaxLineErrors problems of one kind in one file, then one
// that says how many rows there were in all.
type capped struct {
	res                *Result
	file, column, what string
	n                  int
}

func (c *capped) add(p Problem) {
	if c.n++; c.n <= MaxLineErrors {
		c.res.Problem(p)
	}
}

func (c *capped) close() {
	if c.n > MaxLineErrors {
		c.res.Problem(Problem{File: c.file, Column: c.column, Msg: fmt.Sprintf("%d rows in all %s", c.n, c.what)})
	}
}
