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
	// PublishedMetrics, when set, are the metrics shown with --published in place of
	// Metrics: a figure only the publication states alike shown without --wide.
	PublishedMetrics []compare.Metric
}

// CompareWith compares sources as c says, through the comparison engine.
func CompareWith(out, warn io.Writer, sources []Source, opt CompareOptions, c Comparison) error {
	in, err := ComparisonInput(sources, opt.Published, c)
	if err != nil {
		return err
	}
	return compare.Write(out, warn, in, compare.Options{Match: opt.Match, Threshold: opt.Threshold}, opt.Format, opt.Wide)
}

// ComparisonInput is what the comparison engine is given of sources as c says, after
// the publication's figures when published is set: CompareWith's, which a test may run
// itself (compare.Run).
func ComparisonInput(sources []Source, published bool, c Comparison) (compare.Input, error) {
	in := compare.Input{Experiment: c.Experiment, Metrics: c.Metrics, Legend: append([]string(nil), c.Legend...)}
	if published {
		if c.Published == nil {
			return in, Usagef("--published: %s has no published figures", c.Experiment)
		}
		setup, err := reference.SetupOf(c.Experiment)
		if err != nil {
			return in, err
		}
		rows, warnings, legend, err := c.Published(sources)
		if err != nil {
			return in, err
		}
		if c.PublishedMetrics != nil {
			in.Metrics = c.PublishedMetrics
		}
		in.Published = &setup
		in.Sides = append(in.Sides, compare.Side{Label: compare.PublishedLabel, Rows: rows, Host: compare.PublishedHost(setup)})
		in.Warnings = append(in.Warnings, warnings...)
		in.Legend = append(in.Legend, legend...)
	}
	for _, s := range sources {
		side, err := c.Side(s)
		if err != nil {
			return in, err
		}
		side.Label = s.Label
		in.Sides = append(in.Sides, side)
	}
	return in, nil
}
