package main

import (
	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/experiments/fifostall"
)

func buildCommand() *cli.Command {
	return &cli.Command{
		Name:  "build",
		Usage: "build the images for --platform (default: the engine's), reusing unchanged ones",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "platform", Usage: "image platform, linux/amd64 or linux/arm64"},
			&cli.StringFlag{Name: "api", Value: "go", Usage: "API images to build as well: go, python or all"},
			&cli.StringFlag{Name: "source", Usage: "the kit's source tree (default: found from the working directory)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("build takes no arguments, got %q", c.Args().First())
			}
			apis, err := fifostall.ParseAPIs(c.String("api"))
			if err != nil {
				return usagef("--api: %v", err)
			}
			var names []string
			for _, api := range apis {
				names = append(names, fifostall.ImageOf(api))
			}
			t, err := connect(c)
			if err != nil {
				return err
			}
			defer t.engine.Close()
			_, _, err = t.buildImages(c, names)
			return err
		},
	}
}
