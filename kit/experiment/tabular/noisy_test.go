package tabular_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
)

// TestANoisyRunCountsOnlyWhenItIsData: a run measured on a noisy host is counted noisy
// when it is verified and not redone; a failed or a redone one is in no figure.
func TestANoisyRunCountsOnlyWhenItIsData(t *testing.T) {
	type row struct {
		Verified   bool `csv:"verified"`
		Superseded bool `csv:"superseded"`
		HostNoisy  bool `csv:"host_noisy"`
	}
	runs := []row{{true, false, true}, {true, false, false}, {false, false, true}, {true, true, true}, {true, false, true}}
	if n := tabular.Noisy(runs); n != 2 {
		t.Errorf("noisy runs: %d, want 2", n)
	}
}

// noisyRow is a tiny experiment's run that also says whether its host was noisy: size
// 2's runs were.
type noisyRow struct {
	TinyRow
	HostNoisy bool `csv:"host_noisy" doc:"Size 2's runs were on a noisy host."`
}

// TestFiguresOfAConditionWithNoisyRunsAreMarked: in every experiment whose runs say
// whether their host was noisy, the kit marks each figure of a condition with a noisy
// run that counts, and the comparison's legend says what the mark means; the figures
// of the other conditions are not marked.
func TestFiguresOfAConditionWithNoisyRunsAreMarked(t *testing.T) {
	small := tiny()
	exp := &tabular.Experiment[*tinyParams, noisyRow]{About: small.About, Defaults: small.Defaults, Axes: small.Axes, Conditions: small.Conditions,
		Images: small.Images, Pod: small.Pod, Runs: small.Runs, Metrics: []compare.Metric{{Name: "written", Title: "lines written", Headline: true}},
		Observe: func(p *tinyParams, run experiment.Run) noisyRow {
			return noisyRow{TinyRow: small.Observe(p, run), HostNoisy: run.Condition.String() == "2"}
		},
		Judge: func(p *tinyParams, r *noisyRow, own tabular.Rows) { small.Judge(p, &r.TinyRow, own) },
	}
	files, err := bundle.ReadFolder(tinyBundle(t, exp, "reproduce", []int{1, 2}, 2, 4))
	if err != nil {
		t.Fatal(err)
	}
	res := exp.Verify(files)
	if !res.OK() {
		t.Fatalf("the bundle does not verify: %+v", res.Problems)
	}
	rows, err := exp.Figures(res)
	if err != nil || len(rows) != 2 {
		t.Fatalf("figures %+v, %v; want one a size", rows, err)
	}
	for _, r := range rows {
		noisy := r.Condition[0].Value == "2"
		if marked := slices.Contains(r.Marks, tabular.MarkNoisy); marked != noisy {
			t.Errorf("size %s: marks %q; want %q among them: %t", r.Condition[0].Value, r.Marks, tabular.MarkNoisy, noisy)
		}
	}
	legend := exp.Comparison([]experiment.Source{{Label: "noisy", Result: res}}).Legend
	if !slices.ContainsFunc(legend, func(l string) bool { return strings.HasPrefix(l, tabular.MarkNoisy+": ") }) {
		t.Errorf("the legend %q does not say what %q means", legend, tabular.MarkNoisy)
	}
}
