package main

import (
	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments"
)

func experimentsCommand() *cli.Command {
	return &cli.Command{
		Name:  "experiments",
		Usage: "list the experiments reproduce knows, with what each measures and where its published figures come from",
		Flags: []cli.Flag{&cli.StringFlag{Name: "format", Value: "text", Usage: formatUsage}},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("experiments takes no arguments, got %q", c.Args().First())
			}
			format, err := outputFormat(c.String("format"))
			if err != nil {
				return err
			}
			doc := ExperimentsJSON{Schema: schemaOf("experiments"), Experiments: []ExperimentJSON{}}
			for i, e := range experiments.All {
				_, calibrates := e.(experiment.Calibrator)
				info := e.Info()
				doc.Experiments = append(doc.Experiments, ExperimentJSON{Experiment: info.Name, Default: i == 0, Summary: info.Summary, Published: info.Source, Calibrate: calibrates})
			}
			if format == "json" {
				return writeJSON(c.App.Writer, doc)
			}
			for _, e := range doc.Experiments {
				mark := ""
				if e.Default {
					mark = " (default)"
				}
				say(c.App.Writer, "%s%s\n  %s\n  published: %s", e.Experiment, mark, e.Summary, e.Published)
			}
			return nil
		},
	}
}
