package report

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gonum.org/v1/plot/plotter"

	"github.com/logbench/logbench/kit/offline/figure"
)

func TestWithIntervalHoldsTheLowEndAtTheFloor(t *testing.T) {
	for _, c := range []struct {
		name string
		in   figure.Estimate
		want Value
	}{
		{"interval", figure.Estimate{Value: 5, Low: 3, High: 7, Runs: 3}, Value{5, 3, 7}},
		{"below the floor", figure.Estimate{Value: 5, Low: -1, High: 11, Runs: 3}, Value{5, 0.5, 11}},
		{"one run", figure.Estimate{Value: 5, Low: math.NaN(), High: math.NaN(), Runs: 1}, Value{5, NaN, NaN}},
	} {
		t.Run(c.name, func(t *testing.T) {
			have := WithInterval(c.in, 0.5)
			if d := cmp.Diff(c.want, have, cmp.Comparer(func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) })); d != "" {
				t.Errorf("WithInterval(%+v) (-want +have):\n%s", c.in, d)
			}
		})
	}
}

// The legend names the estimate where one bundle is drawn, each bundle where several
// are, and the pooled and published marks only where there is one.
func TestRunsPlotNamesWhatItDraws(t *testing.T) {
	names := RunsNames{Estimate: "mean over runs", Run: "each run", Pooled: "pooled", Published: "published"}
	cats := []string{"a", "b"}
	cell := func(pooled, published float64) func(i, j int) (RunsCell, bool) {
		return func(i, j int) (RunsCell, bool) {
			if i == 1 && j == 1 {
				return RunsCell{}, false
			}
			return RunsCell{Estimate: figure.Estimate{Value: 4, Low: 2, High: 6, Runs: 2}, Runs: []float64{3, 5}, Pooled: pooled, Published: published}, true
		}
	}
	one := string(RunsPlot("p99", "ms", cats, []Series{{Name: "A", Colour: Blue}}, names, 1, 10, cell(0, 0)).SVG)
	for _, want := range []string{">mean over runs</text>", ">each run</text>"} {
		if !strings.Contains(one, want) {
			t.Errorf("one bundle: no %q", want)
		}
	}
	for _, not := range []string{">A</text>", ">pooled</text>", ">published</text>"} {
		if strings.Contains(one, not) {
			t.Errorf("one bundle: %q", not)
		}
	}
	two := string(RunsPlot("p99", "ms", cats, []Series{{Name: "A", Colour: Blue}, {Name: "B", Colour: Orange}}, names, 1, 10, cell(4.5, 8)).SVG)
	for _, want := range []string{">A</text>", ">B</text>", ">pooled</text>", ">published</text>"} {
		if !strings.Contains(two, want) {
			t.Errorf("two bundles: no %q", want)
		}
	}
	if strings.Contains(two, ">mean over runs</text>") {
		t.Error("two bundles: the estimate named rather than the bundles")
	}
}

// With one bundle each series is named by its own colour; with several, each bundle
// is named and the series in grey; a value not above 0 is not drawn.
func TestCategoryPointsNameSeriesAndBundles(t *testing.T) {
	series := []PointSeries{{Name: "p50", Colour: Blue}, {Name: "p99", Colour: Orange}}
	value := func(k, i, j int) (float64, bool) { return float64(k*10 + i + 1), true }
	one := CategoryPoints("t", "ms", []string{"a", "b"}, []Series{{Name: "A", Colour: Green}}, series, 1, 100, value)
	if len(one) != 1 || !strings.Contains(string(one[0].SVG), ">p99</text>") || strings.Contains(string(one[0].SVG), ">A</text>") {
		t.Errorf("one bundle: %d figures\n%s", len(one), one[0].SVG)
	}
	two := CategoryPoints("t", "ms", []string{"a", "b"}, []Series{{Name: "A", Colour: Green}, {Name: "B", Colour: Red}}, series, 1, 100, value)
	if svg := string(two[0].SVG); !strings.Contains(svg, ">A</text>") || !strings.Contains(svg, ">B</text>") || !strings.Contains(svg, ">p50</text>") {
		t.Errorf("two bundles:\n%s", svg)
	}
	none := CategoryPoints("t", "ms", []string{"a"}, []Series{{Name: "A", Colour: Green}}, series, 1, 100, func(k, i, j int) (float64, bool) { return 0, true })
	if strings.Contains(string(none[0].SVG), ">p50</text>") {
		t.Error("a series of nothing above 0 named")
	}
}

// A cumulative drawing names each series once, the bound and the end of the load, and
// leaves out points that are not finite.
func TestCumulativeNamesItsLinesOnce(t *testing.T) {
	c := Cumulative{Title: "t", XLabel: "s", YLabel: "KiB", Series: []PointSeries{{Name: "written", Colour: Blue}, {Name: "read", Colour: Orange}},
		Bound: 1, BoundName: "bound 1 KiB/s", End: 2, EndName: "end of the load"}
	run := func(ys ...float64) []plotter.XYs {
		var w, r plotter.XYs
		for i, y := range ys {
			w, r = append(w, plotter.XY{X: float64(i), Y: y}), append(r, plotter.XY{X: float64(i), Y: y / 2})
		}
		return []plotter.XYs{w, r}
	}
	one := string(c.Plot([]Series{{Name: "A", Colour: Green}}, [][][]plotter.XYs{{run(0, 2, 4), run(0, 3, math.Inf(1))}}).SVG)
	for _, want := range []string{">written</text>", ">read</text>", ">bound 1 KiB/s</text>", ">end of the load</text>"} {
		if strings.Count(one, want) != 1 {
			t.Errorf("one bundle: %q %d times", want, strings.Count(one, want))
		}
	}
	two := string(c.Plot([]Series{{Name: "A", Colour: Green}, {Name: "B", Colour: Red}}, [][][]plotter.XYs{nil, {run(0, 2, 4)}}).SVG)
	if !strings.Contains(two, ">A</text>") || !strings.Contains(two, ">B</text>") {
		t.Errorf("two bundles: not each named\n%s", two)
	}
}

func TestFactsTableSetsBundlesSideBySide(t *testing.T) {
	have := FactsTable([]string{"A", "B"}, [][][2]string{{{"lag", "1 ms"}, {"rate", "20"}}, {{"rate", "30"}, {"pipe", "64 KiB"}}})
	want := Table{Header: []string{"", "A", "B"}, Text: 3, Rows: [][]string{{"lag", "1 ms", ""}, {"rate", "20", "30"}, {"pipe", "", "64 KiB"}}}
	if d := cmp.Diff(want, have); d != "" {
		t.Errorf("FactsTable (-want +have):\n%s", d)
	}
}
