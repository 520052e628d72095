package compare

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/logbench/logbench/kit/contract/stats"
)

func TestQuantileOfCountsIsTheNearestRank(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		n := 1 + rng.IntN(60)
		sorted := make([]float64, n)
		for i := range sorted {
			sorted[i] = float64(i) + rng.Float64()/2
		}
		counts := make([]int32, n)
		var expanded []float64
		total := 0
		for i := range counts {
			counts[i] = int32(rng.IntN(4))
			total += int(counts[i])
			for range counts[i] {
				expanded = append(expanded, sorted[i])
			}
		}
		for _, q := range []float64{1, 25, 50, 90, 99, 100} {
			have := Quantile(q).Of(sorted, counts, total)
			want := stats.NearestRank(expanded, q)
			if total == 0 {
				if !math.IsNaN(have) {
					t.Fatalf("no values, p%v %v", q, have)
				}
				continue
			}
			if have != want {
				t.Fatalf("p%v of %v: have %v, want %v", q, expanded, have, want)
			}
		}
		if m := (Mean{}).Of(sorted, counts, total); total > 0 && math.Abs(m-stats.Mean(expanded)) > 1e-9 {
			t.Fatalf("mean %v, want %v", m, stats.Mean(expanded))
		}
		if total > 0 {
			want := expanded[(total-1)/2]/2 + expanded[total/2]/2
			if m := (Median{}).Of(sorted, counts, total); math.Abs(m-want) > 1e-9 {
				t.Fatalf("median of %v: %v, want %v", expanded, m, want)
			}
		}
	}
}

func TestTheIntervalIsOverRunsNotValues(t *testing.T) {
	// Two runs far apart, 100 values each: pooled as 200 independent values their mean
	// would look sharp; over runs it is two figures, 1 and 10, and Student's t at one
	// degree of freedom says how little two runs know.
	runs := [][]float64{make([]float64, 100), make([]float64, 100)}
	for i := range 100 {
		runs[0][i], runs[1][i] = 1+float64(i%3)/100, 10+float64(i%3)/100
	}
	cell := evaluate(&Row{Metric: "m", Runs: runs, Stat: Mean{}, Value: math.NaN()})
	if cell.Runs != 2 || cell.Requests != 200 || cell.Low > -20 || cell.High < 30 {
		t.Fatalf("cell %+v: the interval is not over the two runs", cell)
	}
	// A quantile is each run's own, then the mean over runs.
	p99 := evaluate(&Row{Metric: "p99", Runs: [][]float64{{1, 2, 3}, {5, 6, 7}}, Stat: Quantile(99), Value: math.NaN()})
	if p99.Value != 5 {
		t.Fatalf("p99 over runs %v, want the mean of the runs' p99s (3, 7): 5", p99.Value)
	}
}

// A figure whose interval reaches 0 (a drain of 60 µs with runs at 0) counts in no
// geomean, whatever its ratio.
func TestAFigureNearZeroStaysOutOfTheGeomean(t *testing.T) {
	var ra, rb []Row
	for i, c := range []string{"a", "b", "c"} {
		ra = append(ra, Measured(cond(c), "drain_s", "s", Mean{}, [][]float64{{0}, {0}, {1.8e-4 * float64(i+1)}}))
		rb = append(rb, Measured(cond(c), "drain_s", "s", Mean{}, [][]float64{{0}, {2e-5}, {0}}))
	}
	s := run(t, []Source{{Label: "a", Rows: ra}, {Label: "b", Rows: rb}}, Options{}).Metrics[0].Summary[0]
	if !math.IsNaN(s.GeoMeanRatio) || s.GeoMeanOver != 0 || len(s.LeftOut) != 3 {
		t.Fatalf("summary %+v: noise around 0 entered a geomean", s)
	}
}

// runsOf are n runs of 50 values around mean, a little apart.
func runsOf(n int, mean float64, seed uint64) [][]float64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	out := make([][]float64, n)
	for i := range out {
		shift := 1 + (rng.Float64()-0.5)*0.002
		for range 50 {
			out[i] = append(out[i], mean*shift*(1+(rng.Float64()-0.5)*0.01))
		}
	}
	return out
}

func cond(v string) []KV { return []KV{{"case", v}} }

func run(t *testing.T, sources []Source, opt Options) Result {
	t.Helper()
	res, err := Compare(sources, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// One run a side: the requests of one run cannot show how runs vary, so no p-value is
// claimed and nothing is counted as changed, however far apart the runs are.
func TestOneRunASideGivesNoPValue(t *testing.T) {
	a := Source{Label: "a", Rows: []Row{Measured(cond("x"), "m", "ms", Mean{}, runsOf(1, 10, 1))}}
	b := Source{Label: "b", Rows: []Row{Measured(cond("x"), "m", "ms", Mean{}, runsOf(1, 20, 2))}}
	res := run(t, []Source{a, b}, Options{})
	c := res.Metrics[0].Rows[0].Cells[1]
	if c.Changed != nil || c.Test != TestTooFewRuns || !math.IsNaN(c.P) {
		t.Fatalf("one run a side: changed %v, test %q, p %v", c.Changed, c.Test, c.P)
	}
	s := res.Metrics[0].Summary[0]
	if s.Changed != 0 || s.Compared != 0 || s.Untested != 1 {
		t.Fatalf("summary %+v", s)
	}
	var buf bytes.Buffer
	if err := res.Render(&buf, "text", Notes{}, false, 0); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "~ +100% (too few runs)") || strings.Contains(buf.String(), "1 of 1 conditions changed") {
		t.Fatalf("text:\n%s", buf.String())
	}
	// One run against the published figure is no better.
	pub := Source{Label: "published", Rows: []Row{Fixed(cond("x"), "m", "ms", 20)}}
	c = run(t, []Source{pub, a}, Options{}).Metrics[0].Rows[0].Cells[1]
	if c.Changed != nil || c.Test != TestTooFewRuns {
		t.Fatalf("one run against a published figure: changed %v, test %q", c.Changed, c.Test)
	}
}

// A change under the threshold is never counted, whatever its p.
func TestAChangeUnderTheThresholdIsNeverCounted(t *testing.T) {
	a := Source{Label: "a", Rows: []Row{Measured(cond("x"), "m", "ms", Mean{}, runsOf(5, 100, 1))}}
	b := Source{Label: "b", Rows: []Row{Measured(cond("x"), "m", "ms", Mean{}, runsOf(5, 100.5, 2))}}
	res := run(t, []Source{a, b}, Options{Threshold: -1})
	c := res.Metrics[0].Rows[0].Cells[1]
	if c.Changed == nil || !*c.Changed || c.P >= 0.05 {
		t.Fatalf("without a threshold, a 0.5%% change over tight runs: changed %v, p %v", c.Changed, c.P)
	}
	for _, th := range []float64{0, 1, 5} { // 0: the default, 1%
		res := run(t, []Source{a, b}, Options{Threshold: th})
		c := res.Metrics[0].Rows[0].Cells[1]
		if c.Changed == nil || *c.Changed || !c.BelowThreshold {
			t.Fatalf("threshold %v: changed %v, below %v (change %.2f%%, p %v)", th, c.Changed, c.BelowThreshold, c.ChangePct, c.P)
		}
		if s := res.Metrics[0].Summary[0]; s.Changed != 0 || s.Corrected != 0 {
			t.Fatalf("threshold %v: summary %+v", th, s)
		}
	}
}

// The geomean is over the comparable conditions only: both values positive and
// finite, neither marked; the summary names the others.
func TestTheGeomeanIsOverComparableRowsOnly(t *testing.T) {
	var ra, rb []Row
	add := func(c string, va, vb float64, marks ...string) {
		ra = append(ra, Measured(cond(c), "m", "s", Mean{}, runsOf(3, va, 1)))
		r := Measured(cond(c), "m", "s", Mean{}, runsOf(3, vb, 2))
		r.Marks = marks
		rb = append(rb, r)
	}
	add("a", 10, 20)
	add("b", 10, 20)
	add("zero", 0, 5)
	add("marked", 10, 1000, "p99 not resolved")
	ra = append(ra, Measured(cond("only-a"), "m", "s", Mean{}, runsOf(3, 1, 1)))
	res := run(t, []Source{{Label: "a", Rows: ra}, {Label: "b", Rows: rb}}, Options{})
	s := res.Metrics[0].Summary[0]
	if s.GeoMeanOver != 2 || s.GeoMeanOf != 4 || math.Abs(s.GeoMeanRatio-2) > 0.01 {
		t.Fatalf("geomean %v over %d of %d, want 2 over 2 of 4", s.GeoMeanRatio, s.GeoMeanOver, s.GeoMeanOf)
	}
	if strings.Join(s.LeftOut, "; ") != "zero: not both positive; marked: p99 not resolved" {
		t.Fatalf("left out %q", s.LeftOut)
	}
	var buf bytes.Buffer
	if err := res.Render(&buf, "text", Notes{}, false, 0); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"1000?", "? marked, in no geomean: b p99 not resolved: marked", "x over 2 of 4 conditions"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("no %q in:\n%s", want, buf.String())
		}
	}
	for _, r := range res.Records() {
		if r.Condition["case"] == "marked" && r.Source == "b" && (len(r.Marks) != 1 || r.Comparable) {
			t.Errorf("the marked row: %+v", r)
		}
	}
}

func TestAMatchKeyNoConditionHasIsRefused(t *testing.T) {
	a := Source{Label: "a", Rows: []Row{Measured(cond("x"), "m", "ms", Mean{}, runsOf(2, 10, 1))}}
	if _, err := Compare([]Source{a, a}, Options{Match: []string{"bogus"}}); err == nil || !strings.Contains(err.Error(), `no condition has "bogus"`) {
		t.Fatalf("err %v", err)
	}
}

func TestTextWrapsWithinItsWidth(t *testing.T) {
	var rows [3][]Row
	for i := range rows {
		for _, c := range []string{"a-rather-long-condition-name", "b"} {
			rows[i] = append(rows[i], Measured([]KV{{"case", c}, {"api", string(rune('x' + i))}}, "m", "ms", Mean{}, runsOf(3, 10+float64(i), uint64(i))))
		}
	}
	res := run(t, []Source{{Label: "first-bundle-label", Rows: rows[0]}, {Label: "second-bundle-label", Rows: rows[1]},
		{Label: "third-bundle-label", Rows: rows[2]}}, Options{Match: []string{"case"}})
	var buf bytes.Buffer
	if err := res.Render(&buf, "text", Notes{Legend: []string{strings.Repeat("word ", 60)}}, false, 0); err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(buf.String(), "\n") {
		if n := utf8.RuneCountInString(line); n > DefaultWidth {
			t.Errorf("line %d is %d columns wide:\n%s", i+1, n, line)
		}
	}
}
