package linecost

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/docker/go-units"
	"github.com/urfave/cli/v2"

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
const (
	RunDir = "/run/logbench"
	User   = "65532:65532"
)

// Defaults of the flags.
const (
	DefaultLines      = 20000
	DefaultFsyncLines = lc.MinLines
	DefaultTrials     = 5
	DefaultWarmup     = 1
	DefaultRate       = 1000
	DefaultCPUs       = 0.25
	DefaultMemory     = "128MiB"
	DefaultResamples  = 2000
	DefaultPidsLimit  = 128
)

// Params are what the manifest records of a plan, and all a resumed plan needs.
type Params struct {
	Languages []string `json:"languages"`
	Ways      []string `json:"ways"`
	Rounds    int      `json:"rounds"`
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
	Resamples   int     `json:"bootstrap_resamples"`
	Platform    string  `json:"platform"`
}

// LinesOf is the lines per trial of way.
func (p Params) LinesOf(way string) int64 {
	if way == lc.Fsync {
		return p.FsyncLines
	}
	return p.Lines
}

var usagef = experiment.Usagef

// Flags are the experiment's flags of reproduce. --rate and --warmup are also
// fifo-stall's, which reproduce declares first: this experiment reads them only when
// they are set, and has its own defaults otherwise.
func Flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "languages", Usage: "line-cost: languages, comma-separated (go, python, node; default all)"},
		&cli.StringFlag{Name: "ways", Usage: "line-cost: ways, comma-separated (default all: " + strings.Join(lc.Ways, ",") + ")"},
		&cli.Int64Flag{Name: "lines", Value: DefaultLines, Usage: fmt.Sprintf("line-cost: lines per trial (at least %d)", lc.MinLines)},
		&cli.Int64Flag{Name: "fsync-lines", Value: DefaultFsyncLines, Usage: fmt.Sprintf("line-cost: lines per trial of the fsync way (at least %d)", lc.MinLines)},
		&cli.IntFlag{Name: "trials", Value: DefaultTrials, Usage: "line-cost: trials per run, kept"},
		&cli.IntFlag{Name: "warmup", Value: DefaultWarmup, Usage: "line-cost: warm-up trials per run, discarded (default 1)"},
		&cli.Float64Flag{Name: "rate", Value: DefaultRate, Usage: "line-cost: lines per second for what a way costs your service (default 1000)"},
		&cli.StringFlag{Name: "queue-full", Value: lc.Block, Usage: "line-cost: the queue way when its queue is full: block or drop"},
		&cli.IntFlag{Name: "queue-size", Value: lc.DefaultQueueSize, Usage: "line-cost: lines the queue way's queue holds"},
		&cli.StringFlag{Name: "volume", Usage: "line-cost: an existing named volume for the log files (default: a fresh one per run)"},
		&cli.Float64Flag{Name: "cpus", Value: DefaultCPUs, Usage: "line-cost: CPU limit of the measuring container (0: none)"},
		&cli.StringFlag{Name: "memory", Value: DefaultMemory, Usage: "line-cost: memory limit of the measuring container (no swap)"},
	}
}

// ParamsFrom validates the flags, all before anything starts; rounds is reproduce's
// --reps.
func ParamsFrom(c *cli.Context, rounds int) (Params, error) {
	// Another experiment may declare a flag of the same name with its own default:
	// reproduce keeps the first declaration, so a flag not given takes this one's.
	str := func(name, def string) string {
		if c.IsSet(name) {
			return c.String(name)
		}
		return def
	}
	num := func(name string, def float64) float64 {
		if c.IsSet(name) {
			return c.Float64(name)
		}
		return def
	}
	p := Params{Rounds: rounds, Lines: int64(num("lines", DefaultLines)), FsyncLines: int64(num("fsync-lines", DefaultFsyncLines)),
		Trials: int(num("trials", DefaultTrials)), WarmupTrials: int(num("warmup", DefaultWarmup)), RateLinesPerS: num("rate", DefaultRate),
		QueueSize: int(num("queue-size", lc.DefaultQueueSize)), QueueFull: str("queue-full", lc.Block),
		Volume: str("volume", ""), CPUs: num("cpus", DefaultCPUs), PidsLimit: DefaultPidsLimit, Resamples: DefaultResamples}
	var err error
	if p.Languages, err = pick("languages", str("languages", ""), Languages); err != nil {
		return p, err
	}
	if p.Ways, err = pick("ways", str("ways", ""), lc.Ways); err != nil {
		return p, err
	}
	mem := str("memory", DefaultMemory)
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
		return usagef("--warmup %d: want 0 to 100 warm-up trials", p.WarmupTrials)
	case !(p.RateLinesPerS > 0 && p.RateLinesPerS <= 1e9):
		return usagef("--rate %v: want more than 0 lines per second", p.RateLinesPerS)
	case p.QueueFull != lc.Block && p.QueueFull != lc.Drop:
		return usagef("--queue-full %q: want %s or %s", p.QueueFull, lc.Block, lc.Drop)
	case p.QueueSize < 1 || p.QueueSize > 1<<20:
		return usagef("--queue-size %d: want 1 to 1048576 lines", p.QueueSize)
	case p.CPUs != 0 && !(p.CPUs >= 0.01 && p.CPUs <= 1024):
		return usagef("--cpus %v: want 0 (no limit) or 0.01 to 1024 CPUs", p.CPUs)
	case strings.ContainsAny(p.Volume, "/:, ") || strings.HasPrefix(p.Volume, "-"):
		return usagef("--volume %q: want the name of a named volume (docker volume ls)", p.Volume)
	}
	return nil
}

// pick parses a comma-separated list against known values; empty is all of them.
func pick(flag, s string, known []string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return append([]string(nil), known...), nil
	}
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

// Plan is a matrix of languages x ways and the bundle it fills.
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

func (p *Plan) Conditions() []experiment.Condition {
	return experiment.Cross(p.Params.Languages, p.Params.Ways)
}
func (p *Plan) Rounds() int               { return p.Params.Rounds }
func (p *Plan) Bundle() experiment.Bundle { return p.bundle }

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
	lang, way := cond[0], cond[1]
	pr := p.Params
	result := RunDir + "/linecost-" + runID + ".json" // never a stale one in a reused --volume
	args := []string{"-ways", way, "-lines", strconv.FormatInt(pr.LinesOf(way), 10), "-trials", strconv.Itoa(pr.Trials),
		"-warmup", strconv.Itoa(pr.WarmupTrials), "-dir", RunDir, "-out", result,
		"-queue-size", strconv.Itoa(pr.QueueSize), "-queue-full", pr.QueueFull}
	return experiment.PodSpec{
		RunID: runID, Conductor: "linecost", MountPath: RunDir, ResultPath: result, User: User,
		PidsLimit: pr.PidsLimit, Volume: pr.Volume,
		Containers: []experiment.ContainerSpec{{Role: "linecost", Image: images[ImageOf(lang)], Entrypoint: entrypoints[lang], Cmd: args,
			NanoCPUs: int64(pr.CPUs*1e9 + 0.5), MemoryBytes: pr.MemoryBytes}},
	}
}
