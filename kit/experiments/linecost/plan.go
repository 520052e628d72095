package linecost

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/docker/go-units"

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

// Where the images mount the run's volume, and the unprivileged uid:gid they run as.
const ()

// Defaults of the flags.
const (
	DefaultLines      = 20000
	DefaultFsyncLines = lc.MinLines
	DefaultTrials     = 5
	DefaultWarmup     = 1
	DefaultRate       = 1000
	DefaultCPUs       = 0.25
	DefaultMemory     = "128MiB"
	DefaultPidsLimit  = 128
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

// DeclareFlags declares line-cost's own parameters, each with line-cost's default.
func DeclareFlags(fs *flag.FlagSet) {
	fs.String("languages", strings.Join(Languages, ","), "languages, comma-separated (go, python, node)")
	fs.String("libraries", strings.Join(DefaultLibraries(), ","), "logging libraries, comma-separated, each measured in its language ("+lc.LibrariesHelp()+"); what a library cannot do is "+lc.NotOfferedMark+", marked in the tables and not run ("+lc.NotOfferedHelp()+")")
	fs.String("line", lc.LineDefault, lc.LineShapeHelp)
	fs.String("ways", strings.Join(lc.Ways, ","), "ways, comma-separated")
	fs.Int64("lines", DefaultLines, fmt.Sprintf("lines per trial (at least %d)", lc.MinLines))
	fs.Int64("fsync-lines", DefaultFsyncLines, fmt.Sprintf("lines per trial of the fsync way (at least %d)", lc.MinLines))
	fs.Int("trials", DefaultTrials, "trials per run, kept")
	fs.Int("warmup-trials", DefaultWarmup, "warm-up trials per run, discarded")
	fs.Float64("line-rate", DefaultRate, "lines per second, for the share of a core a way costs your service")
	fs.String("queue-full", lc.Block, "the queue way when its queue is full: block or drop")
	fs.Int("queue-size", lc.DefaultQueueSize, "lines the queue way's queue holds")
	fs.String("volume", "", "an existing named volume for the log files (default: a fresh one per run)")
	fs.Float64("cpus", DefaultCPUs, "CPU limit of the measuring container, in CPUs (0.01 to 1024; 0: no limit)")
	fs.String("memory", DefaultMemory, "memory limit of the measuring container (no swap)")
}

// ParamsFrom validates the flags, all before anything starts; rounds is reproduce's
// --reps.
func ParamsFrom(c *experiment.Flags, rounds int) (Params, error) {
	p := Params{Rounds: rounds, Lines: c.Int64("lines"), FsyncLines: c.Int64("fsync-lines"),
		Trials: c.Int("trials"), WarmupTrials: c.Int("warmup-trials"), RateLinesPerS: c.Float64("line-rate"),
		QueueSize: c.Int("queue-size"), QueueFull: c.String("queue-full"),
		Volume: c.String("volume"), CPUs: c.Float64("cpus"), PidsLimit: DefaultPidsLimit}
	var err error
	if p.Languages, err = pick("languages", c.String("languages"), Languages); err != nil {
		return p, err
	}
	if p.Ways, err = pick("ways", c.String("ways"), lc.Ways); err != nil {
		return p, err
	}
	if p.Libraries, err = pick("libraries", c.String("libraries"), AllLibraryIDs()); err != nil {
		return p, err
	}
	if c.String("libraries") == strings.Join(DefaultLibraries(), ",") {
		// The default names every language's first library: keep those of --languages.
		var libs []string
		for _, lang := range p.Languages {
			libs = append(libs, lc.DefaultLibrary(lang).ID)
		}
		p.Libraries = libs
	}
	p.Line = c.String("line")
	mem := c.String("memory")
	if p.MemoryBytes, err = units.RAMInBytes(mem); err != nil || p.MemoryBytes < 32<<20 {
		return p, usagef("--memory %q: want a size of at least 32MiB, such as 128MiB", mem)
	}
	return p, p.Validate()
}

// Validate refuses parameters that would measure nothing meaningful.
func (p Params) Validate() error {
	switch {
	case p.Rounds < 1 || p.Rounds > 100:
		return usagef("--reps %d: want 1 to 100", p.Rounds)
	case p.Lines < lc.MinLines || p.Lines > 10_000_000:
		return usagef("--lines %d: want %d to 10000000 lines per trial (fewer are too close to the clock's resolution and the cost of reading it)", p.Lines, lc.MinLines)
	case p.FsyncLines < lc.MinLines || p.FsyncLines > 1_000_000:
		return usagef("--fsync-lines %d: want %d to 1000000 lines per trial", p.FsyncLines, lc.MinLines)
	case p.Trials < 2 || p.Trials > 1000:
		return usagef("--trials %d: want 2 to 1000 (an interval needs at least two)", p.Trials)
	case p.WarmupTrials < 0 || p.WarmupTrials > 100:
		return usagef("--warmup-trials %d: want 0 to 100 warm-up trials", p.WarmupTrials)
	case !(p.RateLinesPerS > 0 && p.RateLinesPerS <= 1e9):
		return usagef("--line-rate %v: want more than 0 lines per second", p.RateLinesPerS)
	case p.QueueFull != lc.Block && p.QueueFull != lc.Drop:
		return usagef("--queue-full %q: want %s or %s", p.QueueFull, lc.Block, lc.Drop)
	case p.QueueSize < 1 || p.QueueSize > 1<<20:
		return usagef("--queue-size %d: want 1 to 1048576 lines", p.QueueSize)
	case p.CPUs != 0 && !(p.CPUs >= 0.01 && p.CPUs <= 1024):
		return usagef("--cpus %v: want 0 (no limit) or 0.01 to 1024 CPUs", p.CPUs)
	case strings.ContainsAny(p.Volume, "/:, ") || strings.HasPrefix(p.Volume, "-"):
		return usagef("--volume %q: want the name of a named volume (docker volume ls)", p.Volume)
	}
	if p.Legacy() {
		return nil
	}
	if !contains(lc.LineShapes, p.Line) {
		return usagef("--line %q: want one of %s", p.Line, strings.Join(lc.LineShapes, ", "))
	}
	var libs []string
	for _, lang := range p.Languages {
		ls := p.LibrariesOf(lang)
		if len(ls) == 0 {
			return usagef("--libraries %s: none of %s's (%s)", strings.Join(p.Libraries, ","), lang, strings.Join(lc.LibraryIDs(lang), ", "))
		}
		for _, l := range ls {
			libs = append(libs, l.ID)
		}
	}
	for _, id := range p.Libraries {
		if !contains(libs, id) {
			return usagef("--libraries: %s is not a library of --languages %s (%s)", id, strings.Join(p.Languages, ","), lc.LibrariesHelp())
		}
	}
	if len(p.Conditions()) == 0 {
		return usagef("--ways %s: every one is %s by --libraries %s with --line %s", strings.Join(p.Ways, ","), lc.NotOfferedMark, strings.Join(p.Libraries, ","), p.Line)
	}
	return nil
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

// pick parses a comma-separated list against known values.
func pick(flag, s string, known []string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		switch {
		case f == "":
		case !contains(known, f):
			return nil, usagef("--%s: unknown %q (known: %s)", flag, f, strings.Join(known, ", "))
		case !contains(out, f):
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return nil, usagef("--%s: none given", flag)
	}
	return out, nil
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
