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
)

// Bundle is a tabular experiment's bundle in memory: its manifest, its runs and its
// per-run tables, as a matrix fills it or verify read it. The derived tables are
// derived from them when the bundle is written.
type Bundle[P experiment.Params, R any] struct {
	t    *Experiment[P, R]
	M    Manifest[P]
	Runs []R
	Rows Rows
	// Speed is each run's speed probe over the bundle's median, by run ID, as verify
	// read it (verify.Result.Speed); nil before.
	Speed map[string]float64
	// Label names the bundle in a comparison or report, as its source does; "" before.
	Label string
}

func (t *Experiment[P, R]) newBundle() *Bundle[P, R] {
	return &Bundle[P, R]{t: t, M: t.newManifest(), Rows: Rows{}}
}

func (b *Bundle[P, R]) Common() *bundle.Common { return b.M.Head() }
func (b *Bundle[P, R]) Measured(run experiment.Run) bool {
	if b.t.Own.Measured != nil {
		return b.t.Own.Measured(run)
	}
	return run.Pod.Result != nil
}

// Params are the bundle's parameters.
func (b *Bundle[P, R]) Params() P { return b.M.Params() }

func (b *Bundle[P, R]) Add(run experiment.Run) (string, bool) {
	p := b.M.Params()
	r := b.t.Observe(p, run)
	own := Rows{}
	for _, f := range b.t.further(of(p)) {
		if rows := f.observe(p, run); rows != nil {
			file := f.Declared().File
			own[file] = rows
			b.Rows[file] = f.join(b.Rows[file], rows)
		}
	}
	b.t.Judge(p, &r, own)
	b.Runs = append(b.Runs, r)
	if b.t.Own.Across != nil {
		b.t.Own.Across(p, b.Runs)
		r = b.Runs[len(b.Runs)-1]
	}
	verified := column(r, "verified") == "true"
	if b.t.Own.Progress != nil {
		return b.t.Own.Progress(p, r), verified
	}
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

// Has says the bundle holds the round's run of c: a superseded attempt is not it.
func (b *Bundle[P, R]) Has(c experiment.Condition, round int) bool {
	return slices.ContainsFunc(b.Runs, func(r R) bool { return b.of(r, c, round) && counts(r) })
}

func (b *Bundle[P, R]) of(r R, c experiment.Condition, round int) bool {
	return column(r, "round") == strconv.Itoa(round) && b.cellOf(r).String() == c.String()
}

// counts says a run is not superseded: it counts among its condition's runs.
func counts(r any) bool { return column(r, "superseded") != "true" }

// isData says a run is in the figures: verified, and not redone.
func isData(r any) bool { return column(r, "verified") == "true" && counts(r) }

// Retry marks the run just added superseded when the experiment's Own.Retry has it
// redone (experiment.Retrier).
func (b *Bundle[P, R]) Retry(run experiment.Run) bool {
	if b.t.Own.Retry == nil || len(b.Runs) == 0 {
		return false
	}
	last := &b.Runs[len(b.Runs)-1]
	if column(*last, "run_id") != run.ID || !b.t.Own.Retry(b.M.Params(), *last) {
		return false
	}
	setColumn(last, "superseded", true)
	if b.t.Own.Across != nil {
		b.t.Own.Across(b.M.Params(), b.Runs)
	}
	return true
}

// Attempts counts the bundle's attempts of c in round, for numbering the next.
func (b *Bundle[P, R]) Attempts(c experiment.Condition, round int) int {
	n := 0
	for _, r := range b.Runs {
		if b.of(r, c, round) {
			n++
		}
	}
	return n
}

func (b *Bundle[P, R]) Files() (map[string][]byte, error) {
	p := b.M.Params()
	tables := map[string]any{b.t.Runs.File: &b.Runs}
	for _, f := range b.t.further(of(p)) {
		rows := b.Rows[f.Declared().File]
		if d := f.derive(p, b.Runs, b.Rows); d != nil {
			rows = d
		}
		tables[f.Declared().File] = f.join(nil, rows)
	}
	return bundle.Encode(b.M, tables, b.t.dataPackage(of(p)))
}

// Summary is every figure of every condition, as compare states it: a row a condition,
// a column a figure, each the mean over its verified runs with its 95% interval over
// runs (none from one run).
func (b *Bundle[P, R]) Summary(w io.Writer) error {
	if b.t.Own.Summary != nil {
		return b.t.Own.Summary(b, w)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := slices.Clone(b.t.Axes)
	head = append(head, "runs ok")
	for _, m := range b.t.Metrics {
		head = append(head, m.Name) // its unit is in its name
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	rows := b.figures()
	for _, c := range b.t.Conditions(b.M.Params()) {
		line := slices.Clone([]string(c))
		var ok, all int
		for _, r := range b.Runs {
			if b.cellOf(r).String() == c.String() && counts(r) {
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
					cell = e.Stated()
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

func (b *Bundle[P, R]) cellOf(r R) Cell {
	var c Cell
	for _, a := range b.t.Axes {
		c = append(c, column(r, a))
	}
	return c
}

// figures are the bundle's figure rows, those of a condition with runs on a noisy
// host marked so.
func (b *Bundle[P, R]) figures() []compare.Row {
	rows := b.ownFigures()
	b.markNoisy(rows)
	return rows
}

// MarkNoisy marks every figure of a condition with runs that count measured on a noisy
// host (Noisy), in every experiment whose runs say it.
const MarkNoisy = "noisy runs"

// sayNoisy: R's runs say whether their host was noisy (a host_noisy column).
func sayNoisy[R any]() bool {
	return slices.ContainsFunc(bundle.FieldsOf[R](), func(f bundle.Field) bool { return f.Column == "host_noisy" })
}

// markNoisy marks rows whose condition has runs that count on a noisy host: a run
// whose axes have the values the row's condition names for them.
func (b *Bundle[P, R]) markNoisy(rows []compare.Row) {
	if !sayNoisy[R]() {
		return
	}
	var noisy []R
	for _, r := range b.Runs {
		if isData(r) && column(r, "host_noisy") == "true" {
			noisy = append(noisy, r)
		}
	}
	of := func(row compare.Row, r R) bool {
		named := false
		for _, kv := range row.Condition {
			if slices.Contains(b.t.Axes, kv.Key) {
				if column(r, kv.Key) != kv.Value {
					return false
				}
				named = true
			}
		}
		return named
	}
	for i, row := range rows {
		if !slices.Contains(row.Marks, MarkNoisy) && slices.ContainsFunc(noisy, func(r R) bool { return of(row, r) }) {
			rows[i].Marks = append([]string{MarkNoisy}, row.Marks...)
		}
	}
}

func (b *Bundle[P, R]) ownFigures() []compare.Row {
	if b.t.Own.Figures != nil {
		return b.t.Own.Figures(b)
	}
	var rows []compare.Row
	for _, c := range b.t.Conditions(b.M.Params()) {
		var kvs []compare.KV
		for i, a := range b.t.Axes {
			kvs = append(kvs, compare.KV{Key: a, Value: c[i]})
		}
		for _, m := range b.t.Metrics {
			var runs [][]float64
			for _, r := range b.Runs {
				if isData(r) && b.cellOf(r).String() == c.String() {
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

// setColumn sets a row's column named name to v.
func setColumn(row any, name string, v any) {
	p := reflect.ValueOf(row).Elem()
	for _, f := range fieldsOf(p.Type()) {
		if f.Column == name {
			p.FieldByIndex(f.Index).Set(reflect.ValueOf(v))
		}
	}
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
