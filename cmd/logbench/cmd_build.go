package main

import (
	"os"

	"github.com/docker/go-units"
	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/experiments/fifostall"
	"github.com/logbench/logbench/kit/host/bases"
	"github.com/logbench/logbench/kit/host/images"
	"github.com/logbench/logbench/kit/offline/bundle"
)

func buildCommand() *cli.Command {
	return &cli.Command{
		Name:  "build",
		Usage: "build the images for --platform (default: the engine's), reusing unchanged ones",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "platform", Usage: "image platform, linux/amd64 or linux/arm64"},
			&cli.StringFlag{Name: "api", Value: "go", Usage: "API images to build as well: go, python or all"},
			&cli.StringFlag{Name: "source", Usage: "the kit's source tree (default: found from the working directory)"},
			&cli.StringFlag{Name: "save", Usage: "also write the images to this tar (the engine's image export), for `logbench load` on a host with no network"},
			contextFlag(), mirrorFlag(), snapshotFlag(),
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
			defer t.engine.Close()
			_, imgs, err := t.BuildImages(c.Context, names)
			if err != nil || save == "" {
				return err
			}
			return t.saveImages(c, imgs, save)
		},
	}
}

// saveImages writes the built images to path under every name the kit finds them by:
// their input-hash tags (so the loading host's kit reuses them), the per-platform
// :local-<arch> names, and the bases the interpreted APIs were built on.
func (t *target) saveImages(c *cli.Context, imgs []bundle.Image, path string) error {
	var refs []string
	for _, img := range imgs {
		refs = appendOnce(refs, img.Tag)
		for _, role := range images.Roles {
			if img.Role == role {
				refs = appendOnce(refs, images.PlatformTag(role, t.Platform))
			}
		}
		if img.Role == fifostall.ImageOf(fifostall.PythonAPI) {
			if tag, err := bases.Python.Tag(t.Platform); err == nil {
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
