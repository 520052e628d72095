package main

import (
	"io"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments"
	"github.com/logbench/logbench/kit/offline/compare"
)

// calibrateCommand measures an experiment's instrument: `calibrate NAME [flags]` for
// each experiment that has one (experiment.Calibrator); `calibrate [flags]` alone is
// the first such experiment's.
func calibrateCommand() *cli.Command {
	var calibrators []experiment.Experiment
	for _, e := range experiments.All {
		if _, ok := e.(experiment.Calibrator); ok {
			calibrators = append(calibrators, e)
		}
	}
	names := make([]string, len(calibrators))
	for i, e := range calibrators {
		names[i] = e.Info().Name
	}
	if len(calibrators) == 0 {
		return &cli.Command{Name: "calibrate", Usage: "measure an experiment's instrument (none of the experiments has one)",
			Action: func(*cli.Context) error { return usagef("no experiment has an instrument to calibrate") }}
	}
	cmd := calibrateExperiment(calibrators[0], names)
	cmd.Name = "calibrate"
	cmd.Usage = "measure an experiment's instrument on this engine, inside the same limits (" + calibrators[0].Info().Name + ": send lag, timers, reader pacing, pipe, overhead, capacity)"
	cmd.ArgsUsage = "[EXPERIMENT] [flags]"
	cmd.Description = "EXPERIMENT is one of " + joinNames(names) + " (default " + names[0] + "), the experiments that have an instrument to calibrate. `--experiment NAME` is the same as naming it first."
	for _, e := range calibrators {
		cmd.Subcommands = append(cmd.Subcommands, calibrateExperiment(e, names))
	}
	return cmd
}

// calibrateExperiment is `calibrate NAME`: the experiment's calibration flags, and the
// target's but --out and --speed-probe (calibration writes no bundle).
func calibrateExperiment(exp experiment.Experiment, calibrators []string) *cli.Command {
	cal := exp.(experiment.Calibrator)

	return &cli.Command{
		Name:  exp.Info().Name,
		Usage: "measure " + exp.Info().Name + "'s instrument on this engine",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text, csv, json or markdown"},
		}, append(cliFlags(experiment.FlagSet(exp.Info().Name, cal.CalibrationParams())), without(targetFlags(), "out", "speed-probe")...)...),
		OnUsageError: onUsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				if other, err := experiments.Lookup(c.Args().First()); err == nil {
					return usagef("calibrate: %s has no instrument to calibrate (those that have: %s)", other.Info().Name, joinNames(calibrators))
				}
				if _, err := experiments.Lookup(c.Args().First()); err != nil && c.Command.Name == "calibrate" && mistyped(c.Args().First()) {
					return usagef("calibrate: %v", err)
				}
				return usagef("calibrate takes no arguments, got %q", c.Args().First())
			}
			format := c.String("format")
			if err := (compare.Table{}).Write(io.Discard, format); err != nil {
				return usagef("--format: %v", err)
			}
			params := cal.CalibrationParams()
			if err := parseFlags(c, experiment.FlagSet(exp.Info().Name, params)); err != nil {
				return err
			}
			measurement, err := cal.PlanCalibration(params)
			if err != nil {
				return err
			}
			t, err := connect(c)
			if err != nil {
				return err
			}
			defer t.Target.Engine.Close()
			if err := t.CheckPlatform(c.Bool("emulated")); err != nil {
				return err
			}
			start := time.Now()
			ids, _, err := t.BuildImages(c.Context, measurement.Images())
			if err != nil {
				return err
			}
			figures, err := measurement.Measure(c.Context, t.Target.Engine, ids, time.Since(start), c.App.Writer)
			if err != nil {
				return err
			}
			return writeCalibration(c.App.Writer, format, exp.Info().Name, figures)
		},
	}
}

// writeCalibration prints an instrument's figures: a table, or in JSON one document
// (CalibrateJSON).
func writeCalibration(w io.Writer, format, name string, figures []experiment.Figure) error {
	if format == "json" {
		doc := CalibrateJSON{Schema: schemaOf("calibrate"), Experiment: name, Figures: []CalibrateFigure{}}
		for _, f := range figures {
			doc.Figures = append(doc.Figures, CalibrateFigure{f.Name, f.Value, f.What})
		}
		return writeJSON(w, doc)
	}
	table := compare.Table{Header: []string{"figure", "value", "what"}}
	for _, f := range figures {
		table.Rows = append(table.Rows, []string{f.Name, f.Value, f.What})
	}
	return table.Write(w, format)
}
