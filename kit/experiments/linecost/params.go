package linecost

import (
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

// flags are line-cost's flags, each bound to the field the manifest records it in, with
// its rule, in the usage's order; a bundle written before the library axis (Legacy) is
// held to what its kit asked.
func (p *Params) flags() experiment.Flags {
	return experiment.Flags{
		experiment.NamesFlag(&p.Languages, "languages", Languages, "languages, comma-separated (go, python, node)"),
		{Bind: func(fs *flag.FlagSet) {
			fs.Var(experiment.List(&p.Libraries), "libraries", "logging libraries, comma-separated, each measured in its language ("+lc.LibrariesHelp()+"); what a library cannot do is "+lc.NotOfferedMark+", marked in the tables and not run ("+lc.NotOfferedHelp()+")")
		}, Check: func() error {
			if p.Legacy() {
				return nil
			}
			return experiment.CheckList("libraries", p.Libraries, report.Distinct(lc.Libraries, func(l lc.Library) string { return l.ID }))
		}},
		experiment.StringFlag(&p.Line, "line", lc.LineShapeHelp, p.checkLine),
		experiment.NamesFlag(&p.Ways, "ways", lc.Ways, "ways, comma-separated"),
		experiment.IntFlagSaying(&p.Lines, "lines", lc.MinLines, 10_000_000, " lines per trial (fewer are too close to the clock's resolution and the cost of reading it)", fmt.Sprintf("lines per trial (at least %d)", lc.MinLines)),
		experiment.IntFlagSaying(&p.FsyncLines, "fsync-lines", lc.MinLines, 1_000_000, " lines per trial", fmt.Sprintf("lines per trial of the fsync way (at least %d)", lc.MinLines)),
		experiment.IntFlagSaying(&p.Trials, "trials", 2, 1000, " (an interval needs at least two)", "trials per run, kept"),
		experiment.IntFlagSaying(&p.WarmupTrials, "warmup-trials", 0, 100, " warm-up trials", "warm-up trials per run, discarded"),
		{Bind: func(fs *flag.FlagSet) {
			fs.Float64Var(&p.RateLinesPerS, "line-rate", p.RateLinesPerS, "lines per second, for the share of a core a way costs your service")
		}, Check: func() error {
			return experiment.UsageIf(!(p.RateLinesPerS > 0 && p.RateLinesPerS <= 1e9), "--line-rate %v: want more than 0 lines per second", p.RateLinesPerS)
		}},
		experiment.StringFlag(&p.QueueFull, "queue-full", "the queue way when its queue is full: block or drop", func() error {
			return experiment.UsageIf(p.QueueFull != lc.Block && p.QueueFull != lc.Drop, "--queue-full %q: want %s or %s", p.QueueFull, lc.Block, lc.Drop)
		}),
		experiment.IntFlagSaying(&p.QueueSize, "queue-size", 1, 1<<20, " lines", "lines the queue way's queue holds"),
		experiment.StringFlag(&p.Volume, "volume", "an existing named volume for the log files (default: a fresh one per run)", func() error {
			return experiment.CheckVolumeName("volume", p.Volume)
		}),
		experiment.MeasuringCPUsFlag.Of(&p.CPUs),
		memoryFlag.Of(&p.MemoryBytes),
		// No flag of line-cost's sets it (DefaultPidsLimit): the kit's rule of every
		// container's process limit holds it.
		experiment.Rule(func() error { return experiment.PidsLimitFlag.Check(p.PidsLimit) }),
		experiment.Rule(func() error {
			// No flag sets it: an earlier kit's manifest says it, and verify draws that
			// many resamples of every condition again (those kits drew 2,000).
			return experiment.UsageIf(p.Resamples < 0 || p.Resamples > maxResamples, "bootstrap_resamples %d: want 0 to %d", p.Resamples, maxResamples)
		}),
		// Libraries against languages, ways and line: after each of those flags' own rule.
		experiment.Rule(p.checkLibraries),
	}
}

// Bind declares line-cost's flags.
func (p *Params) Bind(fs *flag.FlagSet) { p.flags().Bind(fs) }

// Check refuses parameters that would measure nothing meaningful, flag or manifest
// alike, in the order of the flags' usage.
func (p Params) Check() error { return p.flags().Check() }

// checkLine: the line is a shape; the kit before the library axis had no --line either,
// and its manifests name none.
func (p *Params) checkLine() error {
	if p.Legacy() {
		return experiment.UsageIf(p.Line != "", "--line %q: a manifest written before --libraries records no line", p.Line)
	}
	return experiment.UsageIf(!slices.Contains(lc.LineShapes, p.Line), "--line %q: want one of %s", p.Line, strings.Join(lc.LineShapes, ", "))
}

// checkLibraries: every language has a library of the list and every library is of a
// language, and the plan measures something.
func (p *Params) checkLibraries() error {
	if p.Legacy() {
		return nil
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
