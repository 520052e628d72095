// Package tabular makes a whole experiment (kit/experiment) from a declaration: typed
// parameters, a plan's conditions and pods, a table of runs and further tables, and how
// a run becomes rows. The kit writes, verifies, compares and draws such an experiment's
// bundles from the declaration alone; an experiment adds only what is its own (extra
// rules, the published figures, extra drawings).
package tabular

import (
	"cmp"
	"context"
	"io"
	"reflect"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/report"
)

// Experiment is an experiment declared as data: typed parameters that bind their own
// flags, the conditions and pods of a plan, a table of runs whose row type carries its
// columns' units and meanings in its tags, further tables, how a run becomes rows, and
// which columns are figures. From that declaration alone the kit writes the bundle (CSV,
// manifest.json, datapackage.json, SHA256SUMS), verifies it (checksums, the manifest's
// counts against its plan, unique keys, references, every derived column and table
// recomputed), states its figures over runs with the one statistic (kit/offline/figure),
// compares bundles in every format and draws a report.
//
// P is the parameters (a pointer to a struct), R a row of the runs table; R has the
// columns run_id, round and verified, and one column per axis of the conditions.
type Experiment[P experiment.Params, R any] struct {
	// About names the experiment (Layout left empty: Info gives the one its tables
	// make).
	About experiment.Info
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
	// round and axes among them); Judge derives the rest from the row and the run's own
	// rows of the per-run tables (verified, the failure). verify runs Judge again on
	// every row and compares.
	Observe func(p P, run experiment.Run) R
	Judge   func(p P, r *R, own Rows)
	// Runs describes the table of runs (its file, name, text and extra checks); the kit
	// sets its row type, key and counted column. Tables are the bundle's further tables
	// (PerRun, Derived), in the order the bundle lists them.
	Runs   bundle.Table
	Tables []Table[P]
	// Metrics are the columns of R stated as figures over the verified runs of each
	// condition.
	Metrics []compare.Metric

	// What an experiment may add of its own; nil is nothing.
	//
	// Manifest makes a fresh manifest of the experiment's own type (Standard when nil).
	// Rules are checks of what can happen at all, beyond the derived columns: a run that
	// breaks one cannot have been observed. Published are the publication's figures set
	// against the bundles (compare --published). Drawings are the report's sections beyond
	// the figures.
	Manifest  func() Manifest[P]
	Rules     func(c *Check[P, R])
	Published func(bundles []*Bundle[P, R]) (rows []compare.Row, warnings, legend []string, err error)
	Drawings  func(bundles []Drawn[P, R]) []report.Section
	// Own are the experiment's hooks beyond these (own.go).
	Own Own[P, R]
}

// Cell is a condition of a tabular experiment: the values of its axes, in order.
type Cell []string

// String names the cell by its axes' values ("go/slog/format"); an axis a bundle of an
// earlier kit has no value of (it had no such axis) is left out ("go/format"), as that
// kit named its runs.
func (c Cell) String() string {
	var named []string
	for _, v := range c {
		if v != "" {
			named = append(named, v)
		}
	}
	return strings.Join(named, "/")
}

// Info is About with the bundle's files in archive order: every file a bundle may
// have.
func (t *Experiment[P, R]) Info() experiment.Info {
	info := t.About
	info.Layout = t.layout()
	return info
}

// ImagesFor names every image the experiment's plans may need, for `logbench build`;
// a tabular experiment has no --api to choose among.
func (t *Experiment[P, R]) ImagesFor(api string) ([]string, error) {
	if api != "" && api != "all" {
		return nil, experiment.Usagef("%s has no --api: it builds %s", t.About.Name, strings.Join(t.Images, ", "))
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
	if err := cmp.Or(experiment.CheckRounds(rounds), p.Check()); err != nil {
		return nil, err
	}
	b := t.newBundle()
	b.M.Head().Experiment, *b.M.Rounds() = t.About.Name, rounds
	b.M.SetParams(p)
	return &plan[P, R]{b: b}, nil
}

// Resume continues a bundle that verifies, with its own parameters. Only reproduce's
// bundles continue: one of `logbench run` is of one condition, and complete.
func (t *Experiment[P, R]) Resume(dir string) (experiment.Plan, error) {
	files, err := bundle.ReadFolder(dir)
	if err != nil {
		return nil, experiment.Usagef("--resume %s: %v", dir, err)
	}
	res := t.Verify(files)
	b, ok := res.Own.(*Bundle[P, R])
	if !res.OK() || !ok {
		return nil, experiment.Usagef("--resume %s: the bundle does not verify (logbench verify says why)", dir)
	}
	if c := b.Common().Command; c != "reproduce" {
		return nil, experiment.Usagef("--resume %s: a bundle of %q, not of reproduce", dir, c)
	}
	return &plan[P, R]{b: b}, nil
}

// tables are every table of a bundle for which has says yes: the runs first, then the
// further ones.
func (t *Experiment[P, R]) tables(has func(f Table[P]) bool) []bundle.Table {
	runs := t.Runs
	runs.Row, runs.Key, runs.Verified = reflect.TypeFor[R](), []string{"run_id"}, "verified"
	if t.Own.Retry != nil {
		runs.Superseded = "superseded"
	}
	out := []bundle.Table{runs}
	for _, f := range t.further(has) {
		out = append(out, f.Declared())
	}
	return out
}

// further are the further tables for which has says yes (nil: every one).
func (t *Experiment[P, R]) further(has func(f Table[P]) bool) []Table[P] {
	var out []Table[P]
	for _, f := range t.Tables {
		if has == nil || has(f) {
			out = append(out, f)
		}
	}
	return out
}

// of says which tables a bundle of the parameters p has (Only).
func of[P experiment.Params](p P) func(f Table[P]) bool {
	return func(f Table[P]) bool { return f.in(p) }
}

func (t *Experiment[P, R]) dataFiles(has func(f Table[P]) bool) []string {
	files := []string{bundle.ManifestFile}
	for _, tb := range t.tables(has) {
		files = append(files, tb.File)
	}
	return files
}

func (t *Experiment[P, R]) layout() []string { return bundle.Layout(t.dataFiles(nil)...) }

// DataPackage is the data package the experiment writes with every bundle: every table
// a bundle may have.
func (t *Experiment[P, R]) DataPackage() bundle.DataPackage { return t.dataPackage(nil) }

// dataPackage describes the tables for which has says yes.
func (t *Experiment[P, R]) dataPackage(has func(f Table[P]) bool) bundle.DataPackage {
	dp := bundle.Describe(t.About.Name, t.About.Name+" bundle", t.About.Summary,
		"The run's common facts (engine, images, counts), the rounds and the parameters.", t.tables(has), nil)
	if t.Own.Describe != nil {
		t.Own.Describe(&dp)
	}
	return dp
}

type plan[P experiment.Params, R any] struct{ b *Bundle[P, R] }

func (p *plan[P, R]) Conditions() []experiment.Condition {
	var out []experiment.Condition
	for _, c := range p.b.t.Conditions(p.b.M.Params()) {
		out = append(out, c)
	}
	return out
}
func (p *plan[P, R]) Rounds() int               { return *p.b.M.Rounds() }
func (p *plan[P, R]) SetRounds(n int)           { *p.b.M.Rounds() = n }
func (p *plan[P, R]) Bundle() experiment.Bundle { return p.b }

func (p *plan[P, R]) Images() []string {
	if p.b.t.Needs != nil {
		return p.b.t.Needs(p.b.M.Params())
	}
	return p.b.t.Images
}

func (p *plan[P, R]) Target(env experiment.Env) error {
	if p.b.t.Target == nil {
		return nil
	}
	return p.b.t.Target(p.b.M.Params(), env)
}

// Notes are what the plan leaves out (experiment.Noter).
func (p *plan[P, R]) Notes() []string {
	if p.b.t.Notes == nil {
		return nil
	}
	return p.b.t.Notes(p.b.M.Params())
}

// Prepare runs the experiment's own preparation before the first run (Own.Prepare).
func (p *plan[P, R]) Prepare(ctx context.Context, pods experiment.Pods, images map[string]string, imageBuild time.Duration, out io.Writer) error {
	if p.b.t.Own.Prepare == nil {
		return nil
	}
	return p.b.t.Own.Prepare(ctx, p.b.M.Params(), pods, images, imageBuild, out)
}

func (p *plan[P, R]) Pod(c experiment.Condition, runID string, images map[string]string) experiment.PodSpec {
	return p.b.t.Pod(p.b.M.Params(), c.(Cell), runID, images)
}
