package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments"
	"github.com/logbench/logbench/kit/offline/bundle"
)

func reproduceCommand() *cli.Command {
	return &cli.Command{
		Name:  "reproduce",
		Usage: "rerun a whole published experiment and put every figure beside the published one (`logbench experiments` lists them)",
		Flags: append(append([]cli.Flag{
			&cli.StringFlag{Name: "experiment", Value: experiments.Default.Name(), Usage: "the experiment to reproduce: " + joinNames(experiments.Names())},
			&cli.IntFlag{Name: "reps", Value: 3, Usage: "rounds; each starts the matrix at another position"},
			&cli.StringFlag{Name: "resume", Usage: "continue an interrupted bundle: run only its missing runs, with its parameters"},
			&cli.StringSliceFlag{Name: "engine", Usage: "run the same matrix on this engine, a docker context's name or an address (unix://, tcp://, ssh://); repeat for several: a bundle each and their comparison"},
			&cli.BoolFlag{Name: "parallel", Usage: "with several --engine: run them at the same time (engines on different hosts)"},
		}, targetFlags()...), experimentFlags()...),
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("reproduce takes no arguments, got %q", c.Args().First())
			}
			if engines := c.StringSlice("engine"); len(engines) > 0 {
				if c.IsSet("context") {
					return usagef("--context and --engine: name every engine with --engine")
				}
				return reproduceOnEngines(c, engines)
			}
			exp, p, err := reproducePlan(c)
			if err != nil {
				return err
			}
			s, err := prepare(c, p)
			if err != nil {
				return err
			}
			out := c.App.Writer
			say(out, "reproducing %s: %d conditions x %d rounds = %d runs; bundle %s", exp.Name(), len(p.exp.Conditions()), p.exp.Rounds(), len(s.runs), s.matrix.Dir)
			if pre, ok := p.exp.(experiment.Preparer); ok && p.resumeDir == "" {
				if err := pre.Prepare(c.Context, s.engine, s.images, s.imageBuild, out); err != nil {
					if c.Context.Err() != nil {
						return interruptedError{"interrupted while preparing; nothing was measured"}
					}
					return err
				}
			}
			bar := newBar(c.App.ErrWriter, len(s.runs))
			s.matrix.Progress = io.Discard
			s.matrix.OnStart = func(i int, pr experiment.PlannedRun) {
				bar.Describe(fmt.Sprintf("run %d/%d %s round %d", i+1, len(s.runs), pr.Condition, pr.Round))
			}
			failed := 0
			s.matrix.OnRun = func(done int, line string, verified bool) {
				bar.Clear()
				if !verified {
					failed++
				}
				say(out, "%2d/%d %s", done, len(s.runs), line)
				bar.Add(1)
			}
			started := time.Now()
			runErr := s.execute(c.Context)
			bar.Finish()
			b := p.exp.Bundle()
			if b.Common().RunsCompleted > 0 {
				say(out, "")
				if err := b.Summary(out); err != nil {
					return err
				}
				if b.Common().Emulated {
					say(out, "EMULATED: these figures time the emulator, not a %s host; they are not a measurement", b.Common().Platform)
				}
				say(out, "wall time %.0f s", time.Since(started).Seconds())
			}
			say(out, "bundle: %s", s.matrix.Dir)
			if runErr != nil {
				return runErr
			}
			if failed > 0 {
				return fmt.Errorf("%d of %d runs failed; they are kept in the bundle as failed, not as data", failed, len(s.runs))
			}
			return nil
		},
	}
}

// experimentFlags are every experiment's flags of reproduce, each name once: an
// experiment that shares a name with an earlier one reads the flag as it is given.
func experimentFlags() []cli.Flag {
	var flags []cli.Flag
	seen := map[string]bool{}
	for _, e := range experiments.All {
		for _, f := range e.Flags() {
			if name := f.Names()[0]; !seen[name] {
				seen[name] = true
				flags = append(flags, f)
			}
		}
	}
	return flags
}

// reproducePlan validates the flags, or takes everything from the bundle to resume.
func reproducePlan(c *cli.Context) (experiment.Experiment, plan, error) {
	if dir := c.String("resume"); dir != "" {
		for _, f := range c.FlagNames() {
			if f != "resume" && f != "source" && c.IsSet(f) {
				return nil, plan{}, usagef("--%s: --resume takes every parameter from the bundle", f)
			}
		}
		manifest, err := os.ReadFile(dir + "/" + bundle.ManifestFile)
		if err != nil {
			return nil, plan{}, usagef("--resume %s: %v", dir, err)
		}
		name, err := bundle.ExperimentOf(manifest)
		if err != nil {
			return nil, plan{}, usagef("--resume %s: %v", dir, err)
		}
		exp, err := experiments.Lookup(name)
		if err != nil {
			return nil, plan{}, usagef("--resume %s: %v", dir, err)
		}
		p, err := exp.Resume(dir)
		if err != nil {
			return nil, plan{}, err
		}
		return exp, plan{command: "reproduce", exp: p, resumeDir: dir}, nil
	}
	exp, err := experiments.Lookup(c.String("experiment"))
	if err != nil {
		return nil, plan{}, usagef("--experiment: %v", err)
	}
	if reps := c.Int("reps"); reps < 1 || reps > 100 {
		return nil, plan{}, usagef("--reps %d: want 1 to 100", reps)
	}
	p, err := exp.Plan(c)
	if err != nil {
		return nil, plan{}, err
	}
	return exp, plan{command: "reproduce", exp: p}, nil
}

// newBar shows the matrix's progress and time left on a terminal, and nothing elsewhere.
func newBar(w io.Writer, runs int) *progressbar.ProgressBar {
	f, isFile := w.(*os.File)
	return progressbar.NewOptions(runs,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetVisibility(isFile && term.IsTerminal(int(f.Fd()))),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionShowElapsedTimeOnFinish(),
		progressbar.OptionSetWidth(30),
	)
}
