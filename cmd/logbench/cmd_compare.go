package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/verify"
)

func compareCommand() *cli.Command {
	return &cli.Command{
		Name:        "compare",
		Usage:       "put bundles of any experiment side by side, condition by condition: each value with its 95% interval, the change against the first in %, and its p-value or ~ (Student-t over runs, Welch's t-test on run figures, the smallest detectable change beside every ~)",
		ArgsUsage:   "BUNDLE [BUNDLE...]",
		Description: "Bundles of one experiment, the first the baseline; or one bundle and --published, the article's figures the baseline" + alone() + ".",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "published", Usage: "put the article's figures first, as the baseline"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output: " + strings.Join(compare.Formats, ", ")},
			&cli.StringFlag{Name: "match", Usage: "condition keys that must agree, comma-separated, among the condition's axes its tables name (fifo-stall: api, mode, reader; a key an experiment lacks is refused); e.g. mode,reader sets one API against another; default: every key that does not name a whole source"},
			&cli.Float64Flag{Name: "threshold", Value: compare.DefaultThreshold, Usage: "practical threshold in %: a smaller change is never counted as changed, whatever its p (0: none)"},
			&cli.BoolFlag{Name: "wide", Usage: "text: every metric and interval, however wide (default: fit 120 columns)"},
			&cli.BoolFlag{Name: "allow-emulated", Usage: "set bundles that ran emulated (--emulated: their figures time the emulator) against native ones or the published figures"},
		},
		Action: func(c *cli.Context) error {
			escapeOutput(c)
			paths, err := positional(c)
			if err != nil {
				return helpOrErr(err)
			}
			n := len(paths)
			switch {
			case n == 0:
				return usagef("compare takes bundles (folders or .tar.gz archives): two or more, or one with --published%s", alone())
			case !slices.Contains(compare.Formats, c.String("format")):
				return usagef("--format %q: want one of %s", c.String("format"), strings.Join(compare.Formats, ", "))
			case !(c.Float64("threshold") >= 0 && c.Float64("threshold") < 100):
				return usagef("--threshold %v: want a change in %%, 0 (none) to under 100", c.Float64("threshold"))
			}
			match, err := matchKeys(c.String("match"))
			if err != nil {
				return err
			}
			threshold := c.Float64("threshold")
			if threshold == 0 {
				threshold = -1 // none: CompareOptions' zero is the default
			}
			var exp experiment.Experiment
			var sources []experiment.Source
			for _, path := range paths {
				e, res, err := loadVerified(path)
				if err != nil {
					return err
				}
				if exp != nil && e.Info().Name != exp.Info().Name {
					return fmt.Errorf("%s is a bundle of %s, %s one of %s: compare sets bundles of one experiment side by side", path, e.Info().Name, paths[0], exp.Info().Name)
				}
				exp = e
				sources = append(sources, experiment.Source{Label: uniqueLabel(sources, bundleLabel(path)), Result: res})
			}
			// One bundle is set against the article's figures, or, where the experiment's
			// bundle holds its own reference, against that.
			if n == 1 && exp.Info().Reference == "" && !c.Bool("published") {
				return usagef("compare needs a second bundle, or --published to compare with the article")
			}
			if err := checkEmulated(c, sources); err != nil {
				return err
			}
			err = exp.Compare(c.App.Writer, c.App.ErrWriter, sources,
				experiment.CompareOptions{Published: c.Bool("published"), Format: c.String("format"),
					Match: match, Wide: c.Bool("wide"), Threshold: threshold})
			var bad compare.InputError
			if errors.As(err, &bad) {
				return usagef("%s", bad.Msg)
			}
			return err
		},
	}
}

// alone says which experiments' bundles compare within themselves
// (experiment.Info's Reference), and against what: "; a your-api bundle alone, against
// the bundle's baseline configuration"; "" for none.
func alone() string {
	var out string
	for _, e := range experiments.All {
		if info := e.Info(); info.Reference != "" {
			out += "; a " + info.Name + " bundle alone, against " + info.Reference
		}
	}
	return out
}

// loadVerified reads a bundle and refuses one that does not verify: a comparison of a
// corrupt bundle would only look like data.
func loadVerified(path string) (experiment.Experiment, *verify.Result, error) {
	exp, res, err := openVerified(path)
	if err != nil {
		return nil, nil, err
	}
	if !res.OK() {
		return nil, nil, fmt.Errorf("%s does not verify (%d problems, the first: %s); see logbench verify %s", path, len(res.Problems), res.Problems[0], path)
	}
	return exp, res, nil
}

// bundleLabel names a bundle by its folder or archive, without the suffix.
func bundleLabel(path string) string {
	base := filepath.Base(filepath.Clean(path))
	for _, suffix := range []string{".tar.gz", ".tgz"} {
		base = strings.TrimSuffix(base, suffix)
	}
	return base
}

func uniqueLabel(sources []experiment.Source, label string) string {
	taken := func(l string) bool {
		return l == compare.PublishedLabel || slices.ContainsFunc(sources, func(s experiment.Source) bool { return s.Label == l })
	}
	if !taken(label) {
		return label
	}
	for i := 2; ; i++ {
		if l := fmt.Sprintf("%s#%d", label, i); !taken(l) {
			return l
		}
	}
}

// matchKeys reads --match: comma-separated keys, none empty or twice; "": none (the
// experiment's default). Whether the experiment has them is the comparison's to say.
func matchKeys(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []string
	for _, k := range strings.Split(s, ",") {
		k = strings.TrimSpace(k)
		switch {
		case k == "":
			return nil, usagef("--match %q: an empty key", s)
		case slices.Contains(out, k):
			return nil, usagef("--match %q: %s twice", s, k)
		}
		out = append(out, k)
	}
	return out, nil
}

// checkEmulated refuses to set emulated figures against native ones (a bundle's or the
// published) without --allow-emulated, and says which are emulated when allowed.
func checkEmulated(c *cli.Context, sources []experiment.Source) error {
	why := emulatedAgainstNative(sources)
	if why == "" && c.Bool("published") {
		for _, s := range sources {
			if s.Result.Common.Emulated {
				why = s.Label + " ran emulated (its figures time the emulator, not a measurement), the published figures natively"
				break
			}
		}
	}
	if why != "" && !c.Bool("allow-emulated") {
		return usagef("%s: --allow-emulated sets them side by side anyway", why)
	}
	for _, s := range sources {
		if m := s.Result.Common; m.Emulated {
			fmt.Fprintf(c.App.ErrWriter, "EMULATED: %s ran %s under emulation on a %s engine; its figures are not a measurement\n", s.Label, m.Platform, m.Engine.Platform)
		}
	}
	return nil
}
