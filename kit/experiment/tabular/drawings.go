package tabular

import (
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/report"
)

// What an experiment's own drawings (Experiment.Drawings) share.

// SecondRow is one second of a run's measured interval: the responses completed in it.
// A run's rows sum to its responses.
type SecondRow struct {
	RunID    string `csv:"run_id" doc:"The run's identifier, unique in the bundle; runs.csv has its condition."`
	Second   int    `csv:"second" unit:"s" numbered:"0" doc:"The second of the measured interval, from 0."` // 0-based
	Requests int64  `csv:"responses" was:"requests" unit:"1" doc:"Responses completed in that second, whatever their status; the last second is shorter when measured_s is not whole."`
}

// Seconds is a per-run table, in file, of each run's responses second by second, from
// the load generator's count of each second of the measured interval (counts); its rows
// name their run in runsFile.
func Seconds[P experiment.Params](file, runsFile string, counts func(run experiment.Run) []int64) Table[P] {
	t := bundle.Table{File: file, Name: strings.TrimSuffix(file, ".csv"), Key: []string{"run_id", "second"},
		Refs: []bundle.Ref{{Columns: []string{"run_id"}, Table: runsFile}},
		Text: "One row per second of each run's measured interval: the responses completed in it; a run's rows sum to its requests in " + runsFile + "."}
	return PerRun(t, func(_ P, run experiment.Run) []SecondRow {
		var out []SecondRow
		for i, n := range counts(run) {
			out = append(out, SecondRow{RunID: run.ID, Second: i, Requests: n})
		}
		return out
	})
}

// SecondPlots draw the runs' seconds (the table Seconds declared in file), a plot per
// category and a line per run: runs are a bundle's runs of a category.
func SecondPlots[P experiment.Params, R any](ds []Drawn[P, R], cats []string, file, what string, runs func(d Drawn[P, R], cat string) []R) []report.Figure {
	return report.PerSecondPlots(cats, what, len(ds), func(i int, cat string) report.Traces {
		d := ds[i]
		t := report.Traces{Label: d.Label, Colour: d.Colour}
		for _, r := range runs(d, cat) {
			round, _ := strconv.Atoi(column(r, "round"))
			t.Runs = append(t.Runs, report.RoundTrace(Of[SecondRow](d.Rows, file), column(r, "run_id"), round,
				func(s SecondRow) (string, int, int64) { return s.RunID, s.Second, s.Requests }))
		}
		return t
	})
}

// Grouped are the bundles' bars within a category, a series a bundle in its colour.
func Grouped[P experiment.Params, R any](ds []Drawn[P, R]) *report.Grouped {
	g := &report.Grouped{}
	for _, d := range ds {
		g.Series = append(g.Series, report.Series{Name: d.Label, Colour: d.Colour})
	}
	return g
}

// OverRuns is a figure of each run (of) drawn for each category: the mean over the
// bundle's runs of the category (runs), the runs' range as its whisker.
func OverRuns[P experiment.Params, R any](ds []Drawn[P, R], cats []string, runs func(d Drawn[P, R], cat string) []R, of func(R) float64) *report.Grouped {
	g := Grouped(ds)
	for _, cat := range cats {
		for j, d := range ds {
			var vs []float64
			for _, r := range runs(d, cat) {
				vs = append(vs, of(r))
			}
			g.Series[j].Values = append(g.Series[j].Values, report.OverRuns(vs))
		}
	}
	return g
}

// PerBundle is what a caption adds where several bundles are drawn.
func PerBundle[P experiment.Params, R any](ds []Drawn[P, R]) string {
	if len(ds) > 1 {
		return ", a colour per bundle"
	}
	return ""
}
