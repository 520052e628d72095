package report

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
)

func TestOverRunsIsTheMeanAndTheRunsRange(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want Value
	}{
		{[]float64{2, 4, math.NaN(), 9}, Value{5, 2, 9}},
		{[]float64{3, math.Inf(1)}, Value{3, NaN, NaN}},
		{nil, Absent},
	} {
		got := OverRuns(c.in)
		same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
		if !same(got.V, c.want.V) || !same(got.Lo, c.want.Lo) || !same(got.Hi, c.want.Hi) {
			t.Errorf("OverRuns(%v) = %+v, want %+v", c.in, got, c.want)
		}
	}
}

// One bundle's runs are a colour each, named; several bundles' a colour per bundle,
// named once, and each run's line style named too; nothing above 0 is no plot.
func TestRunLinesNameRunsOrBundles(t *testing.T) {
	run := func(name string, ys ...float64) Trace {
		var xys plotter.XYs
		for i, y := range ys {
			xys = append(xys, plotter.XY{X: float64(i), Y: y})
		}
		return Trace{Name: name, XYs: xys}
	}
	one, ok := RunLines("t", "s", "n", []Traces{{Label: "a", Colour: Blue, Runs: []Trace{run("run 1", 5, 6), run("run 2", 7, 8)}}})
	if !ok || !strings.Contains(string(one.SVG), ">run 2</text>") || strings.Contains(string(one.SVG), ">a</text>") {
		t.Errorf("one bundle: %v\n%s", ok, one.SVG)
	}
	two, ok := RunLines("t", "s", "n", []Traces{{Label: "a", Colour: Blue, Runs: []Trace{run("run 1", 5)}}, {Label: "b", Colour: Orange, Runs: []Trace{run("run 1", 6), run("run 2", 7)}}})
	if !ok || !strings.Contains(string(two.SVG), ">b</text>") || strings.Count(string(two.SVG), ">run 1</text>") != 1 || !strings.Contains(string(two.SVG), ">run 2</text>") || strings.Count(string(two.SVG), `class="lb-legend"`) != 1 {
		t.Errorf("two bundles: %v\n%s", ok, two.SVG)
	}
	if _, ok := RunLines("t", "s", "n", []Traces{{Label: "a", Runs: []Trace{run("run 1", 0, 0), {Name: "run 2"}}}}); ok {
		t.Error("a plot of nothing")
	}
}

// No two of a bundle's runs look alike, however many: past the palette's colours a
// run gets a dash and a shape of its own.
func TestEveryRunHasAStyleOfItsOwn(t *testing.T) {
	for _, one := range []bool{true, false} {
		seen := map[string]int{}
		for k := range 24 {
			c, dash, shape := runStyle(k, Blue, one)
			key := fmt.Sprint(c, dash, fmt.Sprintf("%T", shape))
			if j, ok := seen[key]; ok {
				t.Errorf("one bundle %v: runs %d and %d look alike: %s", one, j+1, k+1, key)
			}
			seen[key] = k
		}
	}
}

// A log axis below 1 is labelled as written: 0.6, not 0.6000000000000001.
func TestLogTicksBelowOneReadAsWritten(t *testing.T) {
	var labels []string
	for _, tick := range (LogTicks{}).Ticks(0.3, 1.2) {
		if tick.Label != "" {
			labels = append(labels, tick.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "0.3 0.4 0.5 0.6 0.7 0.8 0.9 1" {
		t.Errorf("labels %s", got)
	}
}
