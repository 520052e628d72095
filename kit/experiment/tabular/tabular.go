// Package tabular makes a whole experiment (kit/experiment) from a declaration: typed
// parameters, a plan's conditions and pods, one table of runs and how a run becomes a
// row. The kit writes, verifies, compares and draws such an experiment's bundles from
// the declaration alone.
package tabular

import (
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/number"
	"github.com/logbench/logbench/kit/offline/report"
	"github.com/logbench/logbench/kit/offline/verify"
)

// Experiment is an experiment declared as data: typed parameters that bind their own
// flags, the conditions and pods of a plan, one table of runs whose row type carries its
// columns' units and meanings in its tags, how a run becomes a row, and which columns
// are figures. From that declaration alone the kit writes the bundle (CSV,
// manifest.json, datapackage.json, SHA256SUMS), verifies it (checksums, the manifest's
// counts against its plan, unique keys, every derived column recomputed), states its
// figures over runs with the one statistic (kit/offline/figure), compares bundles in
// every format and draws a report. The experiment writes only what is its own.
//
// P is the parameters (a pointer to a struct), R a row of the runs table; R has the columns run_id, round and
// verified, and one column per axis of the conditions.
type Experiment[P experiment.Params, R any] struct {
	Info Info
	// Defaults are fresh parameters before any flag: a pointer to the experiment's
	// struct, which binds its own flags and checks itself (experiment.Params), flag and
	// manifest alike.
	Defaults func() P
	// Axes name the condition's columns of R, in order; Conditions are a plan's cells,
	// each the values of Axes in that order.
	Axes       []string
	Conditions func(p P) []Cell
	// Images are every image the experiment's runs may need; Needs, when set, says which
	// a plan needs (when the parameters choose them). Pod is one run's containers.
	Images []string
	Needs  func(p P) []string
	Pod    func(p P, c Cell, runID string, images map[string]string) experiment.PodSpec
	// Target, when set, refuses in one line an engine the plan cannot run on (a log
	// driver it does not have), before any image is built. Notes, when set, say what
	// the plan leaves out, and why.
	Target func(p P, env experiment.Env) error
	Notes  func(p P) []string
	// Observe turns what a run's pod left into its row's observed columns (the run's ID,
	// round and axes among them); Judge derives the rest from the row alone (verified,
	// the failure). verify runs Judge again on every row and compares.
	Observe func(p P, run experiment.Run) R
	Judge   func(p P, r *R)
	// Runs describes the table of runs (its file, name, text and extra checks); the kit
	// sets its row type, key and counted column.
	Runs bundle.Table
	// Metrics are the columns of R stated as figures over the verified runs of each
	// condition.
	Metrics []compare.Metric
}

// Info names an experiment: what `logbench experiments` lists, and the question its
// report opens by answering.
type Info struct{ Name, Summary, Source, Question string }

// Cell is a condition of a tabular experiment: the values of its axes, in order.
type Cell []string

func (c Cell) String() string { return strings.Join(c, "/") }

// tabularManifest is a tabular experiment's manifest.json.
type tabularManifest[P experiment.Params] struct {
	bundle.Common
	Rounds     int `json:"rounds"`
	Parameters P   `json:"parameters"`
}

func (t *Experiment[P, R]) Name() string    { return t.Info.Name }
func (t *Experiment[P, R]) Summary() string { return t.Info.Summary }
func (t *Experiment[P, R]) Source() string  { return t.Info.Source }

// ImagesFor names every image the experiment's plans may need, for `logbench build`;
// a tabular experiment has no --api to choose among.
func (t *Experiment[P, R]) ImagesFor(api string) ([]string, error) {
	if api != "" && api != "all" {
		return nil, experiment.Usagef("%s has no --api: it builds %s", t.Info.Name, strings.Join(t.Images, ", "))
	}
	return t.Images, nil
}

// Params are the parameters at their defaults.
func (t *Experiment[P, R]) Params() experiment.Params { return t.Defaults() }

// Plan checks the parameters t.Defaults made, their flags parsed, into a plan.
func (t *Experiment[P, R]) Plan(ps experiment.Params, rounds int) (experiment.Plan, error) {
	p, err := experiment.Own[P](ps)
	if err != nil {
		return nil, err
	}
	if err := experiment.FirstProblem(func() error { return experiment.CheckRounds(rounds) }, p.Check); err != nil {
		return nil, err
	}
	b := &tabularBundle[P, R]{t: t}
	b.M.Experiment, b.M.Rounds, b.M.Parameters = t.Info.Name, rounds, p
	return &tabularPlan[P, R]{b: b}, nil
}

// Resume continues a bundle that verifies, with its own parameters.
func (t *Experiment[P, R]) Resume(dir string) (experiment.Plan, error) {
	files, err := bundle.ReadFolder(dir)
	if err != nil {
		return nil, experiment.Usagef("--resume %s: %v", dir, err)
	}
	res := t.Verify(files)
	b, ok := res.Own.(*tabularBundle[P, R])
	if !res.OK() || !ok {
		return nil, experiment.Usagef("--resume %s: the bundle does not verify (logbench verify says why)", dir)
	}
	return &tabularPlan[P, R]{b: b}, nil
}

func (t *Experiment[P, R]) table() bundle.Table {
	tb := t.Runs
	tb.Row, tb.Key, tb.Verified = reflect.TypeFor[R](), []string{"run_id"}, "verified"
	return tb
}

func (t *Experiment[P, R]) dataFiles() []string { return []string{bundle.ManifestFile, t.Runs.File} }

// Layout is the bundle's files in archive order.
func (t *Experiment[P, R]) Layout() []string { return bundle.Layout(t.dataFiles()...) }

// Verify checks every file, checksum, count and derived column of a bundle.
func (t *Experiment[P, R]) Verify(files *bundle.Files) *verify.Result {
	res := &verify.Result{Name: files.Name, Experiment: t.Info.Name}
	verify.Entries(res, files, t.Layout())
	verify.Checksums(res, files.Data, t.Layout(), t.dataFiles())
	b := &tabularBundle[P, R]{t: t}
	manifestOK := verify.Manifest(res, files.Data, &b.M, func() *bundle.Common { return &b.M.Common })
	if manifestOK {
		// The rules of the flags that set them, and of --reps; parameters that fail are
		// not read further.
		var err error
		if v := reflect.ValueOf(b.M.Parameters); !v.IsValid() || v.Kind() == reflect.Pointer && v.IsNil() {
			err = experiment.Usagef("none recorded")
		} else {
			err = experiment.FirstProblem(func() error { return experiment.CheckRounds(b.M.Rounds) }, b.M.Parameters.Check)
		}
		if err != nil {
			res.Problem(verify.Problem{File: bundle.ManifestFile, Column: "parameters", Msg: err.Error()})
			manifestOK = false
		}
	}
	lines, rowsOK, _ := verify.Rows(res, files.Data, t.Runs.File, &b.Runs, nil)
	parsed := func(name string) bool {
		return name == bundle.ManifestFile && manifestOK || name == t.Runs.File && rowsOK
	}
	verify.CheckDataPackage(res, files.Data, t.dataFiles(), t.dataPackage(), parsed)
	planned := -1
	if manifestOK {
		planned = len(t.Conditions(b.M.Parameters)) * b.M.Rounds
		res.Counts.Conditions = len(t.Conditions(b.M.Parameters))
	}
	verify.Tables(res, files.Data, []bundle.Table{t.table()}, parsed, planned)
	res.Counts.Trusted = -1
	if !manifestOK || !rowsOK {
		return res
	}
	for i, r := range b.Runs {
		round, _ := strconv.Atoi(column(r, "round"))
		if id := column(r, "run_id"); !experiment.RunIDFits(id, b.cellOf(r), round) {
			res.Problem(verify.Problem{File: t.Runs.File, Line: lines[i], Key: "run " + verify.Short(id), Column: "run_id",
				Msg: fmt.Sprintf("not the ID of a run of %s in round %d", b.cellOf(r), round)})
		}
		want := r
		t.Judge(b.M.Parameters, &want)
		for _, col := range differing(r, want) {
			res.Problem(verify.Problem{File: t.Runs.File, Line: lines[i], Key: "run " + verify.Short(column(r, "run_id")), Column: col,
				Have: verify.Short(column(r, col)), Want: verify.Short(column(want, col)), Msg: "recomputed from the row's observed columns"})
		}
	}
	res.Own = b
	experiment.CheckPrecision(res, func() int { return b.M.Rounds }, t.Figures)
	return res
}

// Figures are every figure of every condition over its verified runs, one value a run.
func (t *Experiment[P, R]) Figures(res *verify.Result) ([]compare.Row, error) {
	b, ok := res.Own.(*tabularBundle[P, R])
	if !ok {
		return nil, fmt.Errorf("%s: not verified as a bundle of the %s experiment", res.Name, t.Info.Name)
	}
	return b.figures(), nil
}

// Compare sets bundles side by side, figure by figure, in any format of compare.
func (t *Experiment[P, R]) Compare(out, warn io.Writer, sources []experiment.Source, opt experiment.CompareOptions) error {
	if opt.Published {
		return experiment.Usagef("%s has no published figures to compare with (--published)", t.Info.Name)
	}
	in := compare.Input{Experiment: t.Info.Name, Metrics: t.Metrics}
	for _, s := range sources {
		b, ok := s.Result.Own.(*tabularBundle[P, R])
		if !ok {
			return fmt.Errorf("%s: not verified as a bundle of the %s experiment", s.Label, t.Info.Name)
		}
		in.Sides = append(in.Sides, compare.Side{Label: s.Label, Rows: b.figures(), Common: &b.M.Common, Manifest: b.M})
	}
	return compare.Write(out, warn, in, compare.Options{Match: opt.Match, Threshold: opt.Threshold}, opt.Format, opt.Wide)
}

// Report draws every figure of the bundles, each condition's estimate with its
// interval, one chart a figure.
func (t *Experiment[P, R]) Report(w io.Writer, sources []experiment.Source, version string) error {
	var bs report.Bundles
	groups := make([]report.Grouped, len(t.Metrics))
	var cats []string
	var firstRows []compare.Row // the first bundle's figures, which the answer states
	for _, s := range sources {
		b, ok := s.Result.Own.(*tabularBundle[P, R])
		if !ok {
			return fmt.Errorf("%s: not verified as a bundle of the %s experiment", s.Label, t.Info.Name)
		}
		colour := bs.Add(s.Label, s.Result, &b.M.Common, b.M.Parameters)
		rows := b.figures()
		if firstRows == nil {
			firstRows = rows
		}
		for i, m := range t.Metrics {
			series := report.Series{Name: s.Label, Colour: colour}
			for _, c := range t.Conditions(b.M.Parameters) {
				if !slices.Contains(cats, c.String()) {
					cats = append(cats, c.String())
				}
			}
			for _, cat := range cats {
				v := report.Absent
				for _, r := range rows {
					if r.Metric == m.Name && kvText(r.Condition) == cat {
						e := compare.Estimate(r)
						v = report.Value{V: e.Value, Lo: e.Low, Hi: e.High}
					}
				}
				series.Values = append(series.Values, v)
			}
			groups[i].Series = append(groups[i].Series, series)
		}
	}
	// A condition is named by the axes that differ between the conditions drawn: an
	// axis every one shares says nothing and would only crowd the chart.
	names := shortNames(cats)
	page, err := bs.Page(t.Info.Name, version, t.Info.Summary, nil)
	if err != nil {
		return err
	}
	sec := report.Section{ID: "figures", Title: "Figures",
		Caption: "Each condition's figure: the mean over its verified runs, with its 95% Student-t interval over runs (none from one run)."}
	for i, m := range t.Metrics {
		sec.Figures = append(sec.Figures, report.Bars(m.Title, unitOf[R](m.Name), names, &groups[i], false))
	}
	question := t.Info.Question
	if question == "" {
		question = "What does each condition measure?"
	}
	sentences, chart := t.answer(firstRows, names, cats), 0
	for i, m := range t.Metrics {
		if m.Headline {
			chart = i
			break
		}
	}
	page.Open(question, sentences, sec.Figures[chart])
	page.Sections = append(page.Sections, sec, bs.Images())
	return report.Write(w, page)
}

// answer is a sentence for each headline figure (every figure where none is marked):
// its range over the conditions, the lowest and the highest each stated with its
// interval and named by its condition (names, the short names of cats).
func (t *Experiment[P, R]) answer(rows []compare.Row, names, cats []string) []string {
	headlines := slices.ContainsFunc(t.Metrics, func(m compare.Metric) bool { return m.Headline })
	var out []string
	for _, m := range t.Metrics {
		if headlines && !m.Headline {
			continue
		}
		var lo, hi *compare.Row
		for i, r := range rows {
			if r.Metric != m.Name || compare.Estimate(r).Runs == 0 {
				continue
			}
			v := compare.Estimate(r).Value
			if lo == nil || v < compare.Estimate(*lo).Value {
				lo = &rows[i]
			}
			if hi == nil || v > compare.Estimate(*hi).Value {
				hi = &rows[i]
			}
		}
		if lo == nil {
			out = append(out, fmt.Sprintf("%s: no condition measured it.", capitalised(m.Title)))
			continue
		}
		name := func(r *compare.Row) string {
			if i := slices.Index(cats, kvText(r.Condition)); i >= 0 && names[i] != "" {
				return names[i]
			}
			return kvText(r.Condition)
		}
		unit := unitOf[R](m.Name)
		if unit == "1" {
			unit = ""
		}
		if lo == hi || compare.Estimate(*lo).Value == compare.Estimate(*hi).Value {
			out = append(out, fmt.Sprintf("%s: %s in every condition.", capitalised(m.Title), report.Stated(compare.Estimate(*lo), unit)))
			continue
		}
		out = append(out, fmt.Sprintf("%s: from %s (%s) to %s (%s).", capitalised(m.Title),
			report.Stated(compare.Estimate(*lo), unit), name(lo), report.Stated(compare.Estimate(*hi), unit), name(hi)))
	}
	return out
}

func capitalised(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

type tabularPlan[P experiment.Params, R any] struct{ b *tabularBundle[P, R] }

func (p *tabularPlan[P, R]) Conditions() []experiment.Condition {
	var out []experiment.Condition
	for _, c := range p.b.t.Conditions(p.b.M.Parameters) {
		out = append(out, c)
	}
	return out
}
func (p *tabularPlan[P, R]) Rounds() int               { return p.b.M.Rounds }
func (p *tabularPlan[P, R]) SetRounds(n int)           { p.b.M.Rounds = n }
func (p *tabularPlan[P, R]) Bundle() experiment.Bundle { return p.b }

func (p *tabularPlan[P, R]) Images() []string {
	if p.b.t.Needs != nil {
		return p.b.t.Needs(p.b.M.Parameters)
	}
	return p.b.t.Images
}

func (p *tabularPlan[P, R]) Target(env experiment.Env) error {
	if p.b.t.Target == nil {
		return nil
	}
	return p.b.t.Target(p.b.M.Parameters, env)
}

// Notes are what the plan leaves out (experiment.Noter).
func (p *tabularPlan[P, R]) Notes() []string {
	if p.b.t.Notes == nil {
		return nil
	}
	return p.b.t.Notes(p.b.M.Parameters)
}
func (p *tabularPlan[P, R]) Pod(c experiment.Condition, runID string, images map[string]string) experiment.PodSpec {
	return p.b.t.Pod(p.b.M.Parameters, c.(Cell), runID, images)
}

// tabularBundle is a tabular experiment's bundle in memory.
type tabularBundle[P experiment.Params, R any] struct {
	t    *Experiment[P, R]
	M    tabularManifest[P]
	Runs []R
}

func (b *tabularBundle[P, R]) Common() *bundle.Common           { return &b.M.Common }
func (b *tabularBundle[P, R]) Measured(run experiment.Run) bool { return run.Pod.Result != nil }

func (b *tabularBundle[P, R]) Add(run experiment.Run) (string, bool) {
	r := b.t.Observe(b.M.Parameters, run)
	b.t.Judge(b.M.Parameters, &r)
	b.Runs = append(b.Runs, r)
	verified := column(r, "verified") == "true"
	parts := []string{b.cellOf(r).String()}
	for _, m := range b.t.Metrics {
		if v, err := number.Parse(column(r, m.Name)); err == nil {
			parts = append(parts, fmt.Sprintf("%s %s", m.Name, withUnit(compare.Figure(v), unitOf[R](m.Name))))
		}
	}
	if verified {
		parts = append(parts, "verified")
	} else {
		parts = append(parts, "NOT VERIFIED: "+column(r, "failure"))
	}
	return strings.Join(parts, "  "), verified
}

// withUnit is a figure with its unit, if it has one ("1" is a count).
func withUnit(v, unit string) string {
	if unit == "" || unit == "1" {
		return v
	}
	return v + " " + unit
}

func (b *tabularBundle[P, R]) Has(c experiment.Condition, round int) bool {
	return slices.ContainsFunc(b.Runs, func(r R) bool {
		return column(r, "round") == strconv.Itoa(round) && b.cellOf(r).String() == c.String()
	})
}

func (b *tabularBundle[P, R]) Files() (map[string][]byte, error) {
	return bundle.Encode(b.M, map[string]any{b.t.Runs.File: &b.Runs}, b.t.dataPackage())
}

// dataPackage is the data package the experiment writes with every bundle.
func (t *Experiment[P, R]) dataPackage() bundle.DataPackage {
	return bundle.Describe(t.Info.Name, t.Info.Name+" bundle", t.Info.Summary,
		"The run's common facts (engine, images, counts), the rounds and the parameters.", []bundle.Table{t.table()}, nil)
}

// Summary is every figure of every condition, as compare states it: a row a condition,
// a column a figure, each the mean over its verified runs with its 95% interval over
// runs (none from one run).
func (b *tabularBundle[P, R]) Summary(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := slices.Clone(b.t.Axes)
	head = append(head, "runs ok")
	for _, m := range b.t.Metrics {
		head = append(head, m.Name) // its unit is in its name
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	rows := b.figures()
	for _, c := range b.t.Conditions(b.M.Parameters) {
		line := slices.Clone([]string(c))
		var ok, all int
		for _, r := range b.Runs {
			if b.cellOf(r).String() == c.String() {
				all++
				if column(r, "verified") == "true" {
					ok++
				}
			}
		}
		line = append(line, fmt.Sprintf("%d/%d", ok, all))
		for _, m := range b.t.Metrics {
			cell := "-"
			for _, r := range rows {
				if r.Metric != m.Name || kvText(r.Condition) != c.String() {
					continue
				}
				if e := compare.Estimate(r); e.Runs > 0 {
					cell = compare.Figure(e.Value)
					if iv := e.IntervalText(); iv != "" {
						cell += " " + iv
					}
				}
			}
			line = append(line, cell)
		}
		fmt.Fprintln(tw, strings.Join(line, "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "Each figure: the mean over the condition's verified runs, with its 95% Student-t interval over runs (none from one run); - where no run measured it.")
	return err
}

func (b *tabularBundle[P, R]) cellOf(r R) Cell {
	var c Cell
	for _, a := range b.t.Axes {
		c = append(c, column(r, a))
	}
	return c
}

func (b *tabularBundle[P, R]) figures() []compare.Row {
	var rows []compare.Row
	for _, c := range b.t.Conditions(b.M.Parameters) {
		var kvs []compare.KV
		for i, a := range b.t.Axes {
			kvs = append(kvs, compare.KV{Key: a, Value: c[i]})
		}
		for _, m := range b.t.Metrics {
			var runs [][]float64
			for _, r := range b.Runs {
				if column(r, "verified") == "true" && b.cellOf(r).String() == c.String() {
					if v, err := number.Parse(column(r, m.Name)); err == nil {
						runs = append(runs, []float64{v})
					}
				}
			}
			r := compare.Measured(kvs, m.Name, unitOf[R](m.Name), compare.Mean{}, runs)
			r.Headline = m.Headline || !slices.ContainsFunc(b.t.Metrics, func(m compare.Metric) bool { return m.Headline })
			rows = append(rows, r)
		}
	}
	return rows
}

// shortNames are the conditions cats ("a/b/c") with the axes they all share left out.
func shortNames(cats []string) []string {
	if len(cats) < 2 {
		return cats
	}
	split := make([][]string, len(cats))
	for i, c := range cats {
		split[i] = strings.Split(c, "/")
	}
	var varying []int
	for a := range split[0] {
		for _, s := range split[1:] {
			if len(s) != len(split[0]) {
				return cats
			}
			if s[a] != split[0][a] {
				varying = append(varying, a)
				break
			}
		}
	}
	out := make([]string, len(cats))
	for i, s := range split {
		var parts []string
		for _, a := range varying {
			parts = append(parts, s[a])
		}
		out[i] = strings.Join(parts, "/")
	}
	return out
}

func kvText(kvs []compare.KV) string {
	vals := make([]string, len(kvs))
	for i, kv := range kvs {
		vals[i] = kv.Value
	}
	return strings.Join(vals, "/")
}

// column is a row's value in the column named name, as the CSV file holds it.
func column(row any, name string) string {
	v := reflect.ValueOf(row)
	for _, f := range fieldsOf(v.Type()) {
		if f.Column == name {
			return fmt.Sprint(v.FieldByIndex(f.Index).Interface())
		}
	}
	return ""
}

// unitOf is the unit a row type's tags give the column name.
func unitOf[R any](name string) string {
	for _, f := range bundle.FieldsOf[R]() {
		if f.Column == name {
			return reflect.TypeFor[R]().FieldByIndex(f.Index).Tag.Get("unit")
		}
	}
	return ""
}

// differing are the columns in which two rows differ.
func differing(a, b any) []string {
	var out []string
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	for _, f := range fieldsOf(va.Type()) {
		x, y := va.FieldByIndex(f.Index).Interface(), vb.FieldByIndex(f.Index).Interface()
		if !reflect.DeepEqual(x, y) && !(isNaN(x) && isNaN(y)) {
			out = append(out, f.Column)
		}
	}
	return out
}

func isNaN(v any) bool {
	switch f := v.(type) {
	case float64:
		return f != f
	case bundle.Opt:
		return f != f
	}
	return false
}

func fieldsOf(t reflect.Type) []bundle.Field { return bundle.FieldsOfType(t) }
