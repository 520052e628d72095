// Package figure is the kit's one statistic: how a figure measured over runs is stated,
// with its 95% interval, and how two such figures are judged different. verify, compare,
// report and the JSON and CSV outputs all call it, so one figure has one interval
// wherever it is shown.
//
// Runs are the unit: a run's requests share its host's state (its warm caches, its
// neighbours' load, its container's place on the CPUs), so they vary together, and
// pooling them as independent samples gives intervals far too narrow. A figure is the
// mean of its runs' values (each run's p99, each run's rate), its interval Student's t
// over those values. With two runs that interval is wide (t is 12.7 at one degree of
// freedom), and that is the honest width: two runs cannot say more. One run gives a
// value and no interval at all. A change between two figures is Welch's t-test on the
// two sets of run values, which assumes neither equal variances nor equal counts; a
// figure without runs (a published one) is a fixed value, and a change against it is a
// one-sample t-test on the other side's runs.
//
// Beside every change it cannot call, the package states the smallest change these runs
// could have detected (MDE: at the test's level, with 80% power), so that "~" is never
// read as "no change" when it means "these runs could not have seen one".
package figure

import (
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/stat/distuv"
)

// Level is the confidence of every interval, and Alpha the level of every test.
const (
	Level = 0.95
	Alpha = 1 - Level
	// Power is the power at which MDE is stated: a change of MDE would be detected in
	// this share of repetitions of the experiment.
	Power = 0.8
)

// MinRuns is the fewest runs that give an interval or a test.
const MinRuns = 2

// Estimate is a figure over runs.
type Estimate struct {
	Runs  int     // runs with a value (NaNs are not counted)
	Value float64 // the mean of the runs' values; NaN without runs
	// Low and High bound the 95% Student-t interval of the mean over runs; NaN with
	// fewer than MinRuns runs.
	Low, High float64
	// Min and Max are the runs' range: the spread the interval rests on.
	Min, Max float64
	// SD is the runs' sample standard deviation; NaN with fewer than MinRuns.
	SD float64
}

// HasInterval says the estimate rests on enough runs to state an interval.
func (e Estimate) HasInterval() bool { return e.Runs >= MinRuns && !math.IsNaN(e.Low) }

// Of is the figure of runs' values, one value per run; NaN values (a run that did not
// measure it) are left out and not counted.
func Of(runs []float64) Estimate {
	nan := math.NaN()
	e := Estimate{Value: nan, Low: nan, High: nan, Min: nan, Max: nan, SD: nan}
	var v []float64
	for _, x := range runs {
		if !math.IsNaN(x) {
			v = append(v, x)
		}
	}
	e.Runs = len(v)
	if len(v) == 0 {
		return e
	}
	e.Value = mean(v)
	e.Min, e.Max = slices.Min(v), slices.Max(v)
	if len(v) < MinRuns {
		return e
	}
	e.SD = math.Sqrt(variance(v, e.Value))
	h := tQuantile(float64(len(v)-1), 1-Alpha/2) * e.SD / math.Sqrt(float64(len(v)))
	e.Low, e.High = e.Value-h, e.Value+h
	if e.SD == 0 {
		e.Low, e.High = e.Value, e.Value
	}
	return e
}

// Fixed is a figure without runs: a published value, with no interval.
func Fixed(v float64) Estimate {
	nan := math.NaN()
	return Estimate{Value: v, Low: nan, High: nan, Min: v, Max: v, SD: nan}
}

// How a change was judged (Change.Test).
const (
	Welch      = "welch t"        // both sides have runs
	OneSample  = "one-sample t"   // one side is a fixed figure
	TooFewRuns = "too few runs"   // a side with runs has fewer than MinRuns
	NoRuns     = "no runs"        // neither side has runs: nothing varies to test
	NoBaseline = "no baseline"    // the baseline's value is absent or 0: no ratio
	Untestable = "not comparable" // a side has no value
)

// Change is a figure against a baseline figure.
type Change struct {
	Ratio float64 // value / baseline's; NaN without both
	Pct   float64 // (Ratio - 1) x 100
	// Low and High bound the change's 95% interval in % of the baseline's value (the
	// difference's Welch interval over the baseline's mean); NaN without a test.
	Low, High float64
	// P is the test's two-sided p-value; NaN without a test.
	P float64
	// MDE is the smallest change, in % of the baseline's value, that these runs could
	// have detected at Alpha with Power; NaN without a test.
	MDE  float64
	Test string
}

// Tested says a test was made.
func (c Change) Tested() bool { return !math.IsNaN(c.P) }

// Significant says the test found the change at Alpha.
func (c Change) Significant() bool { return c.Tested() && c.P < Alpha }

// Compare judges other against base. A side with runs needs MinRuns of them; a side
// without runs (Runs 0, a value present) is fixed.
func Compare(base, other Estimate) Change {
	nan := math.NaN()
	c := Change{Ratio: nan, Pct: nan, Low: nan, High: nan, P: nan, MDE: nan}
	if math.IsNaN(base.Value) || math.IsNaN(other.Value) {
		c.Test = Untestable
		return c
	}
	if base.Value != 0 {
		c.Ratio = other.Value / base.Value
		c.Pct = (c.Ratio - 1) * 100
	}
	switch {
	case base.Runs == 0 && other.Runs == 0:
		c.Test = NoRuns
		return c
	case base.Runs == 1 || other.Runs == 1:
		c.Test = TooFewRuns
		return c
	case base.Value == 0:
		c.Test = NoBaseline
		return c
	}
	// The standard error of the difference, and its degrees of freedom.
	var se2, df float64
	switch {
	case base.Runs == 0:
		se2, df = other.SD*other.SD/float64(other.Runs), float64(other.Runs-1)
		c.Test = OneSample
	case other.Runs == 0:
		se2, df = base.SD*base.SD/float64(base.Runs), float64(base.Runs-1)
		c.Test = OneSample
	default:
		a := base.SD * base.SD / float64(base.Runs)
		b := other.SD * other.SD / float64(other.Runs)
		se2 = a + b
		// Welch-Satterthwaite.
		df = se2 * se2 / (a*a/float64(base.Runs-1) + b*b/float64(other.Runs-1))
		c.Test = Welch
	}
	d := other.Value - base.Value
	scale := 100 / math.Abs(base.Value)
	if se2 == 0 {
		// No run varied: the runs say the values are exactly what they are.
		c.P = 1
		if d != 0 {
			c.P = 0
		}
		c.Low, c.High, c.MDE = d*scale, d*scale, 0
		return c
	}
	se := math.Sqrt(se2)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}
	c.P = min(1, 2*t.Survival(math.Abs(d)/se))
	h := t.Quantile(1-Alpha/2) * se
	c.Low, c.High = (d-h)*scale, (d+h)*scale
	c.MDE = (t.Quantile(1-Alpha/2) + t.Quantile(Power)) * se * scale
	return c
}

// Resolved says the figure's interval lies wholly on one side of zero: a ratio to it
// means something. A figure whose interval reaches zero (a drain of 6e-05 s with runs
// at 0) makes any ratio to it noise, however large.
func (e Estimate) Resolved() bool {
	return e.HasInterval() && (e.Low > 0 || e.High < 0) || e.Runs == 0 && e.Value != 0 && !math.IsNaN(e.Value)
}

// MinGeomean is the fewest ratios a geometric mean is taken over: one ratio is itself,
// and its mean says nothing more.
const MinGeomean = 2

// Geomean is the geometric mean of ratios, each between two figures that count
// (Counts); NaN, with ok false, over fewer than MinGeomean ratios.
func Geomean(ratios []float64) (g float64, ok bool) {
	if len(ratios) < MinGeomean {
		return math.NaN(), false
	}
	var s float64
	for _, r := range ratios {
		if !(r > 0) || math.IsInf(r, 0) {
			return math.NaN(), false
		}
		s += math.Log(r)
	}
	return math.Exp(s / float64(len(ratios))), true
}

// Counts says why a ratio of other to base counts in no geometric mean ("" when it
// counts): both figures need an interval (or one is fixed and the other has one), both
// must be positive, and both resolved from zero.
func Counts(base, other Estimate) string {
	switch {
	case math.IsNaN(base.Value) || math.IsNaN(other.Value):
		return "a side is absent"
	case !(base.Value > 0) || !(other.Value > 0) || math.IsInf(base.Value, 0) || math.IsInf(other.Value, 0):
		return "not both positive"
	case !base.HasInterval() && base.Runs > 0 || !other.HasInterval() && other.Runs > 0:
		return "no interval (one run)"
	case !base.HasInterval() && !other.HasInterval():
		return "no interval"
	case !base.Resolved() || !other.Resolved():
		return "interval reaches 0"
	}
	return ""
}

func mean(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func variance(v []float64, m float64) float64 {
	var ss float64
	for _, x := range v {
		ss += (x - m) * (x - m)
	}
	return ss / float64(len(v)-1)
}

func tQuantile(df, p float64) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(p)
}

// Text writes a figure as every table of the kit shows it: three significant digits
// below 100, whole numbers above; "-" for an absent one.
func Text(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "-"
	case v == 0:
		return "0"
	case math.Abs(v) >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case math.Abs(v) >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case math.Abs(v) >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// IntervalText writes the estimate's interval as every table of the kit shows it,
// "[1630, 10248]"; "" without one.
func (e Estimate) IntervalText() string {
	if !e.HasInterval() {
		return ""
	}
	return "[" + Text(e.Low) + ", " + Text(e.High) + "]"
}
