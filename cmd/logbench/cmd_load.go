package main

import (
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/host/images"
)

func loadCommand() *cli.Command {
	return &cli.Command{
		Name:      "load",
		Usage:     "load images written by `logbench build --save` into the engine (a host with no network); the engine's own platform gets the :local names",
		ArgsUsage: "IMAGES.tar",
		Flags:     []cli.Flag{contextFlag()},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("load takes one file, written by `logbench build --save`")
			}
			path := c.Args().First()
			f, err := os.Open(path)
			if err != nil {
				return usagef("load: %v", err)
			}
			defer f.Close()
			eng, err := connectEngine(c)
			if err != nil {
				return err
			}
			defer eng.Close()
			facts, err := eng.Facts(c.Context)
			if err != nil {
				return err
			}
			loaded, err := eng.LoadImages(c.Context, f)
			if err != nil {
				return err
			}
			out := c.App.Writer
			for _, ref := range loaded {
				say(out, "loaded %s", ref)
				// logbench/<role>:local-<arch> of this engine's platform is also the
				// role's :local, the name compose/ runs.
				for _, role := range images.Roles {
					if ref == images.PlatformTag(role, facts.Platform) {
						if err := eng.Tag(c.Context, ref, images.LocalTag(role)); err != nil {
							return err
						}
						say(out, "tagged %s", images.LocalTag(role))
					}
				}
			}
			if len(loaded) == 0 {
				return usagef("load %s: the engine loaded no image from it", path)
			}
			say(out, "%d images from %s on %s (%s)", len(loaded), path, facts.Host, strings.TrimSpace(facts.Platform))
			return nil
		},
	}
}
