package experiment

import (
	"io"

	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/results/reference"
)

// Comparison is what an experiment says of a comparison of its bundles; CompareWith does
// the rest, the same for every experiment: the published side first when asked for,
// each bundle's side, the engine, and the output in every format.
type Comparison struct {
	Experiment string
	Metrics    []compare.Metric
	Legend     []string
	// Side is one verified bundle as a side of the comparison: its figures, its common
	// and whole manifest, and facts of its host beyond the common manifest's.
	Side func(s Source) (compare.Side, error)
	// Published gives the publication's figures as rows, set against the sources' bundles,
	// with a warning for every way a bundle's setup is unlike the publication's and lines
	// for the legend; nil: the experiment has no published figures, and --published is
	// refused.
	Published func(sources []Source) (rows []compare.Row, warnings, legend []string, err error)
}

// CompareWith compares sources as c says, through the comparison engine.
func CompareWith(out, warn io.Writer, sources []Source, opt CompareOptions, c Comparison) error {
	in := compare.Input{Experiment: c.Experiment, Metrics: c.Metrics, Legend: append([]string(nil), c.Legend...)}
	if opt.Published {
		if c.Published == nil {
			return Usagef("--published: %s has no published figures", c.Experiment)
		}
		setup, err := reference.SetupOf(c.Experiment)
		if err != nil {
			return err
		}
		rows, warnings, legend, err := c.Published(sources)
		if err != nil {
			return err
		}
		in.Published = &setup
		in.Sides = append(in.Sides, compare.Side{Label: compare.PublishedLabel, Rows: rows, Host: compare.PublishedHost(setup)})
		in.Warnings = append(in.Warnings, warnings...)
		in.Legend = append(in.Legend, legend...)
	}
	for _, s := range sources {
		side, err := c.Side(s)
		if err != nil {
			return err
		}
		side.Label = s.Label
		in.Sides = append(in.Sides, side)
	}
	return compare.Write(out, warn, in, compare.Options{Match: opt.Match, Threshold: opt.Threshold}, opt.Format, opt.Wide)
}
