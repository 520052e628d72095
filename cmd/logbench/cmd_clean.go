package main

import (
	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/host/engine"
)

func cleanCommand() *cli.Command {
	return &cli.Command{
		Name:  "clean",
		Usage: "remove the containers and volumes that earlier, crashed invocations left on the engine (found by label)",
		Flags: []cli.Flag{contextFlag()},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("clean takes no arguments, got %q", c.Args().First())
			}
			eng, err := connectEngine(c)
			if err != nil {
				return err
			}
			defer eng.Close()
			gone, err := eng.RemoveLabelled(c.Context, "")
			out := c.App.Writer
			for _, id := range gone.Containers {
				say(out, "removed container %.12s", id)
			}
			for _, name := range gone.Volumes {
				say(out, "removed volume %s", name)
			}
			if err == nil && gone.Empty() {
				say(out, "nothing to remove: no container or volume carries the label %s", engine.Label)
			}
			return err
		},
	}
}
