package linecost

import (
	"slices"
	"strings"

	lc "github.com/logbench/logbench/kit/incontainer/linecost"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/report"
)

// Metrics are the experiment's metrics in the order compare shows them; the Wide ones
// only with --wide.
var Metrics = []compare.Metric{
	{Name: "ns_per_line", Title: "cost per line (the headline clock: thread CPU, or wall for fsync)", Log: true},
	{Name: "ns_per_line_at_median_speed", Title: "cost per line at the bundle's median host speed (speed probe)", Wide: true, Log: true},
	{Name: "cpu_ns_per_line", Title: "thread CPU per line", Wide: true, Log: true},
	{Name: "wall_ns_per_line", Title: "wall time per line", Wide: true, Log: true},
}

// compareLegend says what the test of each metric rests on.
var compareLegend = []string{
	"line-cost: a run's figure is the median of its trials; the headline is the calling thread's CPU time per line, but wall time for fsync, which waits on the disk.",
	"line-cost marks: throttled trials, a wall-clock figure with trials a CPU limit throttled (it stretched their wall time, not their CPU time; conditions.csv counts them). The published figures are the seed's wall-clock times per line, given for no language: they stand beside every language's headline.",
}

// Rows are a line-cost bundle's rows for the comparison engine: per language, library
// and way, each verified run's trials are its values, and its figure their median
// (conditionTrials, as conditions.csv states it). A wall-clock figure with throttled
// trials is marked.
//
// A condition is a language, library and way; a bundle written before the library axis
// measured each language's first library, and compares as it. With the speed probe's
// figures (speed: each run's speed over the bundle's median, verify.Result.Speed), the
// headline is also given at the bundle's median speed, each trial's cost times its run's
// speed: kept apart from the raw figure, as ns_per_line_at_median_speed.
func Rows(b *Bundle, speed map[string]float64) []compare.Row {
	var out []compare.Row
	trials := Trials(b)
	for _, c := range Conditions(b) {
		lib, ok := LibraryOfRun(c.Language, c.Library)
		if !ok || c.NotOffered != "" {
			continue
		}
		_, byRun := conditionTrials(b.Runs, trials, c.Language, lib.ID, c.Way)
		if len(byRun) == 0 {
			continue
		}
		cond := []compare.KV{{Key: "language", Value: c.Language}, {Key: "library", Value: lib.ID}, {Key: "way", Value: c.Way}}
		row := func(metric string, of func(TrialRow) float64, wall bool) {
			r := compare.Measured(cond, metric, "ns", compare.Median{}, compare.ValuesByRun(byRun, of))
			if wall && c.ThrottledTrials > 0 {
				r.Marks = []string{"throttled trials"}
			}
			r.Headline = metric == "ns_per_line" // what reproduce --precision waits for
			out = append(out, r)
		}
		head, wallHead := headlineOf(c.Headline), c.Headline == HeadlineWall
		row("ns_per_line", head, wallHead)
		if !slices.ContainsFunc(byRun, func(run []TrialRow) bool { return !(speed[run[0].RunID] > 0) }) {
			row("ns_per_line_at_median_speed", func(t TrialRow) float64 { return head(t) * speed[t.RunID] }, wallHead)
		}
		row("cpu_ns_per_line", cpuOf, false)
		row("wall_ns_per_line", wallOf, true)
	}
	return out
}

// published are the seed's times per line, for every language and way the bundles
// have (the seed names no language).
func published(bundles []*Bundle) ([]compare.Row, []string, []string, error) {
	pub := mustPublished()
	var conds []ConditionRow
	for _, b := range bundles {
		conds = append(conds, Conditions(b)...)
	}
	var out []compare.Row
	for _, k := range report.Distinct(conds, func(c ConditionRow) string { return c.Language + "/" + c.Way }) {
		lang, way, _ := strings.Cut(k, "/")
		if f, ok := pub.PerLine(way); ok {
			out = append(out, compare.Fixed([]compare.KV{{Key: "language", Value: lang}, {Key: "library", Value: lc.DefaultLibrary(lang).ID}, {Key: "way", Value: way}}, "ns_per_line", "ns", f.Ns))
		}
	}
	return out, nil, nil, nil
}

// host names each language's runtime as its runs recorded it.
func host(b *Bundle) []compare.KV {
	var out []string
	for _, lang := range b.Params().Languages {
		name := lang
		if i := slices.IndexFunc(b.Runs, func(r RunRow) bool { return r.Language == lang && r.Runtime != "" }); i >= 0 {
			name = b.Runs[i].Runtime
		}
		out = append(out, name)
	}
	return []compare.KV{{Key: "runtime", Value: strings.Join(out, "; ")}}
}

// conditionName is a condition as compare names it: "go/slog/format".
func conditionName(c ConditionRow) string {
	lib, _ := LibraryOfRun(c.Language, c.Library)
	return c.Language + "/" + lib.ID + "/" + c.Way
}
