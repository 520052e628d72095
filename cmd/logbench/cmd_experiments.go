package main

import (
	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/experiments"
)

func experimentsCommand() *cli.Command {
	return &cli.Command{
		Name:  "experiments",
		Usage: "list the experiments reproduce knows, with what each measures and where its published figures come from",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("experiments takes no arguments, got %q", c.Args().First())
			}
			for i, e := range experiments.All {
				mark := ""
				if i == 0 {
					mark = " (default)"
				}
				say(c.App.Writer, "%s%s\n  %s\n  published: %s", e.Name(), mark, e.Summary(), e.Source())
			}
			return nil
		},
	}
}
