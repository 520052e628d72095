package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/printable"
	"github.com/logbench/logbench/kit/offline/verify"
)

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:      "report",
		Usage:     "write one or more bundles (folders or .tar.gz) as one self-contained HTML page of plots; several bundles of one experiment share the axes, a colour each",
		ArgsUsage: "BUNDLE [BUNDLE...]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "the .html page to write, never inside a bundle folder (default: BUNDLE.html beside the first bundle)"},
			&cli.BoolFlag{Name: "force", Usage: "replace the page if it exists and is one logbench report wrote, unchanged since (its <head> begins with <meta name=\"generator\" content=\"logbench report; sha256=...\">, the SHA-256 of the rest of the page)"},
		},
		Action: func(c *cli.Context) error {
			escapeOutput(c)
			args, err := positional(c)
			if err != nil {
				return helpOrErr(err)
			}
			if len(args) == 0 {
				return usagef("report takes one or more bundles (folders or .tar.gz archives)")
			}
			first := filepath.Clean(args[0])
			out := c.String("out")
			if out == "" {
				var labels []string
				for _, a := range args {
					labels = append(labels, bundleLabel(a))
				}
				out = filepath.Join(filepath.Dir(first), strings.Join(labels, "+")+".html")
			}
			if err := checkOutput(out, ".html", c.Bool("force"), args); err != nil {
				return err
			}
			if c.Bool("force") {
				if err := checkReplaceable(out); err != nil {
					return err
				}
			}
			var exp experiment.Experiment
			var sources []experiment.Source
			var bad []*verify.Result
			for _, a := range args {
				path := filepath.Clean(a)
				e, res, err := openVerified(path)
				if err != nil {
					return err
				}
				if res.Own == nil {
					printVerification(c.App.Writer, res, false)
					return fmt.Errorf("%s cannot be read far enough to report on (%d problems)", path, len(res.Problems))
				}
				if exp != nil && e.Info().Name != exp.Info().Name {
					return usagef("%s is a bundle of %s, %s one of %s: a report draws bundles of one experiment", path, e.Info().Name, first, exp.Info().Name)
				}
				exp = e
				sources = append(sources, experiment.Source{Label: uniqueLabel(sources, bundleLabel(path)), Result: res})
				if !res.OK() {
					bad = append(bad, res)
				}
			}
			var page bytes.Buffer
			if err := exp.Report(&page, sources, version); err != nil {
				return err
			}
			// A control character from a bundle is shown on the page, not sent to the
			// browser (html/template escapes markup, not these).
			marked, err := markPage([]byte(printable.Escape(page.String(), true)))
			if err != nil {
				return err
			}
			// checkOutput allowed a replacement only with --force, of a regular .html file.
			if err := writeOutput(out, marked, c.Bool("force")); err != nil {
				return err
			}
			for _, s := range sources {
				say(c.App.Writer, "%s", s.Result.Summary())
			}
			say(c.App.Writer, "report: %s (%d bytes)", out, len(marked))
			switch {
			case len(bad) == 1:
				return fmt.Errorf("%s does not verify (%d problems): the report shows them", bad[0].Name, len(bad[0].Problems))
			case len(bad) > 1:
				return fmt.Errorf("%d of %d bundles do not verify: the report shows their problems", len(bad), len(sources))
			}
			return nil
		},
	}
}
