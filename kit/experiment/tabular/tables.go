package tabular

import (
	"fmt"
	"reflect"
	"strconv"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// Table is a further table of a bundle, beside its runs: rows each run adds (PerRun: a
// run's requests, second by second) or rows derived from every run (Derived: each
// condition's summary), which verify derives again and compares. The kit writes,
// describes, reads and checks it like the table of runs.
type Table[P experiment.Params] interface {
	// Declared is the table as the data package describes it; the kit sets its row type.
	Declared() bundle.Table
	// isDerived says the table is derived from the runs, not added to by each.
	isDerived() bool
	// observe is a run's rows of a per-run table; nil for a derived one.
	observe(p P, run experiment.Run) any
	// derive is a derived table's rows from every run (a []R) and every per-run table;
	// nil for a per-run one.
	derive(p P, runs any, rows Rows) any
	// read decodes the table's file into its rows.
	read(res *verify.Result, files map[string][]byte, later map[string]string) (rows any, lines []int, ok bool, absent map[string]bool)
	// byRun splits a per-run table's rows by their run_id; runIDs are the rows' run_ids
	// in order.
	byRun(rows any) map[string]any
	runIDs(rows any) []string
	// join appends the rows b to the rows a (either may be nil).
	join(a, b any) any
	// physics holds the rows (of the file, at lines) to the rules their columns
	// declare: no negative quantity, the orders and the numbering their tags give.
	physics(res *verify.Result, rows any, lines []int, units map[string]string, absent map[string]bool)
	// differ says where derived rows (want) differ from the file's (have).
	differ(res *verify.Result, have, want any, lines []int, absent map[string]bool, from string)
	// in says a bundle of the parameters p has the table; optional, that some bundles
	// lack it (Only).
	in(p P) bool
	optional() bool
	// remodel notes where a derived table's model columns (Modelled) differ from
	// this kit's, and takes this kit's.
	remodel(res *verify.Result, have, want any, lines []int)
}

// Rows are a bundle's further tables by file, each a []T of its row type; Of reads one.
type Rows map[string]any

// Of is the rows of the table in file, or none.
func Of[T any](rows Rows, file string) []T {
	v, _ := rows[file].([]T)
	return v
}

// PerRun is a table whose rows each run adds: rows turns what a run's pod left into
// them. Each row has the run's run_id; Judge is handed the run's own.
func PerRun[P experiment.Params, T any](t bundle.Table, rows func(p P, run experiment.Run) []T) Table[P] {
	return &table[P, T]{decl: t, perRun: rows}
}

// Derived is a table the kit derives from every run when it writes the bundle, and
// verify again from the bundle's runs: derive is handed the runs (R, the experiment's
// row of runs) and every per-run table.
func Derived[P experiment.Params, R, T any](t bundle.Table, derive func(p P, runs []R, rows Rows) []T) Table[P] {
	return &table[P, T]{decl: t, derived: func(p P, runs any, rows Rows) []T { return derive(p, runs.([]R), rows) }}
}

type table[P experiment.Params, T any] struct {
	decl    bundle.Table
	perRun  func(p P, run experiment.Run) []T
	derived func(p P, runs any, rows Rows) []T
	when    func(p P) bool
	model   []string // the columns Modelled names
}

// Only is the table t in the bundles whose parameters have it (when): a capacity
// search's steps. A bundle of other parameters has no such file, and verify refuses the
// file where the parameters say there is none, and its absence where they say there is.
func Only[P experiment.Params](t Table[P], when func(p P) bool) Table[P] {
	t.(interface{ only(func(P) bool) }).only(when)
	return t
}

func (t *table[P, T]) only(when func(P) bool) { t.when = when }

func (t *table[P, T]) in(p P) bool    { return t.when == nil || t.when(p) }
func (t *table[P, T]) optional() bool { return t.when != nil }

func (t *table[P, T]) Declared() bundle.Table {
	d := t.decl
	d.Row = reflect.TypeFor[T]()
	return d
}

func (t *table[P, T]) isDerived() bool { return t.derived != nil }

func (t *table[P, T]) observe(p P, run experiment.Run) any {
	if t.perRun == nil {
		return nil
	}
	return t.perRun(p, run)
}

func (t *table[P, T]) derive(p P, runs any, rows Rows) any {
	if t.derived == nil {
		return nil
	}
	return t.derived(p, runs, rows)
}

func (t *table[P, T]) read(res *verify.Result, files map[string][]byte, later map[string]string) (any, []int, bool, map[string]bool) {
	var rows []T
	lines, ok, absent := verify.Rows(res, files, t.decl.File, &rows, later)
	return rows, lines, ok, absent
}

func (t *table[P, T]) byRun(rows any) map[string]any {
	out := map[string]any{}
	for _, r := range asRows[T](rows) {
		id := column(r, "run_id")
		out[id] = append(asRows[T](out[id]), r)
	}
	return out
}

func (t *table[P, T]) runIDs(rows any) []string {
	var out []string
	for _, r := range asRows[T](rows) {
		out = append(out, column(r, "run_id"))
	}
	return out
}

func (t *table[P, T]) physics(res *verify.Result, rows any, lines []int, units map[string]string, absent map[string]bool) {
	declaredRules(res, t.decl.File, asRows[T](rows), lines, units, absent, func(r T) string { return rowKey(t.decl, r) })
}

// declaredRules hold rows (of file, at lines; key names one) to the physical rules
// their columns declare: no negative quantity (but the columns tagged signed), the
// orders (atleast), the numbering of each run's rows (numbered), and a verdict that
// says why (verified and failure).
func declaredRules[T any](res *verify.Result, file string, rows []T, lines []int, units map[string]string, absent map[string]bool, key func(T) string) {
	verify.NonNegative(res, file, lines, rows, key, units, signed[T]()...)
	verify.Ordered(res, file, lines, rows, key, absent)
	verify.Numbered(res, file, lines, rows, func(r T) string { return column(r, "run_id") })
	verify.Verdicts(res, file, lines, rows, key)
}

// signed are the columns of a row type that may be negative (tag signed:"true"): a
// difference against a baseline, what remains of a total once its parts are taken out,
// the low end of an interval.
func signed[T any]() []string {
	var out []string
	for _, f := range bundle.FieldsOf[T]() {
		if reflect.TypeFor[T]().FieldByIndex(f.Index).Tag.Get("signed") == "true" {
			out = append(out, f.Column)
		}
	}
	return out
}

func (t *table[P, T]) join(a, b any) any { return append(asRows[T](a), asRows[T](b)...) }

func (t *table[P, T]) differ(res *verify.Result, have, want any, lines []int, absent map[string]bool, from string) {
	h, w := asRows[T](have), asRows[T](want)
	if len(h) != len(w) {
		res.Problem(verify.Problem{File: t.decl.File, Have: strconv.Itoa(len(h)) + " rows", Want: strconv.Itoa(len(w)), Msg: "derived again from " + from})
	}
	for i := range min(len(h), len(w)) {
		verify.Differ(res, t.decl.File, lines[i], rowKey(t.decl, h[i]), h[i], w[i], "", absent, "derived again from "+from)
	}
}

// rowKey names a row by its table's key columns ("condition go/none").
func rowKey(t bundle.Table, row any) string {
	var key Cell
	for _, k := range t.Key {
		key = append(key, column(row, k))
	}
	return fmt.Sprintf("%s %s", t.Name, key)
}

func asRows[T any](v any) []T {
	rows, _ := v.([]T)
	return rows
}
