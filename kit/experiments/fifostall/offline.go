package fifostall

import (
	"io"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/report"
	"github.com/logbench/logbench/kit/offline/verify"
	"github.com/logbench/logbench/results/reference"
)

// Layout is the bundle's files in archive order.
func (Experiment) Layout() []string { return bundle.Names() }

// Verify checks every file, checksum and figure of a bundle (kit/offline/verify).
func (Experiment) Verify(files *bundle.Files) *verify.Result { return verify.Verify(files) }

// Compare sets bundles side by side condition by condition with the comparison engine
// (kit/offline/compare): intervals and tests from a hierarchical bootstrap.
func (Experiment) Compare(out, warn io.Writer, sources []experiment.Source, opt experiment.CompareOptions) error {
	var labeled []compare.Labeled
	for _, s := range sources {
		labeled = append(labeled, compare.Labeled{Label: s.Label, Bundle: s.Result.Bundle})
	}
	o := compare.BundleOptions{Resamples: opt.Resamples, Match: opt.Match}
	if opt.Published {
		pub, err := reference.Load()
		if err != nil {
			return err
		}
		o.Published = pub
	}
	cmp, err := compare.Bundles(labeled, o)
	if err != nil {
		return experiment.Usagef("%v", err)
	}
	for _, w := range cmp.Notes.Warnings {
		io.WriteString(warn, w+"\n")
	}
	if len(cmp.Notes.Warnings) > 0 {
		io.WriteString(warn, "\n")
	}
	return cmp.Write(out, opt.Format, opt.Wide)
}

// Report draws the bundle as one HTML page.
func (Experiment) Report(w io.Writer, res *verify.Result, version string) error {
	pub, err := reference.Load()
	if err != nil {
		return err
	}
	return report.Write(w, report.Input{Result: res, Published: pub, Version: version})
}

// ReportMany draws several bundles on one page, their hosts side by side.
func (Experiment) ReportMany(w io.Writer, sources []experiment.Source, version string) error {
	pub, err := reference.Load()
	if err != nil {
		return err
	}
	var in []report.Labeled
	for _, s := range sources {
		in = append(in, report.Labeled{Label: s.Label, Input: report.Input{Result: s.Result, Published: pub, Version: version}})
	}
	return report.WriteMany(w, in, version)
}

var _ experiment.MultiReporter = Experiment{}
