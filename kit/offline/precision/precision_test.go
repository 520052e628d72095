package precision

import (
	"math"
	"testing"

	"github.com/logbench/logbench/kit/offline/compare"
)

func row(cond, metric string, headline bool, runs ...float64) compare.Row {
	var per [][]float64
	for _, v := range runs {
		per = append(per, []float64{v})
	}
	r := compare.Measured([]compare.KV{{Key: "c", Value: cond}}, metric, "ms", compare.Mean{}, per)
	r.Headline = headline
	return r
}

func TestWidestIsTheHeadlineFigureLeastKnown(t *testing.T) {
	// 99, 101: half-width t(1) x sd / sqrt(2) = 12.706 x 1.414 / 1.414 = 12.7% of 100.
	// 990, 1010: the same relative width, second: the first of equals is kept.
	// 9, 11: 127%, but not a headline figure.
	rows := []compare.Row{row("a", "m", true, 99, 101), row("b", "m", true, 990, 1010), row("a", "other", false, 9, 11)}
	w := Widest(rows)
	if w == nil || w.Condition != "c=a" || w.Metric != "m" || w.Runs != 2 || math.Abs(*w.Relative-0.12706) > 1e-4 || math.Abs(*w.HalfWidth-12.706) > 1e-3 {
		t.Fatalf("widest %+v", w)
	}
	if Met(w, 0.12) || !Met(w, 0.13) {
		t.Errorf("12.7%% is not within 12%% and is within 13%%")
	}
	// One run gives no interval: wider than any, never within a target.
	one := append(rows, row("c", "m", true, 50))
	if w := Widest(one); w.Condition != "c=c" || w.Relative != nil || w.HalfWidth != nil || *w.Value != 50 || Met(w, 0.99) {
		t.Errorf("a figure of one run: %+v", w)
	}
	// A value of 0 with a spread has no relative width; without one, 0.
	if w := Widest([]compare.Row{row("z", "m", true, -1, 1)}); w.Relative != nil || *w.HalfWidth == 0 || Met(w, 0.5) {
		t.Errorf("0 with a spread: %+v", w)
	}
	if w := Widest([]compare.Row{row("z", "m", true, 0, 0)}); w.Relative == nil || *w.Relative != 0 || !Met(w, 0.01) {
		t.Errorf("0 without a spread: %+v", w)
	}
	if Widest([]compare.Row{row("a", "other", false, 1, 2)}) != nil || Met(nil, 0.5) {
		t.Errorf("no headline figure: something to wait for")
	}
}

func TestPercent(t *testing.T) {
	for f, want := range map[float64]string{0.02: "2%", 0.018373: "1.84%", 0.5: "50%", 0.127: "12.7%", 12.5: "1250%"} {
		if have := Percent(f); have != want {
			t.Errorf("Percent(%g) = %s, want %s", f, have, want)
		}
	}
}
