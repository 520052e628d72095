package linecost

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"time"

	"github.com/logbench/logbench/kit/experiment"
	lc "github.com/logbench/logbench/kit/incontainer/linecost"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/number"
	"github.com/logbench/logbench/kit/offline/verify"
)

// Layout is the bundle's files in archive order: the data files, datapackage.json (which
// a bundle written before the kit described its files lacks), SHA256SUMS last.
func (Experiment) Layout() []string {
	return bundle.Layout(DataFiles...)
}

// Verify checks every file, checksum and figure of a line-cost bundle: each trial's
// checks are made again (every written line against the kit's regeneration of it),
// each run's verdict from its trials, and conditions.csv is derived again from the
// rows and must be equal, value for value.
func (Experiment) Verify(files *bundle.Files) *verify.Result {
	res, _ := check(files)
	return res
}

// bundleOf is the bundle a verification of this experiment read.
func bundleOf(res *verify.Result) (*Bundle, error) { return verify.OwnOf[Bundle](res, Name) }

type checker struct {
	res   *verify.Result
	files map[string][]byte
	ok    map[string]bool
}

func (c *checker) problem(p verify.Problem) { c.res.Problems = append(c.res.Problems, p) }

// check verifies files and returns the bundle as read (nil when the files could not be
// read far enough).
func check(f *bundle.Files) (*verify.Result, *Bundle) {
	c := &checker{res: verify.Begin(f, Name, Experiment{}.Layout(), DataFiles), files: f.Data, ok: map[string]bool{}}
	b := &Bundle{}
	// The tables are read under today's column names and units; the data package checks
	// the files as they are, under the names they were written with.
	original := c.files
	c.files = currentColumns(c.files)
	if verify.Manifest(c.res, f.Data, &b.Manifest, func() *bundle.Common { return &b.Manifest.Common }) {
		c.ok[bundle.ManifestFile] = experiment.CheckManifest(c.res, &b.Manifest.Parameters)
		if m := b.Manifest; m.Experiment != Name {
			c.problem(verify.Problem{File: bundle.ManifestFile, Column: "experiment", Have: strconv.Quote(verify.Short(m.Experiment)), Want: strconv.Quote(Name)})
		}
	}
	table(c, RunsFile, &b.Runs)
	table(c, TrialsFile, &b.Trials)
	table(c, ConditionsFile, &b.Conditions)
	c.headers(b.Manifest.Parameters.Legacy()) // rules.go
	verify.CheckDataPackage(c.res, original, DataFiles, DataPackage(), func(name string) bool { return c.ok[name] })
	verify.Tables(c.res, c.files, tables, func(name string) bool { return c.ok[name] }, experiment.PlannedRuns(c.ok[bundle.ManifestFile], b.Manifest.Parameters.Planned))
	if !c.ok[bundle.ManifestFile] || !c.ok[RunsFile] || !c.ok[TrialsFile] {
		return c.res, nil
	}
	c.rows(b)
	if c.ok[ConditionsFile] {
		c.conditions(b)
	}
	c.rules(b)               // rules.go
	c.physics(b, time.Now()) // rules.go
	c.earlierKitsFigures(b)
	c.res.Counts.Conditions = len(b.Conditions)
	c.res.Counts.Trusted = -1 // no instrument bound to judge a run by: every verified run counts alike
	c.res.Described = fmt.Sprintf("%d trials", len(b.Trials))
	c.weakened(b)
	c.res.Own = b
	verify.RunProbes(c.res, c.files, b.Runs, func(r RunRow) string { return r.RunID })
	experiment.CheckPrecision(c.res, func() int { return b.Manifest.Parameters.Rounds }, Experiment{}.Figures)
	return c.res, b
}

// table reads one table with the kit's strict CSV reader (bundle.DecodeCSV: one number
// grammar, every line's fields counted); the header's columns are checked by headers
// (rules.go), which knows the columns earlier kits did not write, so a column the file
// lacks is left to it here.
func table[T any](c *checker, name string, rows *[]T) {
	body, ok := c.files[name]
	if !ok {
		return
	}
	body = emptyLegacyMissing(body, reflect.TypeFor[T]())
	d := bundle.DecodeCSV[T](name, body, verify.MaxLineErrors)
	for _, e := range d.Errs {
		c.problem(verify.Problem{File: name, Line: e.Line, Column: e.Column, Msg: e.Msg})
	}
	if len(d.Errs) > 0 {
		return
	}
	// A column an earlier kit did not write reads as zero, as line-cost's rules for those
	// bundles expect (not as absent, which is how DecodeCSV reads it).
	for _, f := range bundle.FieldsOf[T]() {
		if slices.Contains(d.Missing, f.Column) {
			for i := range d.Rows {
				v := reflect.ValueOf(&d.Rows[i]).Elem().FieldByIndex(f.Index)
				v.Set(reflect.Zero(v.Type()))
			}
		}
	}
	*rows = d.Rows
	if !c.infinities(name, rows) {
		return
	}
	c.ok[name] = true
}

// rows makes every trial's checks and every run's verdict again.
func (c *checker) rows(b *Bundle) {
	p := b.Manifest.Parameters
	byRun := map[string]int{}
	for i, r := range b.Runs {
		key := "run " + r.RunID
		byRun[r.RunID] = i
		if !c.isCondition(p, r) {
			c.problem(verify.Problem{File: RunsFile, Line: i + 2, Key: key, Msg: fmt.Sprintf("%s/%s/%s round %d is not a condition of the manifest", r.Language, r.LibraryID, r.Way, r.Round)})
		}
	}
	trialsOf := make([][]TrialRow, len(b.Runs))
	for i, t := range b.Trials {
		line, key := i+2, fmt.Sprintf("run %s trial %d", t.RunID, t.Trial)
		ri, known := byRun[t.RunID]
		if !known {
			continue // verify.Tables names the trial of no run
		}
		r := b.Runs[ri]
		template := templateOfRun(p, r)
		if t.Language != r.Language || t.Way != r.Way || t.Round != r.Round {
			c.problem(verify.Problem{File: TrialsFile, Line: line, Key: key, Msg: "language, way or round differ from the run's"})
		}
		if r.LineFormat == template && t.Lines != p.LinesOf(t.Way) {
			c.problem(verify.Problem{File: TrialsFile, Line: line, Key: key, Column: "lines", Have: fmt.Sprint(t.Lines), Want: fmt.Sprint(p.LinesOf(t.Way)), Msg: "the manifest's lines per trial"})
		}
		c.same(TrialsFile, line, key, t, CheckTrialWith(t, template), "recomputed from the trial's counts and the kit's own lines")
		trialsOf[ri] = append(trialsOf[ri], t)
	}
	for i, r := range b.Runs {
		key := "run " + r.RunID
		if template := templateOfRun(p, r); r.Verified && r.LineFormat != template {
			c.problem(verify.Problem{File: RunsFile, Line: i + 2, Key: key, Column: "line_format", Have: strconv.Quote(r.LineFormat), Want: strconv.Quote(template)})
		}
		if r.Verified && len(trialsOf[i]) != p.Trials {
			c.problem(verify.Problem{File: RunsFile, Line: i + 2, Key: key, Msg: fmt.Sprintf("verified with %d trials in %s, the manifest asks %d", len(trialsOf[i]), TrialsFile, p.Trials)})
		}
		want := r
		want.Verified = false
		c.same(RunsFile, i+2, key, r, FinishRun(want, trialsOf[i]), "recomputed from its trials in "+TrialsFile)
	}
}

// isCondition: the run is of a language, library and way the manifest asks, in one of
// its rounds.
func (c *checker) isCondition(p Params, r RunRow) bool {
	if r.Round < 1 || r.Round > p.Rounds || (p.Legacy() && r.LibraryID != "") {
		return false
	}
	lib, ok := LibraryOfRun(r.Language, r.LibraryID)
	return ok && slices.ContainsFunc(p.Conditions(), func(cond experiment.Condition) bool {
		return cond == Cond{r.Language, lib.ID, r.Way}
	})
}

// templateOfRun is the kit's own line of the run's library in the manifest's shape.
func templateOfRun(p Params, r RunRow) string {
	lib, ok := LibraryOfRun(r.Language, r.LibraryID)
	if !ok {
		return lc.LineFormat
	}
	return p.TemplateOf(lib)
}

// conditions: conditions.csv is what Figures derives from the rows (an earlier kit's
// by that kit's rule).
func (c *checker) conditions(b *Bundle) {
	pub, err := LoadPublished()
	if err != nil {
		c.problem(verify.Problem{File: ConditionsFile, Msg: err.Error()})
		return
	}
	want := Figures(b.Manifest.Parameters, b.Runs, b.Trials, pub)
	if len(want) != len(b.Conditions) {
		c.problem(verify.Problem{File: ConditionsFile, Have: fmt.Sprintf("%d rows", len(b.Conditions)), Want: fmt.Sprintf("%d rows", len(want)), Msg: "a row per language and way of the manifest"})
		return
	}
	for i := range want {
		c.same(ConditionsFile, i+2, b.Conditions[i].Language+"/"+b.Conditions[i].Way, b.Conditions[i], want[i], "recomputed from "+RunsFile+" and "+TrialsFile)
	}
}

// earlierKitsFigures states an earlier kit's bundle (its manifest has
// bootstrap_resamples) as this kit states every bundle, over runs, once its
// conditions.csv has been checked by its own rule, and says so.
func (c *checker) earlierKitsFigures(b *Bundle) {
	p := b.Manifest.Parameters
	pub, err := LoadPublished()
	if p.Resamples == 0 || err != nil || !c.ok[ConditionsFile] {
		return
	}
	c.res.Notes = append(c.res.Notes, verify.Problem{File: ConditionsFile, Msg: fmt.Sprintf("an earlier kit's figures per line (bootstrap_resamples %d): "+
		"medians of the trials pooled over runs, their intervals a bootstrap of those medians; recomputed by that kit's rule. "+
		"The figures shown are over runs: each run's median, then their mean with a Student-t interval over runs", p.Resamples)})
	p.Resamples = 0
	b.Conditions = Figures(p, b.Runs, b.Trials, pub)
}

// same reports every column in which have differs from want (NaN equals NaN).
func (c *checker) same(file string, line int, key string, have, want any, why string) {
	hv, wv := reflect.ValueOf(have), reflect.ValueOf(want)
	for i := range hv.NumField() {
		a, b := hv.Field(i).Interface(), wv.Field(i).Interface()
		// A figure (float64 or bundle.Opt) is compared as a number: a == b never holds
		// for two NaNs, each an absent figure.
		if k := hv.Field(i).Kind(); k == reflect.Float64 {
			if number.Same(hv.Field(i).Float(), wv.Field(i).Float()) {
				continue
			}
		} else if a == b {
			continue
		}
		col := hv.Type().Field(i).Tag.Get("csv")
		c.problem(verify.Problem{File: file, Line: line, Key: key, Column: col, Have: fmt.Sprint(a), Want: fmt.Sprint(b), Msg: why})
	}
}
