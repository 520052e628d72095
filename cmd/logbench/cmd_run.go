package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments"
)

// runCommand performs one run of one condition: `run NAME [flags]`, each experiment a
// subcommand with its own flags; `run [flags]` alone is the first experiment's.
func runCommand() *cli.Command {
	cmd := runExperiment(experiments.Default)
	cmd.Name = "run"
	cmd.Usage = "perform one run of one condition of an experiment (default " + experiments.Default.Info().Name + ": one logging mode with one reader), and write a bundle"
	cmd.ArgsUsage = "[EXPERIMENT] [flags]"
	cmd.Description = "EXPERIMENT is one of " + joinNames(experiments.Names()) + " (default " + experiments.Default.Info().Name +
		"); each has its own flags: `logbench run EXPERIMENT --help`. `--experiment NAME` is the same as naming it first."
	for _, e := range experiments.All {
		cmd.Subcommands = append(cmd.Subcommands, runExperiment(e))
	}
	return cmd
}

// runExperiment is `run NAME`: the experiment's flags for one run, and the target's.
func runExperiment(exp experiment.Experiment) *cli.Command {
	usage := "one run of one condition: reproduce's flags, narrowed to one condition"
	if _, ok := exp.(experiment.SingleRunner); ok {
		usage = "one run of one condition"
	}
	return &cli.Command{
		Name:         exp.Info().Name,
		Usage:        usage,
		Flags:        append(cliFlags(experiment.FlagSet(exp.Info().Name, singleRunParams(exp))), targetFlags()...),
		OnUsageError: onUsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				if _, err := experiments.Lookup(c.Args().First()); err != nil && c.Command.Name == "run" && mistyped(c.Args().First()) {
					return usagef("%s: %v", strings.TrimPrefix(c.Command.HelpName, "logbench "), err)
				}
				return usagef("%s takes no arguments, got %q (an experiment is named first: logbench run NAME [flags]; known: %s)", strings.TrimPrefix(c.Command.HelpName, "logbench "), c.Args().First(), joinNames(experiments.Names()))
			}
			params := singleRunParams(exp)
			if err := parseFlags(c, experiment.FlagSet(exp.Info().Name, params)); err != nil {
				return err
			}
			p, err := planSingleRun(exp, params)
			if err != nil {
				return err
			}
			return runOne(c, exp, p)
		},
	}
}

// singleRunParams are run's parameters of exp, at their defaults: its own for one
// run, or reproduce's.
func singleRunParams(exp experiment.Experiment) experiment.Params {
	if s, ok := exp.(experiment.SingleRunner); ok {
		return s.SingleRunParams()
	}
	return exp.Params()
}

// planSingleRun validates the flags into a plan of one condition and one round: the
// experiment's own, or reproduce's plan of one round when its flags name one condition.
func planSingleRun(exp experiment.Experiment, params experiment.Params) (experiment.Plan, error) {
	if s, ok := exp.(experiment.SingleRunner); ok {
		return s.PlanSingleRun(params)
	}
	p, err := exp.Plan(params, 1)
	if err != nil {
		return nil, err
	}
	if _, grows := p.(experiment.Grower); grows {
		return nil, usagef("run performs one run, and these flags give %s a plan that grows by its results (a search): use `logbench reproduce %s`", exp.Info().Name, exp.Info().Name)
	}
	if conds := p.Conditions(); len(conds) != 1 {
		names := make([]string, len(conds))
		for i, c := range conds {
			names[i] = c.String()
		}
		if len(names) > 6 {
			names = append(names[:5], fmt.Sprintf("… %d more", len(conds)-5))
		}
		return nil, usagef("run performs one condition, and these flags give %s %d (%s): narrow them to one (`logbench run %s --help` lists the flags)",
			exp.Info().Name, len(conds), strings.Join(names, ", "), exp.Info().Name)
	}
	return p, nil
}

// runOne performs p's one run and says what it measured: the plan's own account of a
// run if it has one (experiment.RunReporter), else the progress line and the bundle's
// summary.
func runOne(c *cli.Context, exp experiment.Experiment, p experiment.Plan) error {
	s, err := prepare(c, plan{command: "run", exp: p})
	if err != nil {
		return err
	}
	out := c.App.Writer
	reporter, detailed := p.(experiment.RunReporter)
	if detailed {
		say(out, "%s", reporter.RunHeader())
	} else {
		say(out, "run %s of %s", p.Conditions()[0], exp.Info().Name)
	}
	sayNotes(out, p)
	var line string
	verified := false
	s.Matrix.OnRun = func(_ int, l string, v bool) { line, verified = l, v }
	err = s.Run(c.Context)
	s.Target.Engine.Close()
	if err != nil {
		return err
	}
	failure := line
	if detailed {
		failure = reporter.ReportRun(out)
	} else {
		say(out, "%s", line)
		say(out, "")
		if err := p.Bundle().Summary(out); err != nil {
			return err
		}
	}
	if common := p.Bundle().Common(); common.Emulated {
		say(out, "EMULATED: %s under emulation on a %s engine; these figures time the emulator and are not a measurement", common.Platform, common.Engine.Platform)
	}
	say(out, "bundle: %s", s.Matrix.Dir)
	if !verified {
		return errors.New("run failed: " + failure)
	}
	return nil
}
