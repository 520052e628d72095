package linecost

import (
	"io"
	"math"
	"slices"
	"strings"

	"github.com/logbench/logbench/kit/experiment"
	lc "github.com/logbench/logbench/kit/incontainer/linecost"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/verify"
	"github.com/logbench/logbench/results/reference"
)

// Metrics are the experiment's metrics in the order compare shows them; the Wide ones
// only with --wide.
var Metrics = []compare.Metric{
	{Name: "ns_per_line", Title: "cost per line (the headline clock: thread CPU, or wall for fsync)"},
	{Name: "ns_per_line_at_median_speed", Title: "cost per line at the bundle's median host speed (speed probe)", Wide: true},
	{Name: "cpu_ns_per_line", Title: "thread CPU per line", Wide: true},
	{Name: "wall_ns_per_line", Title: "wall time per line", Wide: true},
}

// compareLegend says what the test of each metric rests on.
var compareLegend = []string{
	"line-cost: a way's figure is the median of its verified runs' trials, and the bootstrap draws runs, then trials within each; the headline is the calling thread's CPU time per line, but wall time for fsync, which waits on the disk.",
	"line-cost marks: throttled trials, a wall-clock figure with trials a CPU limit throttled (it stretched their wall time, not their CPU time; conditions.csv counts them). The published figures are the seed's wall-clock times per line, given for no language: they stand beside every language's headline.",
}

// Compare sets bundles side by side condition by condition with the comparison engine
// (kit/offline/compare), the published figures first with opt.Published.
func (Experiment) Compare(out, warn io.Writer, sources []experiment.Source, opt experiment.CompareOptions) error {
	in := compare.Input{Experiment: Name, Metrics: Metrics, Legend: compareLegend}
	var bundles []*Bundle
	for _, s := range sources {
		b, err := bundleOf(s.Result)
		if err != nil {
			return err
		}
		bundles = append(bundles, b)
	}
	if opt.Published {
		pub, err := LoadPublished()
		if err != nil {
			return err
		}
		setup, err := reference.SetupOf(Name)
		if err != nil {
			return err
		}
		in.Published = &setup
		in.Sides = append(in.Sides, compare.Side{Label: compare.PublishedLabel, Rows: PublishedRows(pub, bundles), Host: compare.PublishedHost(setup)})
	}
	for i, s := range sources {
		b := bundles[i]
		in.Sides = append(in.Sides, compare.Side{Label: s.Label, Rows: Rows(b, s.Result.Speed), Common: &b.Manifest.Common, Manifest: b.Manifest,
			Host: []compare.KV{{Key: "runtime", Value: runtimes(b)}}})
	}
	return compare.Write(out, warn, in, compare.Options{Match: opt.Match, Threshold: opt.Threshold}, opt.Format, opt.Wide)
}

// Rows are a line-cost bundle's rows for the comparison engine: per language and way,
// each verified run's trials are its values, and the figure is their median. A
// wall-clock figure with throttled trials is marked.
//
// A condition is a language, library and way; a bundle written before the library axis
// measured each language's first library, and compares as it. With the speed probe's
// figures (speed: each run's speed over the bundle's median, verify.Result.Speed), the
// headline is also given at the bundle's median speed, each trial's cost times its run's
// speed: kept apart from the raw figure, as ns_per_line_at_median_speed.
func Rows(b *Bundle, speed map[string]float64) []compare.Row {
	library := map[string]string{} // verified runs' library, by run
	for _, r := range b.Runs {
		if lib, ok := LibraryOfRun(r.Language, r.LibraryID); ok && r.Verified {
			library[r.RunID] = lib.ID
		}
	}
	var out []compare.Row
	for _, c := range b.Conditions {
		lib, ok := LibraryOfRun(c.Language, c.Library)
		if !ok || c.NotOffered != "" {
			continue
		}
		cond := []compare.KV{{Key: "language", Value: c.Language}, {Key: "library", Value: lib.ID}, {Key: "way", Value: c.Way}}
		var ids []string
		head, cpu, wall, norm := map[string][]float64{}, map[string][]float64{}, map[string][]float64{}, map[string][]float64{}
		for _, t := range b.Trials {
			if t.Language != c.Language || t.Way != c.Way || library[t.RunID] != lib.ID {
				continue
			}
			if !slices.Contains(ids, t.RunID) {
				ids = append(ids, t.RunID)
			}
			h := float64(t.CPUNsPerLine)
			if c.Headline == HeadlineWall {
				h = float64(t.WallNsPerLine)
			}
			head[t.RunID] = append(head[t.RunID], h)
			if sp := speed[t.RunID]; sp > 0 {
				norm[t.RunID] = append(norm[t.RunID], h*sp)
			}
			cpu[t.RunID] = append(cpu[t.RunID], float64(t.CPUNsPerLine))
			wall[t.RunID] = append(wall[t.RunID], float64(t.WallNsPerLine))
		}
		var throttled []string
		if c.ThrottledTrials > 0 {
			throttled = []string{"throttled trials"}
		}
		row := func(metric string, values map[string][]float64, value float64, marks []string) {
			var runs [][]float64
			for _, id := range ids {
				runs = append(runs, values[id])
			}
			if len(runs) == 0 {
				return
			}
			r := compare.Measured(cond, metric, "ns", compare.Median{}, runs)
			r.Value = value
			r.Marks = marks
			out = append(out, r)
		}
		headMarks := []string(nil)
		if c.Headline == HeadlineWall {
			headMarks = throttled
		}
		row("ns_per_line", head, float64(c.NsPerLine), headMarks)
		if len(norm) == len(ids) {
			row("ns_per_line_at_median_speed", norm, math.NaN(), headMarks)
		}
		row("cpu_ns_per_line", cpu, float64(c.CPUNsPerLine), nil)
		row("wall_ns_per_line", wall, float64(c.WallNsPerLine), throttled)
	}
	return out
}

// PublishedRows are the seed's times per line, for every language and way the bundles
// have (the seed names no language).
func PublishedRows(pub Published, bundles []*Bundle) []compare.Row {
	type lw struct{ language, way string }
	var order []lw
	for _, b := range bundles {
		for _, c := range b.Conditions {
			if !slices.Contains(order, lw{c.Language, c.Way}) {
				order = append(order, lw{c.Language, c.Way})
			}
		}
	}
	var out []compare.Row
	for _, k := range order {
		if f, ok := pub.PerLine(k.way); ok {
			out = append(out, compare.Fixed([]compare.KV{{Key: "language", Value: k.language}, {Key: "library", Value: lc.DefaultLibrary(k.language).ID}, {Key: "way", Value: k.way}}, "ns_per_line", "ns", f.Ns))
		}
	}
	return out
}

// runtimes names each language's runtime as its runs recorded it.
func runtimes(b *Bundle) string {
	var out []string
	for _, lang := range b.Manifest.Parameters.Languages {
		name := lang
		for _, r := range b.Runs {
			if r.Language == lang && r.Runtime != "" {
				name = r.Runtime
				break
			}
		}
		out = append(out, name)
	}
	return strings.Join(out, "; ")
}

// Figures are the bundle's figures (Rows), for verify, report and compare alike.
func (Experiment) Figures(res *verify.Result) ([]compare.Row, error) {
	b, err := bundleOf(res)
	if err != nil {
		return nil, err
	}
	return Rows(b, res.Speed), nil
}
