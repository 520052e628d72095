package report

import (
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
)

// A condition is named once whatever the bundles; several bundles name their line
// styles too; latencies of 0 alone are no plot.
func TestByPercentileNamesConditionsAndBundles(t *testing.T) {
	lines := []PercentileLine{{Name: "none", Ms: []float64{1, 2, 3}}, {Name: "json-sync", Condition: 1, Ms: []float64{5, 900}},
		{Name: "none", Bundle: 1, Ms: []float64{2, 4}}}
	f, ok := ByPercentile("t", lines, []string{"a", "b"})
	svg := string(f.SVG)
	if !ok || strings.Count(svg, ">none</text>") != 1 || !strings.Contains(svg, ">b</text>") || !strings.Contains(svg, ">50%</text>") {
		t.Fatalf("ok %v; svg %.300s", ok, svg)
	}
	if _, ok := ByPercentile("t", []PercentileLine{{Name: "none", Ms: []float64{0, 0}}}, []string{"a"}); ok {
		t.Fatal("a plot of no latency above 0")
	}
}

// One bundle names its runs; several name each bundle once; a latency not above 0 is
// left out, and none left is no plot.
func TestByScheduleNamesRunsOrBundles(t *testing.T) {
	run := func(name string, ys ...float64) Trace {
		var xys plotter.XYs
		for i, y := range ys {
			xys = append(xys, plotter.XY{X: float64(i) / 20, Y: y})
		}
		return Trace{Name: name, XYs: xys}
	}
	one, ok := BySchedule("t", []Traces{{Label: "a", Colour: Blue, Runs: []Trace{run("run 1", 2, 3), run("run 2", 0, 4)}}})
	if !ok || !strings.Contains(string(one.SVG), ">run 2</text>") {
		t.Fatal("one bundle's runs are named")
	}
	two, ok := BySchedule("t", []Traces{{Label: "a", Colour: Blue, Runs: []Trace{run("run 1", 2)}}, {Label: "b", Colour: Orange, Runs: []Trace{run("run 1", 3), run("run 2", 4)}}})
	if svg := string(two.SVG); !ok || strings.Contains(svg, ">run 1</text>") || strings.Count(svg, ">b</text>") != 1 {
		t.Fatal("several bundles are named, each once, and their runs are not")
	}
	if _, ok := BySchedule("t", []Traces{{Runs: []Trace{run("run 1", 0, -1)}}}); ok {
		t.Fatal("a plot of no latency above 0")
	}
}
