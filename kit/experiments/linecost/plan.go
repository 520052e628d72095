package linecost

import (
	"fmt"
	"slices"
	"time"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	lc "github.com/logbench/logbench/kit/incontainer/linecost"
)

// The languages whose usual logging is measured, each by a program in its API image.
const (
	Go     = "go"
	Python = "python"
	Node   = "node"
)

// Languages lists them.
var Languages = []string{Go, Python, Node}

// programs are each language's image (its API image, which holds the program) and the
// entrypoint that runs the measurement in place of the API.
var programs = map[string]struct {
	image      string
	entrypoint []string
}{Go: {"api", []string{"/linecost"}}, Python: {"api-python", []string{"/usr/bin/python3", "/app/logbench_linecost.py"}},
	Node: {"api-node", []string{"/usr/bin/node", "/app/logbench_linecost.js"}}}

// Defaults of the flags.
const (
	DefaultLines       = 20000
	DefaultFsyncLines  = lc.MinLines
	DefaultTrials      = 5
	DefaultWarmup      = 1
	DefaultRate        = 1000
	DefaultCPUs        = 0.25
	DefaultMemoryBytes = 128 << 20
	DefaultPidsLimit   = 128
)

// Params are what the manifest records of a plan, and all a resumed plan needs.
type Params struct {
	Languages []string `json:"languages"`
	// Libraries are the libraries measured (kit/incontainer/linecost.Libraries ids),
	// each of one of Languages; nil in a bundle written before the experiment had a
	// library axis, which measured each language's first (Legacy).
	Libraries []string `json:"libraries,omitempty"`
	// Line is the line's shape (kit/incontainer/linecost.LineShapes); "" in a bundle
	// written before lines had shapes, whose line was text-notime.
	Line   string   `json:"line,omitempty"`
	Ways   []string `json:"ways"`
	Rounds int      `json:"rounds"`
	// Lines per trial of every way but fsync, which has FsyncLines: a thousand
	// fsyncs take seconds, twenty thousand minutes, and a thousand already dwarf the
	// clock's cost (see kit/incontainer/linecost.MinLines).
	Lines         int64   `json:"lines_per_trial"`
	FsyncLines    int64   `json:"fsync_lines_per_trial"`
	Trials        int     `json:"trials"`
	WarmupTrials  int     `json:"warmup_trials"`
	QueueSize     int     `json:"queue_size"`
	QueueFull     string  `json:"queue_full"`
	RateLinesPerS float64 `json:"rate_lines_per_s"`
	// Volume is the named volume the runs write to; "" for a fresh one per run.
	Volume      string  `json:"volume"`
	CPUs        float64 `json:"cpus"` // 0: no limit
	MemoryBytes int64   `json:"memory_bytes"`
	PidsLimit   int64   `json:"pids_limit"`
	// Resamples is the bootstrap an earlier kit derived conditions.csv's figures with
	// (pooledMedianBootstrap); 0, and not written, in bundles of this kit.
	Resamples int    `json:"bootstrap_resamples,omitempty"`
	Platform  string `json:"platform"`
}

// RoundsField is where the manifest records the rounds (tabular.RoundsInParams).
func (p *Params) RoundsField() *int { return &p.Rounds }

// LinesOf is the lines per trial of way.
func (p Params) LinesOf(way string) int64 {
	if way == lc.Fsync {
		return p.FsyncLines
	}
	return p.Lines
}

// What a run's pod may take (PodSpec.StopAfter, before the kit's grace): its start,
// then 10 ms a line and 250 ms a line that waits for fsync. The program has no cap of
// its own; these are generous on purpose (a line costs microseconds), so that only a
// program that is stuck meets them.
const (
	lineBudget       = 10 * time.Millisecond
	syncedLineBudget = 250 * time.Millisecond
	startBudget      = 2 * time.Minute
)

// maxRunTime is the most a run of way may take: every trial's lines, warm-up included.
func (p Params) maxRunTime(way string) time.Duration {
	each := lineBudget
	if way == lc.Fsync {
		each = syncedLineBudget
	}
	return startBudget + time.Duration(int64(p.Trials+p.WarmupTrials)*p.LinesOf(way))*each
}

var usagef = experiment.Usagef

// Legacy: the bundle was written before the experiment had a library axis and lines a
// time stamp; its figures are derived as they were then.
func (p Params) Legacy() bool { return p.Libraries == nil }

// LibrariesOf are the libraries measured of language, in --libraries' order.
func (p Params) LibrariesOf(language string) []lc.Library {
	var out []lc.Library
	if p.Legacy() {
		return []lc.Library{lc.DefaultLibrary(language)}
	}
	for _, id := range p.Libraries {
		if l, ok := lc.LibraryOf(language, id); ok {
			out = append(out, l)
		}
	}
	return out
}

// LineOf is the shape lib writes in this plan.
func (p Params) LineOf(lib lc.Library) string {
	if p.Legacy() || p.Line == "" {
		return lc.LineTextNoTime
	}
	return lib.Shape(p.Line)
}

// TemplateOf is the kit's own line of lib in this plan ("" when not offered).
func (p Params) TemplateOf(lib lc.Library) string {
	t, _ := lib.Template(p.LineOf(lib))
	return t
}

// LibraryOfRun is the library a run measured: its library id, or the language's first
// in a legacy bundle; none for a language the kit does not measure, whatever a bundle
// says.
func LibraryOfRun(language, id string) (lc.Library, bool) {
	if id == "" && slices.Contains(Languages, language) {
		return lc.DefaultLibrary(language), true
	}
	return lc.LibraryOf(language, id)
}

// DefaultLibraries are the first library of each language: what the experiment
// measured before it had a library axis.
func DefaultLibraries() []string { return defaultLibrariesOf(Languages) }

// defaultLibrariesOf are the first library of each of languages the kit measures.
func defaultLibrariesOf(languages []string) []string {
	var ids []string
	for _, l := range languages {
		if slices.Contains(Languages, l) {
			ids = append(ids, lc.DefaultLibrary(l).ID)
		}
	}
	return ids
}

// Conditions are language x library x way, the ways a library cannot do left out (see
// NotOffered).
func (p *Params) Conditions() []tabular.Cell { cells, _ := p.matrix(); return cells }

// NotOffered lists the language/library/way of the plan a library cannot do, each
// with the reason: shown in the plan and the tables, never run.
func (p Params) NotOffered() []string { _, notOffered := p.matrix(); return notOffered }

// matrix is language x library x way: the cells a library can do, and those it cannot,
// with why.
func (p Params) matrix() (cells []tabular.Cell, notOffered []string) {
	for _, lang := range p.Languages {
		for _, lib := range p.LibrariesOf(lang) {
			for _, way := range p.Ways {
				if ok, why := lib.Offers(way, p.LineOf(lib)); ok {
					cells = append(cells, tabular.Cell{lang, lib.ID, way})
				} else {
					notOffered = append(notOffered, fmt.Sprintf("%s/%s/%s: %s (%s)", lang, lib.ID, way, lc.NotOfferedMark, why))
				}
			}
		}
	}
	return cells, notOffered
}
