package linecost

import (
	"cmp"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/logbench/logbench/kit/experiment"
	lc "github.com/logbench/logbench/kit/incontainer/linecost"
	"github.com/logbench/logbench/kit/offline/report"
)

// DefaultParams are line-cost's parameters before any flag: every language with its
// first library, every way.
func DefaultParams() *Params {
	return &Params{Languages: slices.Clone(Languages), Libraries: DefaultLibraries(), Line: lc.LineDefault, Ways: slices.Clone(lc.Ways),
		Lines: DefaultLines, FsyncLines: DefaultFsyncLines, Trials: DefaultTrials, WarmupTrials: DefaultWarmup, RateLinesPerS: DefaultRate,
		QueueFull: lc.Block, QueueSize: lc.DefaultQueueSize, CPUs: DefaultCPUs, MemoryBytes: DefaultMemoryBytes, PidsLimit: DefaultPidsLimit}
}

// memoryFlag is the measuring container's memory limit: what the slowest language's
// runtime needs to start, at least.
var memoryFlag = experiment.SizeFlag{Name: "memory", Usage: "memory limit of the measuring container (no swap)", Least: 32 << 20}

// Bind declares line-cost's flags, each bound to the field the manifest records it in.
func (p *Params) Bind(fs *flag.FlagSet) {
	fs.Var(experiment.List(&p.Languages), "languages", "languages, comma-separated (go, python, node)")
	fs.Var(experiment.List(&p.Libraries), "libraries", "logging libraries, comma-separated, each measured in its language ("+lc.LibrariesHelp()+"); what a library cannot do is "+lc.NotOfferedMark+", marked in the tables and not run ("+lc.NotOfferedHelp()+")")
	fs.StringVar(&p.Line, "line", p.Line, lc.LineShapeHelp)
	fs.Var(experiment.List(&p.Ways), "ways", "ways, comma-separated")
	fs.Int64Var(&p.Lines, "lines", p.Lines, fmt.Sprintf("lines per trial (at least %d)", lc.MinLines))
	fs.Int64Var(&p.FsyncLines, "fsync-lines", p.FsyncLines, fmt.Sprintf("lines per trial of the fsync way (at least %d)", lc.MinLines))
	fs.IntVar(&p.Trials, "trials", p.Trials, "trials per run, kept")
	fs.IntVar(&p.WarmupTrials, "warmup-trials", p.WarmupTrials, "warm-up trials per run, discarded")
	fs.Float64Var(&p.RateLinesPerS, "line-rate", p.RateLinesPerS, "lines per second, for the share of a core a way costs your service")
	fs.StringVar(&p.QueueFull, "queue-full", p.QueueFull, "the queue way when its queue is full: block or drop")
	fs.IntVar(&p.QueueSize, "queue-size", p.QueueSize, "lines the queue way's queue holds")
	fs.StringVar(&p.Volume, "volume", p.Volume, "an existing named volume for the log files (default: a fresh one per run)")
	experiment.MeasuringCPUsFlag.Bind(fs, &p.CPUs)
	memoryFlag.Bind(fs, &p.MemoryBytes)
}

// Check refuses parameters that would measure nothing meaningful, flag or manifest
// alike; a bundle written before the library axis (Legacy) is held to what its kit
// asked.
func (p Params) Check() error {
	return experiment.FirstProblem(
		func() error { return experiment.CheckList("languages", p.Languages, Languages) },
		func() error { return experiment.CheckList("ways", p.Ways, lc.Ways) },
		func() error {
			if p.Legacy() {
				return nil
			}
			return experiment.CheckList("libraries", p.Libraries, report.Distinct(lc.Libraries, func(l lc.Library) string { return l.ID }))
		},
		func() error {
			return cmp.Or(experiment.Within("lines", p.Lines, lc.MinLines, 10_000_000, " lines per trial (fewer are too close to the clock's resolution and the cost of reading it)"),
				experiment.Within("fsync-lines", p.FsyncLines, lc.MinLines, 1_000_000, " lines per trial"),
				experiment.Within("trials", p.Trials, 2, 1000, " (an interval needs at least two)"),
				experiment.Within("warmup-trials", p.WarmupTrials, 0, 100, " warm-up trials"))
		},
		func() error {
			switch {
			case !(p.RateLinesPerS > 0 && p.RateLinesPerS <= 1e9):
				return usagef("--line-rate %v: want more than 0 lines per second", p.RateLinesPerS)
			case p.QueueFull != lc.Block && p.QueueFull != lc.Drop:
				return usagef("--queue-full %q: want %s or %s", p.QueueFull, lc.Block, lc.Drop)
			}
			return experiment.Within("queue-size", p.QueueSize, 1, 1<<20, " lines")
		},
		func() error { return experiment.MeasuringCPUsFlag.Check(p.CPUs) },
		func() error {
			// No flag sets it: an earlier kit's manifest says it, and verify draws that
			// many resamples of every condition again (those kits drew 2,000).
			if p.Resamples < 0 || p.Resamples > maxResamples {
				return usagef("bootstrap_resamples %d: want 0 to %d", p.Resamples, maxResamples)
			}
			return nil
		},
		func() error { return memoryFlag.Check(p.MemoryBytes) },
		// No flag of line-cost's sets it (DefaultPidsLimit): the kit's rule of every
		// container's process limit holds it.
		func() error { return experiment.PidsLimitFlag.Check(p.PidsLimit) },
		func() error { return experiment.CheckVolumeName("volume", p.Volume) },
		p.checkLibraries,
	)
}

// checkLibraries: the line is a shape, every language has a library of the list and
// every library is of a language, and the plan measures something.
func (p Params) checkLibraries() error {
	if p.Legacy() {
		// The kit before the library axis had no --line either: its manifests name none.
		if p.Line != "" {
			return usagef("--line %q: a manifest written before --libraries records no line", p.Line)
		}
		return nil
	}
	if !slices.Contains(lc.LineShapes, p.Line) {
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
		// The default names every language's first library, and a plan keeps those of
		// --languages (settled).
		if !slices.Contains(libs, id) && !slices.Equal(p.Libraries, DefaultLibraries()) {
			return usagef("--libraries: %s is not a library of --languages %s (%s)", id, strings.Join(p.Languages, ","), lc.LibrariesHelp())
		}
	}
	if len(p.Conditions()) == 0 {
		return usagef("--ways %s: every one is %s by --libraries %s with --line %s", strings.Join(p.Ways, ","), lc.NotOfferedMark, strings.Join(p.Libraries, ","), p.Line)
	}
	return nil
}

// settled are the parameters a plan records: the default libraries narrowed to
// --languages.
func (p *Params) settled() Params {
	s := *p
	if slices.Equal(s.Libraries, DefaultLibraries()) {
		// The default names every language's first library: keep those of --languages.
		s.Libraries = defaultLibrariesOf(s.Languages)
	}
	s.Languages, s.Ways, s.Libraries = slices.Clone(s.Languages), slices.Clone(s.Ways), slices.Clone(s.Libraries)
	return s
}

// CheckSettled refuses a manifest whose libraries are not what its plan records: the
// default narrowed to its languages (experiment.Settled).
func (p *Params) CheckSettled() error {
	if s := p.settled(); !p.Legacy() && !slices.Equal(s.Libraries, p.Libraries) {
		return usagef("libraries %s: a plan of languages %s records %s", strings.Join(p.Libraries, ","), strings.Join(p.Languages, ","), strings.Join(s.Libraries, ","))
	}
	return nil
}

// maxResamples bounds an earlier kit's bootstrap_resamples, which verify draws again: a
// manifest's 10^9 would ask for gigabytes.
const maxResamples = 10_000

// CPULimits are the measuring container's CPU limit (experiment.CPULimited).
func (p Params) CPULimits() []experiment.CPULimit {
	return []experiment.CPULimit{{Field: "parameters.cpus", CPUs: p.CPUs}}
}
