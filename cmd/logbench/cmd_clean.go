package main

import (
	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/host/engine"
)

func cleanCommand() *cli.Command {
	return &cli.Command{
		Name: "clean",
		Usage: "remove the stopped containers and unused volumes that earlier, crashed invocations of the kit left on the engine: those carrying " +
			engine.Label + " and the kit's mark made with this host's key (" + engine.MarkLabel + "); anything else is left and named",
		Flags: []cli.Flag{contextFlag(),
			&cli.BoolFlag{Name: "force", Usage: "also stop and remove the kit's own running containers (never anything without the kit's mark)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("clean takes no arguments, got %q", c.Args().First())
			}
			eng, err := connectEngine(c)
			if err != nil {
				return err
			}
			defer eng.Close()
			sweep, err := eng.Clean(c.Context, c.Bool("force"))
			out := c.App.Writer
			for _, s := range sweep.Removed {
				say(out, "removed %s", swept(s))
			}
			for _, s := range sweep.Left {
				say(out, "left %s: %s", swept(s), s.Why)
			}
			if err == nil && !sweep.Found() {
				say(out, "nothing to remove: no container or volume carries the label %s", engine.Label)
			}
			return err
		},
	}
}

// swept names a container by its short ID and name, a volume by its name.
func swept(s engine.Swept) string {
	if s.Kind == engine.KindContainer {
		short := s.ID
		if len(short) > 12 {
			short = short[:12]
		}
		return "container " + short + " (" + s.Name + ")"
	}
	return "volume " + s.Name
}
