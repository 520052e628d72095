package linecost

import (
	"fmt"
	"slices"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
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

// ImageOf names the image of a language (the API image, which holds the program).
func ImageOf(language string) string {
	switch language {
	case Python:
		return "api-python"
	case Node:
		return "api-node"
	}
	return "api"
}

// entrypoints run the measurement in place of the API.
var entrypoints = map[string][]string{
	Go:     {"/linecost"},
	Python: {"/usr/bin/python3", "/app/logbench_linecost.py"},
	Node:   {"/usr/bin/node", "/app/logbench_linecost.js"},
}

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

// LinesOf is the lines per trial of way.
func (p Params) LinesOf(way string) int64 {
	if way == lc.Fsync {
		return p.FsyncLines
	}
	return p.Lines
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
func DefaultLibraries() []string {
	var ids []string
	for _, l := range Languages {
		ids = append(ids, lc.DefaultLibrary(l).ID)
	}
	return ids
}

// AllLibraryIDs are every library's id.
func AllLibraryIDs() []string {
	var ids []string
	for _, l := range lc.Libraries {
		ids = append(ids, l.ID)
	}
	return ids
}

// Planned is the runs the parameters plan, every condition once a round: what reproduce
// sets runs_planned to, and verify holds a bundle's manifest to.
func (p Params) Planned() int { return len(p.Conditions()) * p.Rounds }

// Conditions are language x library x way, the ways a library cannot do left out (see
// NotOffered).
func (p Params) Conditions() []experiment.Condition {
	var out []experiment.Condition
	for _, lang := range p.Languages {
		for _, lib := range p.LibrariesOf(lang) {
			for _, way := range p.Ways {
				if ok, _ := lib.Offers(way, p.LineOf(lib)); ok {
					out = append(out, Cond{lang, lib.ID, way})
				}
			}
		}
	}
	return out
}

// NotOffered lists the language/library/way of the plan a library cannot do, each
// with the reason: shown in the plan and the tables, never run.
func (p Params) NotOffered() []string {
	var out []string
	for _, lang := range p.Languages {
		for _, lib := range p.LibrariesOf(lang) {
			for _, way := range p.Ways {
				if ok, why := lib.Offers(way, p.LineOf(lib)); !ok {
					out = append(out, fmt.Sprintf("%s/%s/%s: %s (%s)", lang, lib.ID, way, lc.NotOfferedMark, why))
				}
			}
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Plan is a matrix of languages x libraries x ways and the bundle it fills.
type Plan struct {
	Params Params
	bundle *Bundle
}

var _ experiment.Plan = (*Plan)(nil)

// NewPlan is a fresh plan of p.
func NewPlan(p Params) *Plan {
	b := &Bundle{Manifest: Manifest{Parameters: p}}
	b.Manifest.Experiment = Name
	return &Plan{Params: p, bundle: b}
}

// Cond is a condition of this experiment: one language, library and way.
type Cond struct{ Language, Library, Way string }

func (c Cond) String() string { return c.Language + "/" + c.Library + "/" + c.Way }

func (p *Plan) Conditions() []experiment.Condition { return p.Params.Conditions() }
func (p *Plan) Rounds() int                        { return p.Params.Rounds }
func (p *Plan) SetRounds(n int)                    { p.Params.Rounds, p.bundle.Manifest.Parameters.Rounds = n, n }
func (p *Plan) Bundle() experiment.Bundle          { return p.bundle }

// Notes are what reproduce says under the plan's size: each language/library/way of
// the matrix a library cannot do, marked not offered, with the reason.
func (p *Plan) Notes() []string { return p.Params.NotOffered() }

// LineCost is the plan's bundle as this experiment's.
func (p *Plan) LineCost() *Bundle { return p.bundle }

// Images are the API images of the languages.
func (p *Plan) Images() []string {
	var names []string
	for _, l := range p.Params.Languages {
		names = append(names, ImageOf(l))
	}
	return names
}

// Target records the platform and refuses a --volume the engine does not have.
func (p *Plan) Target(env experiment.Env) error {
	p.bundle.Manifest.Parameters.Platform = env.Platform
	p.Params.Platform = env.Platform
	if v := p.Params.Volume; v != "" {
		if env.VolumeExists == nil {
			return usagef("--volume %s: this engine cannot be asked whether the volume exists", v)
		}
		ok, err := env.VolumeExists(v)
		if err != nil {
			return err
		}
		if !ok {
			return usagef("--volume %s: no such volume on the engine (create it with docker volume create %s)", v, v)
		}
	}
	return nil
}

// Pod is one container: the language's API image running the measurement of one way,
// its document the run's result, its log files on the run's volume (or --volume).
func (p *Plan) Pod(cond experiment.Condition, runID string, images map[string]string) experiment.PodSpec {
	c := cond.(Cond)
	lang, libID, way := c.Language, c.Library, c.Way
	pr := p.Params
	result := contract.RunDir + "/linecost-" + runID + ".json" // never a stale one in a reused --volume
	lib, _ := LibraryOfRun(lang, libID)
	// Every flag is written, so the Python and Node.js programs, whose defaults are not
	// the Go program's, run with the plan's values alone.
	args := contract.LineCostArgs{Library: lib.ID, Line: pr.LineOf(lib), Ways: way, Lines: pr.LinesOf(way), Trials: pr.Trials,
		Warmup: pr.WarmupTrials, Dir: contract.RunDir, Out: result, QueueSize: pr.QueueSize, QueueFull: pr.QueueFull}.Args()
	return experiment.PodSpec{
		RunID: runID, Conductor: "linecost", MountPath: contract.RunDir, ResultPath: result, User: contract.User,
		PidsLimit: pr.PidsLimit, Volume: pr.Volume,
		Containers: []experiment.ContainerSpec{{Role: "linecost", Image: images[ImageOf(lang)], Entrypoint: entrypoints[lang], Cmd: args,
			NanoCPUs: experiment.NanoCPUs(pr.CPUs), MemoryBytes: pr.MemoryBytes}},
	}
}
