package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"
)

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:      "report",
		Usage:     "write a bundle (folder or .tar.gz) as one self-contained HTML page of plots, beside it",
		ArgsUsage: "BUNDLE",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "the page to write (default: BUNDLE.html beside the bundle)"},
			&cli.BoolFlag{Name: "force", Usage: "replace the page if it exists"},
		},
		Action: func(c *cli.Context) error {
			args, err := positional(c)
			if err != nil {
				return err
			}
			if len(args) != 1 {
				return usagef("report takes one bundle (a folder or a .tar.gz archive), got %d arguments", len(args))
			}
			path := filepath.Clean(args[0])
			out := c.String("out")
			if out == "" {
				out = filepath.Join(filepath.Dir(path), bundleLabel(path)+".html")
			}
			if _, err := os.Lstat(out); err == nil && !c.Bool("force") {
				return usagef("--out %s: already exists; pass --force to replace it, or choose another file", out)
			}
			exp, res, err := openVerified(path)
			if err != nil {
				return err
			}
			if res.Bundle == nil {
				printVerification(c.App.Writer, path, res)
				return fmt.Errorf("%s cannot be read far enough to report on (%d problems)", path, len(res.Problems))
			}
			var page bytes.Buffer
			if err := exp.Report(&page, res, version); err != nil {
				return err
			}
			if c.Bool("force") {
				os.Remove(out)
			}
			if err := writeNew(out, page.Bytes()); err != nil {
				return err
			}
			say(c.App.Writer, "%s", res.Summary())
			say(c.App.Writer, "report: %s (%d bytes)", out, page.Len())
			if !res.OK() {
				return fmt.Errorf("%s does not verify (%d problems): the report shows them", path, len(res.Problems))
			}
			return nil
		},
	}
}
