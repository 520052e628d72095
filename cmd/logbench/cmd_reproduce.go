package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments"
	"github.com/logbench/logbench/kit/host/kube"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/precision"
	"github.com/logbench/logbench/kit/offline/regular"
)

// reproduceCommand reproduces one experiment: `reproduce NAME [flags]`, each experiment
// a subcommand with its own flags; `reproduce [flags]` alone is the first experiment's.
func reproduceCommand() *cli.Command {
	cmd := reproduceExperiment(experiments.Default)
	cmd.Name = "reproduce"
	cmd.Usage = "rerun a whole published experiment and put every figure beside the published one"
	cmd.ArgsUsage = "[EXPERIMENT] [flags]"
	cmd.Description = "EXPERIMENT is one of " + joinNames(experiments.Names()) + " (default " + experiments.Default.Info().Name +
		"); each has its own flags and defaults: `logbench reproduce EXPERIMENT --help`. `--experiment NAME` is the same as naming it first."
	for _, e := range experiments.All {
		cmd.Subcommands = append(cmd.Subcommands, reproduceExperiment(e))
	}
	return cmd
}

// reproduceExperiment is `reproduce NAME`: the matrix's flags and the experiment's own.
func reproduceExperiment(exp experiment.Experiment) *cli.Command {
	return &cli.Command{
		Name:  exp.Info().Name,
		Usage: exp.Info().Summary,
		Flags: append(categorized("EXPERIMENT'S OWN", cliFlags(experiment.FlagSet(exp.Info().Name, exp.Params()))), categorized("MATRIX AND ENGINE", append([]cli.Flag{
			&cli.IntFlag{Name: "reps", Value: 3, Usage: "rounds; each starts the matrix at another position (with --precision, the fewest; with --capacity, the searches of each configuration, 1 unless given)"},
			&cli.StringFlag{Name: "precision", Usage: "add rounds until every headline figure's 95% interval is within this share of its value, such as 2%"},
			&cli.IntFlag{Name: "max-reps", Value: experiment.DefaultMaxRounds, Usage: "with --precision: the most rounds"},
			&cli.StringFlag{Name: "resume", Usage: "continue an interrupted bundle: run only its missing runs, with its parameters"},
			&cli.StringSliceFlag{Name: "engine", Usage: "run the same matrix on this engine, a docker context's name, an address (unix://, tcp://, ssh://) or k8s:CONTEXT (a kubeconfig context: Pods on each of its nodes); repeat for several: a bundle each and their comparison"},
			&cli.BoolFlag{Name: "parallel", Usage: "with several --engine: run them at the same time (engines on different hosts; the nodes of a cluster run at once unless --parallel=false)"},
		}, append(kubeFlags(), targetFlags()...)...))...),
		OnUsageError: onUsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				if _, err := experiments.Lookup(c.Args().First()); err != nil {
					return usagef("reproduce: %v", err)
				}
				return usagef("reproduce %s takes no arguments, got %q (an experiment is named first: logbench reproduce NAME [flags])", exp.Info().Name, c.Args().First())
			}
			engines := c.StringSlice("engine")
			if c.IsSet("registry") {
				// A resumed cluster bundle names its cluster itself (prepare refuses
				// --registry for any other bundle).
				if c.String("resume") == "" && !slices.ContainsFunc(engines, func(e string) bool { return strings.HasPrefix(e, kube.Prefix) }) {
					return usagef("--registry is for --engine k8s:CONTEXT, whose nodes pull the images; a Docker Engine runs the images it built")
				}
				if _, err := kube.ParseRegistry(c.String("registry")); err != nil {
					return usagef("%v", err)
				}
			}
			if len(engines) > 0 {
				if c.IsSet("context") {
					return usagef("--context and --engine: name every engine with --engine")
				}
				return reproduceOnEngines(c, exp, engines)
			}
			return reproduceOne(c, exp)
		},
	}
}

// reproduceOne runs exp's matrix on one engine.
func reproduceOne(c *cli.Context, exp experiment.Experiment) error {
	exp, p, err := reproducePlan(c, exp)
	if err != nil {
		return err
	}
	s, err := prepare(c, p)
	if err != nil {
		return err
	}
	out := c.App.Writer
	conds := len(p.exp.Conditions())
	if g, grows := p.exp.(experiment.Grower); grows {
		say(out, "reproducing %s: %d conditions to start, each followed by the next its run calls for, at most %d runs; bundle %s", exp.Info().Name, conds, g.MostRuns(), s.Matrix.Dir)
	} else if rec := p.exp.Bundle().Common().Precision; rec != nil {
		say(out, "reproducing %s: %d conditions x %d to %d rounds, until every headline figure's 95%% interval is within ±%s of it: %d to %d runs; bundle %s",
			exp.Info().Name, conds, rec.MinRounds, rec.MaxRounds, precision.Percent(rec.Target), conds*rec.MinRounds, conds*rec.MaxRounds, s.Matrix.Dir)
	} else {
		say(out, "reproducing %s: %d conditions x %d rounds = %d runs; bundle %s", exp.Info().Name, conds, p.exp.Rounds(), len(s.Runs), s.Matrix.Dir)
	}
	sayNotes(out, p.exp)
	bar := newBar(c.App.ErrWriter, len(s.Runs))
	s.OnRound = func(rec bundle.Precision) {
		bar.Clear()
		say(out, "%s", precision.Line(&rec))
		bar.ChangeMax(len(s.Runs))
	}
	s.OnGrow = func([]experiment.Condition) { bar.ChangeMax(len(s.Runs)) }
	started := time.Now()
	outcome, runErr := s.Reproduce(c.Context,
		func(i int, pr experiment.PlannedRun) {
			bar.Describe(fmt.Sprintf("run %d/%d %s round %d", i+1, len(s.Runs), pr.Condition, pr.Round))
		},
		func(done int, line string, verified bool) {
			bar.Clear()
			say(out, "%2d/%d %s", done, len(s.Runs), line)
			bar.Add(1)
		})
	bar.Finish()
	s.Target.Engine.Close()
	if p.exp.Bundle().Common().RunsCompleted > 0 {
		say(out, "wall time %.0f s", time.Since(started).Seconds())
	}
	say(out, "bundle: %s", s.Matrix.Dir)
	if runErr != nil {
		return runErr
	}
	if _, grows := p.exp.(experiment.Grower); grows && outcome.Failed > 0 {
		// A search's failed run is a step its plan judged failed: an outcome, not a fault.
		say(out, "%d of %d runs failed; they are kept in the bundle as failed, not as data, and their steps judged failed", outcome.Failed, outcome.Runs)
		return nil
	}
	if outcome.Failed > 0 {
		return fmt.Errorf("%d of %d runs failed; they are kept in the bundle as failed, not as data", outcome.Failed, outcome.Runs)
	}
	return nil
}

// reproducePlan validates exp's flags, or takes everything from the bundle to resume
// (whose own experiment it is).
func reproducePlan(c *cli.Context, exp experiment.Experiment) (experiment.Experiment, plan, error) {
	if dir := c.String("resume"); dir != "" {
		// Read as verify reads a bundle folder's files: a FIFO, a device or a link in
		// its place is refused without being opened for reading.
		manifest, err := regular.ReadFile(filepath.Join(dir, bundle.ManifestFile), bundle.MaxFileBytes(bundle.ManifestFile), regular.NoLinks)
		if err != nil {
			return nil, plan{}, usagef("--resume %s: %v", dir, err)
		}
		name, err := bundle.ExperimentOf(manifest)
		if err != nil {
			return nil, plan{}, usagef("--resume %s: %v", dir, err)
		}
		if exp, err = experiments.Lookup(name); err != nil {
			return nil, plan{}, usagef("--resume %s: %v", dir, err)
		}
		p, err := exp.Resume(dir)
		if err != nil {
			return nil, plan{}, err
		}
		// Every parameter comes from the bundle, but what only the command line grants
		// (a Consenter's flags) must be asked for again, as the bundle recorded it.
		consenter, asks := p.(experiment.Consenter)
		var consent []string
		if asks {
			consent = consenter.ConsentFlags()
		}
		for _, f := range c.FlagNames() {
			if f != "resume" && f != "source" && f != "registry" && !slices.Contains(consent, f) && c.IsSet(f) {
				return nil, plan{}, usagef("--%s: --resume takes every parameter from the bundle", f)
			}
		}
		if asks {
			asked := exp.Params()
			if err := parseFlags(c, experiment.FlagSet(exp.Info().Name, asked)); err != nil {
				return nil, plan{}, err
			}
			if err := consenter.Consent(asked); err != nil {
				return nil, plan{}, usagef("reproduce %s --resume %s: %v", exp.Info().Name, dir, err)
			}
		}
		return exp, plan{command: "reproduce", exp: p, resumeDir: dir, offline: exp}, nil
	}
	reps := c.Int("reps")
	if err := experiment.CheckRounds(reps); err != nil {
		return nil, plan{}, err
	}
	var rec *bundle.Precision
	switch {
	case c.IsSet("precision"):
		var err error
		if rec, err = experiment.NewPrecision(c.String("precision"), reps, c.Int("max-reps")); err != nil {
			return nil, plan{}, err
		}
	case c.IsSet("max-reps"):
		return nil, plan{}, usagef("--max-reps: the most rounds of --precision, which is not given")
	}
	params := exp.Params()
	if err := parseFlags(c, experiment.FlagSet(exp.Info().Name, params)); err != nil {
		return nil, plan{}, err
	}
	p, err := exp.Plan(params, reps)
	if err != nil {
		return nil, plan{}, err
	}
	if _, grows := p.(experiment.Grower); grows {
		// Its conditions follow from its runs, one run each (a search's steps), and --reps
		// is how often each is searched: once unless given.
		_, ownRounds := p.(experiment.RoundGrower)
		switch {
		case rec != nil && !ownRounds:
			return nil, plan{}, usagef("--precision: %s's plan grows by its results, not by rounds", exp.Info().Name)
		case rec == nil && !c.IsSet("reps") && reps != 1:
			if p, err = exp.Plan(params, 1); err != nil {
				return nil, plan{}, err
			}
		}
	}
	return exp, plan{command: "reproduce", exp: p, precision: rec, offline: exp}, nil
}

// experimentCommands are the commands with a subcommand per experiment, each with the
// experiment's own flags.
var experimentCommands = []string{"reproduce", "run", "calibrate"}

// experimentAsFirstArgument turns `reproduce ... --experiment NAME ...` into
// `reproduce NAME ...`, the form the command line parses (and so for run and
// calibrate): --experiment is kept for those who learnt it before every experiment had
// its own flags.
func experimentAsFirstArgument(args []string) []string {
	at := slices.IndexFunc(args, func(a string) bool { return slices.Contains(experimentCommands, a) })
	if at < 0 {
		return args
	}
	rest := args[at+1:]
	for i, a := range rest {
		if a == "--" {
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "experiment" {
			continue
		}
		cut := 1
		if !hasValue {
			if i+1 >= len(rest) {
				return args // cli names the missing value
			}
			value, cut = rest[i+1], 2
		}
		out := append(slices.Clone(args[:at+1]), value)
		out = append(out, rest[:i]...)
		return append(out, rest[i+cut:]...)
	}
	return args
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

// sayNotes writes what a plan says under its size (line-cost: the ways a library does
// not offer, left out), when it has something to say.
func sayNotes(out io.Writer, p experiment.Plan) {
	if n, ok := p.(experiment.Noter); ok {
		for _, note := range n.Notes() {
			say(out, "  %s", note)
		}
	}
}
