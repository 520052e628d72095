package linecost

import (
	"fmt"
	"strings"

	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/report"
)

// drawn is one bundle as the drawings need it: its conditions and figures as this kit
// states them (drawnOf, made once a bundle as the report's Own.Drawn).
type drawn = tabular.Drawn[*Params, RunRow]

type ofDrawn struct {
	conds   []ConditionRow
	figures compare.Stated
}

func drawnOf(d drawn) any {
	return &ofDrawn{conds: Conditions(d.Bundle), figures: compare.StatedOf(d.Figures)}
}

func conds(d drawn) []ConditionRow { return d.Own.(*ofDrawn).conds }

func figures(d drawn) compare.Stated { return d.Own.(*ofDrawn).figures }

// cond is the bundle's condition of a language and library (libraryLabel) and a way.
func cond(d drawn, lang, way string) *ConditionRow {
	for i, c := range conds(d) {
		if libraryLabel(c) == lang && c.Way == way {
			return &conds(d)[i]
		}
	}
	return nil
}

// drawings are the report's sections beyond the kit's figures: per language and library, every way's
// headline on a log axis beside the seed's figure; CPU against wall time; the seed's
// findings; every condition's figures; where the log files were written. Several bundles
// share those axes, a colour each.
func drawings(bs []drawn) []report.Section {
	pub := mustPublished()
	var all []ConditionRow
	for _, d := range bs {
		all = append(all, conds(d)...)
	}
	langs, ways := report.Distinct(all, libraryLabel), report.Distinct(all, func(c ConditionRow) string { return c.Way })
	disk := tabular.Labelled(bs, report.Table{Caption: "Where the log files were written.", Header: []string{"bundle", "file system"}, Text: 2},
		func(d drawn) [][]string { return [][]string{{fsFacts(d.Bundle)}} })
	published := make([]float64, len(ways))
	for i, way := range ways {
		f, _ := pub.PerLine(way)
		published[i] = f.Ns
	}
	var heads, cw []report.Figure
	for _, lang := range langs {
		g := tabular.PerCategory(bs, ways, func(d drawn, way string) report.Value { return headline(d, lang, way) })
		g.Points, g.Published = true, published
		heads = append(heads, report.Bars(lang+": time per line", "ns per line (log scale)", ways, g, true))
		cw = append(cw, cpuWallPlot(bs, lang, ways))
	}
	return []report.Section{
		{ID: "headline", Title: "Time per line",
			Caption: "Each way's headline per line: the mean over runs of each run's median over its trials (square) with its 95% interval over runs (whisker; none from one run), on a log scale; the calling thread's CPU time, wall time for fsync, which waits on the disk. The dashed black strokes are the seed's figures (wall-clock, on a virtual machine), the same for every language.",
			Figures: heads},
		{ID: "cpu-wall", Title: "CPU time against wall time",
			Caption: "Each way's CPU time per line against its wall time per line (log scales). On the diagonal the thread did nothing but run; above it, CPU time on other threads counted in; below it, waiting: on the disk (fsync), or on a CPU limit that throttled the container.",
			Figures: cw, Warnings: throttled(bs)},
		{ID: "findings", Title: "The seed's findings",
			Caption: "The fidelity checks are the seed's orderings and ratios, not its absolute nanoseconds.",
			Tables:  tabular.LabelledEach(bs, func(d drawn) []report.Table { return findings(conds(d)) })},
		{ID: "conditions", Title: "Conditions",
			Caption: "Every figure recomputed from the trials of verified runs: each run's median over its trials, then the mean over runs, in ns; the interval the headline's 95% Student-t interval over runs (none from one run).",
			Tables:  append(tabular.TableEach(bs, conditionTableOf), disk)},
	}
}

// headline is the time per line of lang's way in the bundle, with its interval; absent
// where the way did not run or has no figure.
func headline(d drawn, lang, way string) report.Value {
	if c := cond(d, lang, way); c != nil {
		if e := figures(d).Of(conditionName(*c), "ns_per_line"); e.Value > 0 {
			return report.Value{V: e.Value, Lo: e.Low, Hi: e.High}
		}
	}
	return report.Absent
}

// cpuWallPlot sets each way's CPU time per line against its wall time, a colour per
// bundle and a shape per way (report.Diagonal).
func cpuWallPlot(bs []drawn, lang string, ways []string) report.Figure {
	var series []report.Series
	var points []report.XY
	for i, d := range bs {
		series = append(series, report.Series{Name: d.Label, Colour: d.Colour})
		for k, way := range ways {
			if c := cond(d, lang, way); c != nil {
				points = append(points, report.XY{Series: i, Category: k, X: float64(c.WallNsPerLine), Y: float64(c.CPUNsPerLine)})
			}
		}
	}
	return report.Diagonal(lang+": CPU against wall time per line", "wall ns per line (log scale)", "CPU ns per line (log scale)", "CPU = wall", series, ways, points)
}

// throttled says where a CPU limit stretched trials' wall time.
func throttled(bs []drawn) []string {
	var out []string
	for _, d := range bs {
		n, of := 0, 0
		for _, c := range conds(d) {
			n += c.ThrottledTrials
			of += c.Trials
		}
		if n > 0 {
			out = append(out, fmt.Sprintf("%s: %d of %d trials were throttled by the CPU limit (%g CPU): their wall time includes waiting for the quota, so the headline of every CPU-bound way is the thread's CPU time.",
				d.Label, n, of, d.Bundle.Params().CPUs))
		}
	}
	return out
}

// conditionTableOf is a bundle's conditionTable, why a way is not offered in its
// caption.
func conditionTableOf(d drawn) report.Table {
	t, notOffered := conditionTable(d.Bundle, d.Label)
	if len(notOffered) > 0 {
		t.Caption += " (" + strings.Join(notOffered, "; ") + ")"
	}
	return t
}

// answerWays are the ways the answer states, in its order, and how it says each.
var answerWays = []struct{ way, what string }{
	{"format", "formatting a line costs"}, {"buffered", "writing it buffered"}, {"unbuffered", "unbuffered"}, {"fsync", "and with an fsync each"},
}

// answer is the page's opening: per bundle, language and library, what one line costs
// to format, to write buffered and unbuffered, and to fsync, each as compare states it.
func answer(bs []drawn) ([]string, int) {
	var out []string
	for _, d := range bs {
		for _, label := range report.Distinct(conds(d), libraryLabel) {
			var parts []string
			var lib string
			for _, w := range answerWays {
				if c := cond(d, label, w.way); c != nil && c.NotOffered == "" {
					l, _ := LibraryOfRun(c.Language, c.Library)
					lib = c.Language + " (" + l.Name + ")"
					parts = append(parts, w.what+" "+report.Stated(figures(d).Of(conditionName(*c), "ns_per_line"), "ns"))
				}
			}
			if len(parts) == 0 {
				continue
			}
			if len(bs) > 1 {
				lib = d.Label + ", " + lib
			}
			out = append(out, lib+": "+strings.Join(parts, ", ")+".")
		}
	}
	return append(out, "Each figure is the mean over runs of each run's median over its trials, with its 95% interval over runs: the calling thread's CPU time, and for fsync the wall time, which waits on the disk."), 0
}
