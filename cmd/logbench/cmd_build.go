package main

import (
	"os"
	"time"

	"github.com/docker/go-units"
	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments"
	"github.com/logbench/logbench/kit/host/debian"
	"github.com/logbench/logbench/kit/host/images"
	"github.com/logbench/logbench/kit/offline/bundle"
)

func buildCommand() *cli.Command {
	return &cli.Command{
		Name:  "build",
		Usage: "build the images for --platform (default: the engine's), reusing unchanged ones",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "platform", Usage: "image platform, linux/amd64 or linux/arm64"},
			&cli.StringFlag{Name: "experiment", Usage: "build every image this experiment's runs need: " + joinNames(experiments.Names()) + " (default: only the Go images every build makes, or with --api " + experiments.Default.Info().Name + "'s)"},
			&cli.StringFlag{Name: "api", Usage: "only this API's images of the experiment (go, python, node; all: every one)"},
			&cli.StringFlag{Name: "source", Usage: "the kit's source tree (default: found from the working directory)"},
			&cli.StringFlag{Name: "save", Usage: "also write the images to this tar (the engine's image export), for `logbench load` on a host with no network"},
			contextFlag(), mirrorFlag(), snapshotFlag(),
			&cli.StringFlag{Name: "max-release-age", Usage: "how old the Debian Release the bases are built from may be, in days (30d) or as a duration (default: 14d; the bookworm Release the kit knows is accepted at any age, and --snapshot is held to its own time instead)"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("build takes no arguments, got %q", c.Args().First())
			}
			names, err := imagesToBuild(c)
			if err != nil {
				return err
			}
			var maxReleaseAge time.Duration
			if c.IsSet("max-release-age") {
				if maxReleaseAge, err = debian.ParseAge(c.String("max-release-age")); err != nil {
					return usagef("--max-release-age: %v", err)
				}
			}
			save := c.String("save")
			if save != "" {
				if _, err := os.Stat(save); err == nil {
					return usagef("--save %s: already exists; choose a new file", save)
				}
			}
			t, err := connect(c)
			if err != nil {
				return err
			}
			defer t.Target.Engine.Close()
			if plans, ok := t.Target.Images.(images.ForPlans); ok && maxReleaseAge > 0 {
				plans.Bases.MaxReleaseAge = maxReleaseAge
				t.Target.Images = plans
			}
			_, imgs, err := t.BuildImages(c.Context, names)
			if err != nil || save == "" {
				return err
			}
			return t.saveImages(c, imgs, save)
		},
	}
}

// imagesToBuild names the images build makes beside the Go ones every build makes: the
// experiment's (--experiment), narrowed to one API's (--api); --api alone is the
// default experiment's.
func imagesToBuild(c *cli.Context) ([]string, error) {
	if !c.IsSet("experiment") && !c.IsSet("api") {
		return nil, nil
	}
	exp := experiments.Default
	if c.IsSet("experiment") {
		var err error
		if exp, err = experiments.Lookup(c.String("experiment")); err != nil || c.String("experiment") == "" {
			return nil, usagef("--experiment %q: want one of %s", c.String("experiment"), joinNames(experiments.Names()))
		}
	}
	imager, ok := exp.(experiment.Imager)
	if !ok {
		return nil, usagef("--experiment %s: it names its images only in a plan; `logbench reproduce %s` builds them", exp.Info().Name, exp.Info().Name)
	}
	return imager.ImagesFor(c.String("api"))
}

// saveImages writes the built images to path under every name the kit finds them by:
// their input-hash tags (so the loading host's kit reuses them), the per-platform
// :local-<arch> names, and the bases the interpreted APIs and wrk were built on.
func (t *target) saveImages(c *cli.Context, imgs []bundle.Image, path string) error {
	var refs []string
	for _, img := range imgs {
		refs = appendOnce(refs, img.Tag)
		for _, role := range images.Roles {
			if img.Role == role {
				refs = appendOnce(refs, images.PlatformTag(role, t.Platform))
			}
		}
		if base, ok := images.BaseOf(img.Role); ok {
			if tag, err := base.Tag(t.Platform); err == nil {
				refs = appendOnce(refs, tag)
			}
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return usagef("--save: %v", err)
	}
	if err := t.engine.SaveImages(c.Context, refs, f); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	say(t.Out, "saved %d images (%s) to %s: %s; on the other host: logbench load %s", len(refs), t.Platform, path, units.BytesSize(float64(st.Size())), path)
	return nil
}
