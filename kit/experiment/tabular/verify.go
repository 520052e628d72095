package tabular

import (
	"cmp"
	"fmt"
	"maps"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/figure"
	"github.com/logbench/logbench/kit/offline/verify"
)

// Check is a verified bundle as an experiment's Rules see it: its rows, each file's
// line numbers of them and the columns its files lack, and where to say a problem.
type Check[P experiment.Params, R any] struct {
	*Bundle[P, R]
	Res *verify.Result
	// Lines are the file's line of each row, by file (the runs' file among them), in
	// the order of the rows.
	Lines map[string][]int
	// Absent are the columns a file of an earlier kit lacks, by file.
	Absent map[string]map[string]bool
	// Derived are the derived tables' rows as the files hold them, by file.
	Derived Rows
	// Judged are the runs as Judge (and Across) derive them again from their observed
	// columns and own rows, in the order of Runs: what a rule that rests on a run's
	// derived columns reads, whatever the file claims (the kit has named each column
	// that differs).
	Judged []R
}

// Problem says that the bundle breaks a rule.
func (c *Check[P, R]) Problem(p verify.Problem) { c.Res.Problem(p) }

// Verify checks every file, checksum, count, derived column and derived table of a
// bundle, then the experiment's own rules.
func (t *Experiment[P, R]) Verify(files *bundle.Files) *verify.Result {
	// The tables the bundle has: before its parameters are read, those it must have and
	// the optional ones it holds (Only); then those its parameters have.
	has := func(f Table[P]) bool {
		_, ok := files.Data[f.Declared().File]
		return ok || !f.optional()
	}
	res := verify.Begin(files, t.About.Name, t.layout(), t.dataFiles(has))
	b := t.newBundle()
	data := files.Data // the manifest and the tables as this kit spells them (Own.Respell)
	if t.Own.Respell != nil {
		data = maps.Clone(files.Data)
		for _, file := range t.dataFiles(func(Table[P]) bool { return true }) {
			if body, ok := data[file]; ok {
				data[file] = t.Own.Respell(file, body)
			}
		}
	}
	manifestOK := verify.ManifestOf(res, data, b.M, b.M.Head, t.About.Name)
	if manifestOK {
		// The rules of the flags that set them, and of --reps; parameters that fail are
		// not read further.
		var err error
		if v := reflect.ValueOf(b.M.Params()); !v.IsValid() || v.Kind() == reflect.Pointer && v.IsNil() {
			err = experiment.Usagef("none recorded")
		} else {
			err = cmp.Or(experiment.CheckRounds(*b.M.Rounds()), b.M.Params().Check())
			// What the plan records beyond the flags (experiment.Settled).
			if s, ok := any(b.M.Params()).(experiment.Settled); ok && err == nil {
				err = s.CheckSettled()
			}
		}
		if err != nil {
			res.Problem(verify.Problem{File: bundle.ManifestFile, Column: "parameters", Msg: err.Error()})
			manifestOK = false
		} else if l, ok := any(b.M.Params()).(experiment.CPULimited); ok && res.Common != nil {
			// The containers' CPU limits within the host's CPUs.
			for _, c := range l.CPULimits() {
				verify.CPULimitWithinHost(res, c.Field, c.CPUs, res.Common)
			}
		}
	}
	c := &Check[P, R]{Bundle: b, Res: res, Lines: map[string][]int{}, Absent: map[string]map[string]bool{}, Derived: Rows{}}
	parsed := map[string]bool{bundle.ManifestFile: manifestOK}
	if manifestOK {
		for _, f := range t.Tables {
			file := f.Declared().File
			if f.optional() && has(f) != f.in(b.M.Params()) {
				msg := "missing: the manifest's parameters have this table"
				if has(f) {
					msg = "a table the manifest's parameters do not have"
				}
				res.Problem(verify.Problem{File: file, Msg: msg})
				parsed[file] = false
			}
		}
		has = of(b.M.Params())
	}
	var runsOK bool
	c.Lines[t.Runs.File], runsOK, c.Absent[t.Runs.File] = verify.Rows(res, data, t.Runs.File, &b.Runs, t.later(reflect.TypeFor[R]()))
	parsed[t.Runs.File] = runsOK
	earlier := func(file string) {
		if t.Own.Earlier != nil && manifestOK && parsed[file] {
			t.Own.Earlier(c, file)
		}
	}
	earlier(t.Runs.File)
	for _, f := range t.further(has) {
		file := f.Declared().File
		if ok, said := parsed[file]; said && !ok {
			continue
		}
		var rows any
		rows, c.Lines[file], parsed[file], c.Absent[file] = f.read(res, data, t.later(f.Declared().Row))
		if f.isDerived() {
			c.Derived[file] = rows
		} else {
			b.Rows[file] = rows
		}
		earlier(file)
	}
	isParsed := func(name string) bool { return parsed[name] }
	verify.CheckDataPackage(res, files.Data, t.dataFiles(has), t.dataPackage(has), isParsed)
	planned := -1
	if manifestOK {
		planned = len(t.Conditions(b.M.Params())) * *b.M.Rounds()
		res.Counts.Conditions = len(t.Conditions(b.M.Params()))
	}
	verify.Tables(res, data, t.tables(has), isParsed, planned)
	res.Counts.Trusted = -1
	for _, ok := range parsed {
		if !ok {
			return res
		}
	}
	t.judgeAgain(c)
	for _, f := range t.further(has) {
		file := f.Declared().File
		if have, ok := c.Derived[file]; ok {
			want := f.derive(b.M.Params(), b.Runs, b.Rows)
			f.remodel(res, have, want, c.Lines[file])
			f.differ(res, have, want, c.Lines[file], c.Absent[file], t.Runs.File)
		}
	}
	t.checkPlanned(c)
	t.noisy(c)
	if t.Own.Retry != nil {
		checkAttempts(c)
	}
	t.physics(c)
	// The speed probe's table (every run's host speed), before the experiment's rules,
	// which may state figures at the bundle's median speed.
	verify.RunProbes(res, files.Data, b.Runs, func(r R) string { return column(r, "run_id") })
	verify.RunPods(res, files.Data, b.Runs, func(r R) string { return column(r, "run_id") })
	b.Speed = res.Speed
	if t.Rules != nil {
		t.Rules(c)
	}
	res.Own = b
	if res.OK() {
		weakFigures(res, b.figures())
	}
	experiment.CheckPrecision(res, func() int {
		if t.Own.Rounds != nil {
			if n := t.Own.Rounds(b.M.Params()); n > 0 {
				return n
			}
		}
		return *b.M.Rounds()
	}, t.Figures)
	return res
}

// judgeAgain holds every run to its place in the plan and to Judge: its derived
// columns must be what its observed columns and own rows give.
func (t *Experiment[P, R]) judgeAgain(c *Check[P, R]) {
	b, p := c.Bundle, c.M.Params()
	own := map[string]Rows{}
	for _, f := range t.further(of(p)) {
		file := f.Declared().File
		if rows, ok := b.Rows[file]; ok {
			for id, rs := range f.byRun(rows) {
				if own[id] == nil {
					own[id] = Rows{}
				}
				own[id][file] = rs
			}
		}
	}
	spans := t.ownLines(c)
	lines := c.Lines[t.Runs.File]
	wants := make([]R, len(b.Runs))
	for i, r := range b.Runs {
		wants[i] = r
		t.Judge(p, &wants[i], own[column(r, "run_id")])
	}
	across := ""
	if t.Own.Across != nil {
		t.Own.Across(p, wants)
		across = ", and each run set against the others"
	}
	c.Judged = wants
	for i, r := range b.Runs {
		id := column(r, "run_id")
		round, _ := strconv.Atoi(column(r, "round"))
		if !experiment.RunIDFits(id, b.cellOf(r), round) {
			c.Problem(verify.Problem{File: t.Runs.File, Line: lines[i], Key: "run " + verify.Short(id), Column: "run_id",
				Msg: fmt.Sprintf("not the ID of a run of %s in round %d", b.cellOf(r), round)})
		}
		if !counts(r) && (t.Own.Retry == nil || !t.Own.Retry(p, r)) {
			c.Problem(verify.Problem{File: t.Runs.File, Line: lines[i], Key: "run " + verify.Short(id), Column: "superseded", Have: "true", Want: "false",
				Msg: "the experiment would not have redone this run"})
		}
		want := wants[i]
		from := "recomputed from the row's observed columns"
		if len(spans[id]) > 0 {
			from += " and " + strings.Join(spans[id], ", ")
		}
		from += across
		for _, col := range differing(r, want) {
			c.Problem(verify.Problem{File: t.Runs.File, Line: lines[i], Key: "run " + verify.Short(id), Column: col,
				Have: verify.Short(column(r, col)), Want: verify.Short(column(want, col)), Msg: from})
		}
	}
}

// ownLines say, by run ID, where each per-run table holds the run's own rows, which
// Judge recomputes its row from ("requests.csv lines 2-21"), so that a problem points at
// them.
func (t *Experiment[P, R]) ownLines(c *Check[P, R]) map[string][]string {
	out := map[string][]string{}
	for _, f := range t.Tables {
		file := f.Declared().File
		rows, ok := c.Rows[file]
		if !ok || f.isDerived() {
			continue
		}
		lines := map[string][]int{}
		var order []string
		for i, id := range f.runIDs(rows) {
			if _, seen := lines[id]; !seen {
				order = append(order, id)
			}
			lines[id] = append(lines[id], c.Lines[file][i])
		}
		for _, id := range order {
			out[id] = append(out[id], file+" "+LineSpan(lines[id]))
		}
	}
	return out
}

// Units are the units of file's columns, as the data package declares them.
func (c *Check[P, R]) Units(file string) map[string]string {
	return verify.UnitsOf(c.t.dataPackage(nil), file)
}

// physics holds every bundle to the kit's physical rules that need no more than its
// declaration: no negative quantity in any table (but the columns tagged signed), and
// the runs' times (started_utc, wall_s) within the manifest's and one after the other.
func (t *Experiment[P, R]) physics(c *Check[P, R]) {
	runs := t.Runs.File
	declaredRules(c.Res, runs, c.Runs, c.Lines[runs], c.Units(runs), c.Absent[runs], func(r R) string { return "run " + column(r, "run_id") })
	for _, f := range t.further(of(c.M.Params())) {
		file := f.Declared().File
		rows, ok := c.Rows[file]
		if !ok {
			rows = c.Derived[file]
		}
		f.physics(c.Res, rows, c.Lines[file], c.Units(file), c.Absent[file])
	}
	var spans []verify.Span
	for i, r := range c.Runs {
		wall, err := strconv.ParseFloat(column(r, "wall_s"), 64)
		if column(r, "started_utc") == "" || err != nil {
			return // the runs record no times
		}
		spans = append(spans, verify.Span{File: runs, Line: c.Lines[runs][i], Key: "run " + column(r, "run_id"), Started: column(r, "started_utc"), WallS: wall})
	}
	verify.Times(c.Res, c.M.Head(), spans, time.Now())
}

// weakFigures names what weakens the headline figures of a bundle that verifies, in
// every experiment alike: each whose 95% interval over runs is wider than
// ±verify.WideShare of it, and how many rest on one run (a figure, and no interval).
func weakFigures(res *verify.Result, rows []compare.Row) {
	oneRun := 0
	for _, r := range rows {
		if !r.Headline {
			continue
		}
		switch e := compare.Estimate(r); {
		case e.Runs == 1:
			oneRun++
		case e.HasInterval() && verify.Wide(e.Value, e.Low, e.High):
			res.Weakened = append(res.Weakened, fmt.Sprintf("%s: %s %s %s has a 95%% interval %s over %d runs, wider than ±%g%%",
				kvText(r.Condition), r.Metric, figure.Text(e.Value), r.Unit, e.IntervalText(), e.Runs, verify.WideShare*100))
		}
	}
	switch {
	case oneRun == 1:
		res.Weakened = append(res.Weakened, "1 headline figure rests on one run: a figure, and no interval")
	case oneRun > 1:
		res.Weakened = append(res.Weakened, fmt.Sprintf("%d headline figures rest on one run each: a figure, and no interval", oneRun))
	}
}
