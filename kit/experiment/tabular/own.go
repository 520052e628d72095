package tabular

import (
	"context"
	"io"
	"time"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/report"
)

// Own are the hooks an experiment may need beyond its declaration, each nil for the
// kit's default.
type Own[P experiment.Params, R any] struct {
	// Figures are the bundle's figure rows in place of the default (a condition's
	// figures over its runs, one value a run): one rate stated over each run's seconds,
	// a ratio paired by round. verify, compare, report and JSON all state these.
	Figures func(b *Bundle[P, R]) []compare.Row
	// Later are the columns an earlier kit's bundles lack, in any table, and the kit
	// that added each ("the wrk check"): read as absent, and noted. A row type may
	// declare its own in a tag instead, later:"the wrk check" (later.go).
	Later map[string]string
	// Earlier reads, as each table is read (file) and before anything is checked, what
	// an earlier kit spelled otherwise as this kit spells it, and notes it.
	Earlier func(c *Check[P, R], file string)
	// Respell gives a file's text (manifest.json's or a table's) as this kit spells it,
	// before the file is read, where an earlier kit's text would not read at all (a
	// missing figure spelled NaN, a column in other units, a manifest that names no
	// experiment); the checksums and the data package are held to the file as it is.
	Respell func(file string, body []byte) []byte
	// Summary is reproduce's and verify's closing table in place of the default.
	Summary func(b *Bundle[P, R], w io.Writer) error
	// Answer is the report's opening: its sentences, and which of the figures' charts
	// (in the order of Metrics) it opens with.
	Answer func(bs []Drawn[P, R]) (sentences []string, chart int)
	// Drawn makes, once for each bundle of a report, what the experiment's own parts of
	// the report (Answer, AnswerChart, Drawings) read of it (per condition, its runs
	// gathered): each finds it as Drawn.Own.
	Drawn func(d Drawn[P, R]) any
	// AnswerChart is the chart the report opens with in place of one of the figures'
	// (Answer's chart is then unused): a drawing of the experiment's own that shows the
	// answer better than a bar of each condition.
	AnswerChart func(bs []Drawn[P, R]) report.Figure
	// Charted are the metrics (by name) the report's figures section draws, in place of
	// every one of Metrics: a figure the experiment's own drawings show better is left
	// to them.
	Charted []string
	// ParamsShown are the parameters as the report's table of parameters shows them, in
	// place of the manifest's (a list of settings by their names, where the experiment
	// draws a table of them of its own).
	ParamsShown func(p P) any
	// Categories are the conditions the report draws each figure of, where they are not
	// the plan's: a capacity search's steps are drawn as the configurations they search.
	Categories func(p P) []Cell
	// Rounds are the rounds reproduce --precision counted, where they are not the
	// plan's (0: the plan's): a capacity search's searches (capacitysearch.Rounds).
	Rounds func(p P) int
	// PublishedMetrics are the metrics compare --published shows in place of Metrics (a
	// figure only the publication states alike shown without --wide).
	PublishedMetrics []compare.Metric
	// Legend are lines under a comparison of the bundle; Host are facts of where it was
	// measured beyond the common manifest's (an API's runtime).
	Legend func(b *Bundle[P, R]) []string
	Host   func(b *Bundle[P, R]) []compare.KV
	// Describe adds to the data package the kit writes with every bundle (its names and
	// texts).
	Describe func(dp *bundle.DataPackage)
	// Prepare runs before the first run of a plan (a pod that tries what the engine
	// checks only when a container is created, the instrument measured on the engine),
	// told how long finding or building the images took, which it may record.
	Prepare func(ctx context.Context, p P, pods experiment.Pods, images map[string]string, imageBuild time.Duration, out io.Writer) error
	// Measured says a run counts as data at all (the conductor got as far as the
	// measured load); by default, any run that left a result.
	Measured func(run experiment.Run) bool
	// Progress is the line reproduce prints after each run in place of the default.
	Progress func(p P, r R) string
	// Across derives again, over every run of the bundle, the columns of R that set a
	// run against the others (a mark for a run whose figure is off its condition's
	// median), once Judge has derived each run's own: after each run is added or redone,
	// and in verify over every row.
	Across func(p P, runs []R)
	// Retry says the run just added (its row r) is to be performed again (its load
	// generator fell behind its bound): the row is kept, marked superseded, and counts
	// in no figure, and the next attempt is the round's run. R then has the column
	// superseded; verify holds every row marked so to Retry.
	Retry func(p P, r R) (redo bool)
}
