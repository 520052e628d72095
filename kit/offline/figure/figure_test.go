package figure

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestOfIsStudentTOverRuns(t *testing.T) {
	e := Of([]float64{1, 2, 3, math.NaN()})
	// mean 2, sd 1, t(2 df, 0.975) = 4.302653: half-width 2.48414.
	if e.Runs != 3 || e.Value != 2 || !near(e.Low, -0.48414, 1e-4) || !near(e.High, 4.48414, 1e-4) || e.Min != 1 || e.Max != 3 {
		t.Fatalf("Of(1,2,3) = %+v", e)
	}
}

func TestOneRunHasAValueAndNoInterval(t *testing.T) {
	e := Of([]float64{5})
	if e.Value != 5 || e.HasInterval() || !math.IsNaN(e.Low) || !math.IsNaN(e.High) {
		t.Fatalf("Of(5) = %+v: one run gives no interval", e)
	}
	if e := Of(nil); !math.IsNaN(e.Value) || e.Runs != 0 {
		t.Fatalf("Of(nil) = %+v", e)
	}
}

func TestTwoRunsGiveAnIntervalWiderThanTheirSpread(t *testing.T) {
	e := Of([]float64{10, 12})
	if !(e.Low < e.Min-10 && e.High > e.Max+10) {
		t.Fatalf("two runs 10, 12: interval [%g, %g] is narrower than t at one degree of freedom warrants", e.Low, e.High)
	}
}

// The worked example of Welch's test (Welch 1947, as the test is usually taught): two
// samples of 15, t = -2.46, df 24.99, p = 0.021.
func TestCompareIsWelchOnRuns(t *testing.T) {
	a := Of([]float64{27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4})
	b := Of([]float64{27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4})
	c := Compare(a, b)
	if c.Test != Welch || !near(c.P, 0.021, 0.001) || !c.Significant() {
		t.Fatalf("Compare = %+v, want Welch's p = 0.021", c)
	}
	if !(c.Low > 0 && c.High > c.Low && c.Pct > c.Low && c.Pct < c.High) {
		t.Fatalf("change %g%% outside its interval [%g, %g]", c.Pct, c.Low, c.High)
	}
	if !(c.MDE > 0 && c.MDE < c.Pct*1.5) {
		t.Fatalf("MDE %g%% for a change of %g%% that the test found", c.MDE, c.Pct)
	}
}

func TestNoTestFromOneRunOrNone(t *testing.T) {
	for _, tc := range []struct {
		name       string
		base, othr Estimate
		want       string
	}{
		{"one run a side", Of([]float64{1}), Of([]float64{2}), TooFewRuns},
		{"one run against three", Of([]float64{1}), Of([]float64{2, 3, 4}), TooFewRuns},
		{"two fixed", Fixed(1), Fixed(2), NoRuns},
		{"a side absent", Of(nil), Of([]float64{1, 2}), Untestable},
	} {
		c := Compare(tc.base, tc.othr)
		if c.Test != tc.want || c.Tested() || !math.IsNaN(c.MDE) {
			t.Errorf("%s: %+v, want %q and no p-value", tc.name, c, tc.want)
		}
	}
}

func TestAgainstAFixedFigureIsOneSample(t *testing.T) {
	c := Compare(Fixed(10), Of([]float64{11, 12, 13}))
	// t = (12-10)/(1/sqrt 3) = 3.464 at 2 df: p = 0.0742.
	if c.Test != OneSample || !near(c.P, 0.0742, 0.0005) || c.Significant() {
		t.Fatalf("Compare(fixed 10, 11..13) = %+v", c)
	}
}

// Three runs a side that overlap cannot call a change: the MDE says how large one would
// have had to be.
func TestMDEIsStatedWhereNoChangeIsFound(t *testing.T) {
	c := Compare(Of([]float64{100, 110, 90}), Of([]float64{105, 95, 112}))
	if c.Significant() || !(c.MDE > 10) {
		t.Fatalf("%+v: overlapping runs must be ~ with an MDE above 10%%", c)
	}
}

func TestGeomeanNeedsResolvedFiguresWithIntervals(t *testing.T) {
	tiny := Of([]float64{0, 0, 1.8e-4}) // a drain that is mostly 0: its interval reaches 0
	big := Of([]float64{10, 11, 12})
	if why := Counts(tiny, big); why == "" {
		t.Fatal("a ratio to a figure whose interval reaches 0 counted in a geomean")
	}
	if why := Counts(Of([]float64{10}), big); why == "" {
		t.Fatal("a ratio to a one-run figure counted in a geomean")
	}
	if why := Counts(big, Of([]float64{20, 21, 22})); why != "" {
		t.Fatalf("two resolved figures do not count: %s", why)
	}
	if why := Counts(Fixed(5), big); why != "" {
		t.Fatalf("a published figure against resolved runs does not count: %s", why)
	}
	if _, ok := Geomean([]float64{2}); ok {
		t.Fatal("a geomean of one ratio")
	}
	if g, ok := Geomean([]float64{2, 8}); !ok || !near(g, 4, 1e-12) {
		t.Fatalf("Geomean(2, 8) = %g, %v", g, ok)
	}
}
