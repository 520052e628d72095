package tabular

import (
	"slices"
	"testing"

	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/verify"
)

// A headline figure whose interval is wider than ±10% is named, one that rests on one
// run is counted, and a figure that is not a headline is left to its drawings.
func TestWeakFiguresNamesWideAndSingleRunHeadlines(t *testing.T) {
	cond := func(v string) []compare.KV { return []compare.KV{{Key: "api", Value: "go"}, {Key: "mode", Value: v}} }
	row := func(c, metric string, headline bool, runs ...float64) compare.Row {
		var values [][]float64
		for _, v := range runs {
			values = append(values, []float64{v})
		}
		r := compare.Measured(cond(c), metric, "ms", compare.Mean{}, values)
		r.Headline = headline
		return r
	}
	res := &verify.Result{}
	weakFigures(res, []compare.Row{
		row("wide", "p99_ms", true, 10, 20, 30),
		row("tight", "p99_ms", true, 10, 10.1, 9.9),
		row("alone", "p99_ms", true, 10),
		row("wide", "p50_ms", false, 1, 5, 9),
	})
	want := []string{
		"go/wide: p99_ms 20.0 ms has a 95% interval [-4.84, 44.8] over 3 runs, wider than ±10%",
		"1 headline figure rests on one run: a figure, and no interval",
	}
	if !slices.Equal(res.Weakened, want) {
		t.Errorf("weakened:\n%q\nwant\n%q", res.Weakened, want)
	}
}
