package compare

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// The comparison engine: any experiment hands it, per source, rows of (condition,
// metric, unit, per-run values) and gets benchstat's table back: one row per condition
// and metric, each source's value with its 95% interval, the change against the
// baseline in %, and a significance mark from a test that respects runs.
//
// The test is a hierarchical bootstrap: a resample draws the runs with replacement,
// then within each drawn run its values (a run's requests, say) with replacement, and
// computes the metric's statistic over the pooled draw. A source's interval is the
// central 95% of its resamples; a change's interval pairs the two sources' i-th
// resamples (they are independent: nothing pairs one bundle's runs with another's), and
// its two-sided p-value is twice the smaller share of resampled differences on either
// side of zero. A change is counted when p < Alpha and it is at least Threshold % of
// the baseline (a practical threshold: a smaller change is never counted, whatever its
// p); otherwise it is "~". A side with runs needs two of them at least: with one run
// there is no variation between runs to resample, so no p-value is claimed ("too few
// runs"). A side without runs (a published figure) is fixed in every resample.
//
// Runs are the unit that is resampled first because runs are what vary: the requests of
// one run share its host's state, so pooling them and resampling requests alone (as
// this package once did) takes 480 correlated requests for 480 independent ones and
// gives intervals far too narrow. With few runs (3 per side) the bootstrap over runs is
// coarse: it cannot see variation between runs beyond the three it has, and it
// understates the spread by a factor of about sqrt((n-1)/n). A rank test on the per-run
// values (Mann-Whitney U) would be exact but cannot say more than p = 0.1 with 3 runs
// a side (the smallest two-sided p of 3 against 3 is 2/20), so it could never mark
// anything at 0.05: the bootstrap's interval is the better guide, read with that in
// mind.
//
// Every resampling is seeded from the row's own content (metric, condition, values),
// never from a source's position or label: the same bundle gives the same interval
// wherever it stands on the command line and whatever else is compared.

// KV is one axis of a condition and its value: api=go.
type KV struct{ Key, Value string }

// Statistic is what a metric computes over a (resampled) pool of values. The engine
// gives it the pooled values sorted, each with how many times the resample drew it, so
// that a quantile or a mean costs O(n) per resample with no sort.
type Statistic interface {
	Of(sorted []float64, counts []int32, n int) float64
	// Name says what the statistic is, for the legend: "p99 (nearest rank)".
	Name() string
}

// Quantile is the nearest-rank percentile (0 < p <= 100) of the pooled values, as
// kit/contract/stats.NearestRank computes it.
type Quantile float64

func (q Quantile) Name() string { return fmt.Sprintf("p%g (nearest rank)", float64(q)) }

func (q Quantile) Of(sorted []float64, counts []int32, n int) float64 {
	if n == 0 {
		return math.NaN()
	}
	rank := min(max(int(math.Ceil(float64(q)/100*float64(n))), 1), n) // 1-based
	if float64(q) >= 50 {
		fromTop := n - rank + 1
		seen := 0
		for i := len(sorted) - 1; i >= 0; i-- {
			if seen += int(counts[i]); seen >= fromTop {
				return sorted[i]
			}
		}
	} else {
		seen := 0
		for i := range sorted {
			if seen += int(counts[i]); seen >= rank {
				return sorted[i]
			}
		}
	}
	return math.NaN()
}

// Median is the middle of the pooled values (the mean of the two middle ones for an
// even count), as a median of trials is usually given.
type Median struct{}

func (Median) Name() string { return "median" }

func (Median) Of(sorted []float64, counts []int32, n int) float64 {
	if n == 0 {
		return math.NaN()
	}
	lo, hi := (n-1)/2, n/2 // 0-based ranks of the middle values
	var a, b float64
	seen := 0
	found := 0
	for i, v := range sorted {
		next := seen + int(counts[i])
		if found == 0 && lo < next {
			a, found = v, 1
		}
		if found == 1 && hi < next {
			b = v
			break
		}
		seen = next
	}
	return (a + b) / 2
}

// Mean is the arithmetic mean of the pooled values. A per-run figure (a drain, a
// throughput) is a run of one value, and its Mean is the mean over runs.
type Mean struct{}

func (Mean) Name() string { return "mean" }

func (Mean) Of(sorted []float64, counts []int32, n int) float64 {
	if n == 0 {
		return math.NaN()
	}
	var sum float64
	for i, v := range sorted {
		sum += v * float64(counts[i])
	}
	return sum / float64(n)
}

// Row is one metric of one condition of one source, as an experiment gives it.
type Row struct {
	// Condition is the condition's axes in the experiment's order.
	Condition []KV
	Metric    string // "p99_ms": names the metric in every output
	Unit      string // "ms", "s", "req/s", "B", "cores"
	// Runs are each run's values: a run's request latencies, or one value for a per-run
	// figure. Empty for a figure without its runs (a published one).
	Runs [][]float64
	// Stat computes the metric from pooled values (nil: Mean).
	Stat Statistic
	// Value is the figure itself; NaN: Stat over every run's values pooled.
	Value float64
	// Requests counts what the value rests on, for the reader (0: the values counted).
	Requests int
	// Marks say why the figure is not to be trusted as it stands ("p99 not resolved",
	// "wrk disagrees", "2 of 3 runs noisy"): every output shows them, and a marked row
	// counts in no geomean.
	Marks []string
}

// Measured is a row whose value is the statistic of its runs.
func Measured(cond []KV, metric, unit string, stat Statistic, runs [][]float64) Row {
	return Row{Condition: cond, Metric: metric, Unit: unit, Stat: stat, Runs: runs, Value: math.NaN()}
}

// Fixed is a row of a figure without runs: no interval, and a change against it is
// judged by the other side's resamples alone.
func Fixed(cond []KV, metric, unit string, value float64) Row {
	return Row{Condition: cond, Metric: metric, Unit: unit, Value: value}
}

// Source is one side of a comparison: a bundle, or a publication's figures.
type Source struct {
	Label string
	Rows  []Row
	// Hosts are facts about where it was measured, in order ("host", "vm"); the text
	// lists them side by side.
	Host []KV
}

// Metric describes one metric for the tables: its title and whether it is shown
// without --wide.
type Metric struct {
	Name  string // as Row.Metric
	Title string // "p99 latency"
	// Wide metrics appear only with Options.Wide.
	Wide bool
}

// Options tune a comparison; the zero value takes the defaults.
type Options struct {
	// Match names the condition keys that must agree for two rows to be compared (e.g.
	// mode,reader to set one API against another). Empty: every key that varies within
	// some source, or agrees across sources (see Compare).
	Match     []string
	Resamples int     // per source and row (DefaultResamples)
	Alpha     float64 // significance level (0.05)
	// Threshold is the practical threshold in %: a change smaller than it is never
	// counted as changed. 0 takes DefaultThreshold; negative is none.
	Threshold float64
	Seed      uint64 // mixed into every row's seed (DefaultSeed)
	// Metrics orders and titles the metrics; a metric not listed comes after, as named.
	Metrics []Metric
	// Experiment names the experiment in the JSON and CSV.
	Experiment string
}

// Result is a comparison: the first source is the baseline.
type Result struct {
	Experiment string // the experiment's name, for the JSON and CSV

	Sources []string // labels, baseline first
	Keys    []string // condition keys, in order
	Match   []string // the keys rows were matched by
	// Columns are the compared columns, per source: its label, and the values of the
	// keys it was not matched by when they split it (a source with two APIs matched by
	// mode,reader is two columns).
	Columns []Column
	Metrics []MetricResult
	Hosts   []Source // the sources' Host facts, with their labels
	Alpha   float64
	// Threshold is the practical threshold in % (0: none).
	Threshold float64
	// Resamples is how many bootstrap resamples each interval rests on.
	Resamples int
}

// Column is one side of the table.
type Column struct {
	Source string // the source's label
	Label  string // the column's name: the label, with split-out keys as "[api=go]"
	Extra  []KV   // the keys it was not matched by, when they split its source
}

// MetricResult is one metric's table.
type MetricResult struct {
	Metric
	Unit string
	Stat string // the statistic's name
	Rows []Line
	// Summary is, per column but the baseline, how many conditions changed, and the
	// geometric mean of the ratios to the baseline.
	Summary []Summary
}

// Line is one condition of one metric: every column's cell.
type Line struct {
	Condition []KV // the matched keys
	Cells     []Cell
}

// Cell is one column's figure for a condition; an absent one has Present false and
// NaNs.
type Cell struct {
	Present  bool
	Value    float64
	Low      float64 // 95% interval; NaN without runs
	High     float64
	Runs     int // runs the value rests on (0 for a fixed figure)
	Requests int // values pooled, or the row's Requests
	// Against the baseline (NaN in the baseline column and where either is missing).
	Ratio      float64 // value / baseline's
	ChangePct  float64 // (ratio - 1) * 100
	ChangeLow  float64 // 95% interval of the change, in %
	ChangeHigh float64
	P          float64 // two-sided bootstrap p-value of the difference; NaN without a test
	// Test says how the change was judged: TestBootstrap, TestTooFewRuns (a side has
	// one run), TestNone (neither side has runs); "" in the baseline column.
	Test string
	// Changed is P < Alpha with a change of at least the threshold; nil without a test.
	Changed *bool
	// BelowThreshold says P < Alpha but the change is smaller than the threshold.
	BelowThreshold bool
	// Marks are the row's (Row.Marks).
	Marks []string
	// Comparable says the cell counts in the geomean: both sides present, positive,
	// finite and unmarked.
	Comparable bool
}

// How a change was judged (Cell.Test).
const (
	TestBootstrap  = "bootstrap"
	TestTooFewRuns = "too few runs"
	TestNone       = "no runs"
)

// Summary is one column's "k of n conditions changed".
type Summary struct {
	Column    string
	Changed   int // p < Alpha and at least the threshold
	Compared  int // conditions with a test
	Corrected int // changed with p < Alpha / Compared (Bonferroni): changes that survive the number of tests
	// ChangedMarked counts the changes of which either side is marked (Row.Marks).
	ChangedMarked int
	// Untested counts the conditions both sides have that could not be tested (too few
	// runs, or no runs).
	Untested int
	// GeoMeanRatio is the geometric mean of the ratios to the baseline over the
	// comparable conditions (Cell.Comparable); NaN for none.
	GeoMeanRatio float64
	GeoMeanOver  int
	// GeoMeanOf counts the conditions both sides have; LeftOut names those not in the
	// geomean, with why ("json-sync/slow: p99 not resolved").
	GeoMeanOf int
	LeftOut   []string
	// LeftOutMarked counts those of LeftOut that are marked (the others are not both
	// positive).
	LeftOutMarked int
}

// DefaultResamples is how many bootstrap resamples a confidence interval rests on.
const DefaultResamples = 2000

// DefaultThreshold is the practical threshold, in %.
const DefaultThreshold = 1.0

// DefaultSeed is mixed into every row's seed.
const DefaultSeed = 0x6c6f6762656e6368 // "logbench"

// Compare matches the sources' rows condition by condition and metric by metric; the
// first source is the baseline. Rows are matched by opt.Match; by default by every key
// but those constant within each source and different between them (two bundles of one
// API each are matched by the other keys, their APIs shown in their columns).
func Compare(sources []Source, opt Options) (Result, error) {
	if opt.Resamples <= 0 {
		opt.Resamples = DefaultResamples
	}
	if opt.Alpha <= 0 {
		opt.Alpha = 0.05
	}
	if opt.Seed == 0 {
		opt.Seed = DefaultSeed
	}
	switch {
	case opt.Threshold == 0:
		opt.Threshold = DefaultThreshold
	case opt.Threshold < 0:
		opt.Threshold = 0
	}
	res := Result{Experiment: opt.Experiment, Alpha: opt.Alpha, Resamples: opt.Resamples, Threshold: opt.Threshold}
	for _, s := range sources {
		res.Sources = append(res.Sources, s.Label)
		res.Hosts = append(res.Hosts, Source{Label: s.Label, Host: s.Host})
		for _, r := range s.Rows {
			for _, kv := range r.Condition {
				if !slices.Contains(res.Keys, kv.Key) {
					res.Keys = append(res.Keys, kv.Key)
				}
			}
		}
	}
	match := opt.Match
	if len(match) == 0 {
		match = defaultMatch(sources, res.Keys)
	}
	for _, k := range match {
		if !slices.Contains(res.Keys, k) {
			return res, fmt.Errorf("--match %s: no condition has %q (keys: %s)", strings.Join(match, ","), k, strings.Join(res.Keys, ", "))
		}
	}
	res.Match = match

	// Columns: each source, split by the values of the keys it is not matched by.
	type colKey struct {
		src   int
		extra string
	}
	colIndex := map[colKey]int{}
	extraOf := func(cond []KV) []KV {
		var out []KV
		for _, kv := range cond {
			if !slices.Contains(match, kv.Key) {
				out = append(out, kv)
			}
		}
		return out
	}
	matchOf := func(cond []KV) []KV {
		var out []KV
		for _, k := range match {
			for _, kv := range cond {
				if kv.Key == k {
					out = append(out, kv)
				}
			}
		}
		return out
	}
	for i, s := range sources {
		for _, r := range s.Rows {
			ex := extraOf(r.Condition)
			k := colKey{i, kvString(ex)}
			if _, ok := colIndex[k]; !ok {
				colIndex[k] = len(res.Columns)
				label := s.Label
				if len(ex) > 0 {
					label += "[" + kvString(ex) + "]"
				}
				res.Columns = append(res.Columns, Column{Source: s.Label, Label: label, Extra: ex})
			}
		}
		if !slices.ContainsFunc(res.Columns, func(c Column) bool { return c.Source == s.Label }) {
			colIndex[colKey{i, ""}] = len(res.Columns)
			res.Columns = append(res.Columns, Column{Source: s.Label, Label: s.Label})
		}
	}

	// Metrics in the order asked for, then as they come.
	var metricOrder []string
	for _, m := range opt.Metrics {
		metricOrder = append(metricOrder, m.Name)
	}
	units := map[string]string{}
	stats := map[string]string{}
	for _, s := range sources {
		for _, r := range s.Rows {
			if !slices.Contains(metricOrder, r.Metric) {
				metricOrder = append(metricOrder, r.Metric)
			}
			if units[r.Metric] == "" {
				units[r.Metric] = r.Unit
			}
			if stats[r.Metric] == "" && r.Stat != nil {
				stats[r.Metric] = r.Stat.Name()
			}
		}
	}

	// Conditions come in the order the measured sources give them, then any that only
	// a source of fixed figures (the published) has.
	var scan, fixed []int
	for i, s := range sources {
		if slices.ContainsFunc(s.Rows, func(r Row) bool { return len(r.Runs) > 0 }) {
			scan = append(scan, i)
		} else {
			fixed = append(fixed, i)
		}
	}
	scan = append(scan, fixed...)

	for _, metric := range metricOrder {
		desc := Metric{Name: metric, Title: metric}
		for _, m := range opt.Metrics {
			if m.Name == metric {
				desc = m
			}
		}
		mr := MetricResult{Metric: desc, Unit: units[metric], Stat: stats[metric]}
		if mr.Stat == "" {
			mr.Stat = "given"
		}
		var conds []string
		byCond := map[string]*Line{}
		rowsOf := map[string][]*Row{}
		for _, i := range scan {
			s := sources[i]
			for j := range s.Rows {
				r := &s.Rows[j]
				if r.Metric != metric {
					continue
				}
				m := matchOf(r.Condition)
				key := kvString(m)
				if _, ok := byCond[key]; !ok {
					conds = append(conds, key)
					byCond[key] = &Line{Condition: m, Cells: make([]Cell, len(res.Columns))}
					rowsOf[key] = make([]*Row, len(res.Columns))
				}
				c := colIndex[colKey{i, kvString(extraOf(r.Condition))}]
				if rowsOf[key][c] != nil {
					return res, fmt.Errorf("%s: two rows of %s for %s in one column: --match %s leaves them apart (match by more keys)",
						s.Label, metric, key, strings.Join(match, ","))
				}
				rowsOf[key][c] = r
			}
		}
		if len(conds) == 0 {
			continue
		}
		summaries := make([]Summary, len(res.Columns))
		logSums := make([]float64, len(res.Columns))
		for _, key := range conds {
			line := byCond[key]
			var base []float64
			for c, r := range rowsOf[key] {
				if r == nil {
					line.Cells[c] = absent()
					continue
				}
				cell, boot := evaluate(r, opt.Resamples, opt.Seed)
				if c == 0 {
					base = boot
					if len(base) == 0 {
						base = nil
					}
				} else if b := line.Cells[0]; b.Present {
					against(&cell, b, base, boot, opt.Alpha, opt.Threshold)
				}
				line.Cells[c] = cell
				if c == 0 || !cell.Present || !line.Cells[0].Present {
					continue
				}
				s := &summaries[c]
				s.GeoMeanOf++
				if cell.Changed != nil {
					s.Compared++
					if *cell.Changed {
						s.Changed++
						if len(cell.Marks) > 0 || len(line.Cells[0].Marks) > 0 {
							s.ChangedMarked++
						}
					}
				} else {
					s.Untested++
				}
				if why, marked := incomparable(line.Cells[0], cell); why != "" {
					s.LeftOut = append(s.LeftOut, conditionText(line.Condition)+": "+why)
					if marked {
						s.LeftOutMarked++
					}
					continue
				}
				line.Cells[c].Comparable = true
				logSums[c] += math.Log(cell.Ratio)
				s.GeoMeanOver++
			}
			mr.Rows = append(mr.Rows, *line)
		}
		for c := range res.Columns {
			summaries[c].Column = res.Columns[c].Label
			summaries[c].GeoMeanRatio = math.NaN()
			if summaries[c].GeoMeanOver > 0 {
				summaries[c].GeoMeanRatio = math.Exp(logSums[c] / float64(summaries[c].GeoMeanOver))
			}
		}
		// Bonferroni: the changes that stay below Alpha divided by the tests made.
		for _, line := range mr.Rows {
			for c, cell := range line.Cells {
				if c > 0 && cell.Changed != nil && *cell.Changed && cell.P < opt.Alpha/float64(summaries[c].Compared) {
					summaries[c].Corrected++
				}
			}
		}
		if len(summaries) > 1 {
			mr.Summary = summaries[1:]
		}
		res.Metrics = append(res.Metrics, mr)
	}
	return res, nil
}

// defaultMatch is every key but those that are constant within each source and differ
// between sources: those name what the sources are (their API), not what is compared.
func defaultMatch(sources []Source, keys []string) []string {
	var out []string
	for _, k := range keys {
		values := map[string]bool{}
		constant := true
		for _, s := range sources {
			own := map[string]bool{}
			for _, r := range s.Rows {
				for _, kv := range r.Condition {
					if kv.Key == k {
						own[kv.Value] = true
						values[kv.Value] = true
					}
				}
			}
			if len(own) > 1 {
				constant = false
			}
		}
		if constant && len(values) > 1 && len(sources) > 1 {
			continue
		}
		out = append(out, k)
	}
	return out
}

// incomparable says why a cell and its baseline b count in no geomean ("" when they
// do): a ratio needs both values positive and finite, and a figure marked as not
// trusted would carry its doubt into the mean.
func incomparable(b, c Cell) (why string, marked bool) {
	switch {
	case len(b.Marks) > 0:
		return strings.Join(b.Marks, ", "), true
	case len(c.Marks) > 0:
		return strings.Join(c.Marks, ", "), true
	case !(b.Value > 0) || math.IsInf(b.Value, 0) || !(c.Value > 0) || math.IsInf(c.Value, 0) || !(c.Ratio > 0) || math.IsInf(c.Ratio, 0):
		return "not both positive", false
	}
	return "", false
}

// conditionText is a condition as the tables show it: its values, "json-sync/slow".
func conditionText(cond []KV) string {
	vals := make([]string, len(cond))
	for i, kv := range cond {
		vals[i] = kv.Value
	}
	return strings.Join(vals, "/")
}

func absent() Cell {
	nan := math.NaN()
	return Cell{Value: nan, Low: nan, High: nan, Ratio: nan, ChangePct: nan, ChangeLow: nan, ChangeHigh: nan, P: nan}
}

// evaluate computes a row's value and interval, and returns its resamples.
func evaluate(r *Row, resamples int, seed uint64) (Cell, []float64) {
	c := absent()
	c.Present = true
	c.Marks = r.Marks
	stat := r.Stat
	if stat == nil {
		stat = Mean{}
	}
	pool := newPool(r.Runs)
	c.Runs, c.Requests = len(pool.runs), pool.n
	if r.Requests > 0 {
		c.Requests = r.Requests
	}
	c.Value = r.Value
	if math.IsNaN(c.Value) && pool.n > 0 {
		c.Value = stat.Of(pool.sorted, pool.all, pool.n)
	}
	if pool.n == 0 {
		return c, nil
	}
	boot := pool.bootstrap(stat, resamples, rngOf(seed, r))
	c.Low, c.High = interval(boot)
	return c, boot
}

// against fills a cell's change to the baseline's cell b.
func against(c *Cell, b Cell, base, boot []float64, alpha, threshold float64) {
	if !c.Present || math.IsNaN(c.Value) || math.IsNaN(b.Value) {
		return
	}
	if b.Value != 0 {
		c.Ratio = c.Value / b.Value
		c.ChangePct = (c.Ratio - 1) * 100
	}
	// A side with runs needs two: one run has no variation between runs to resample.
	if b.Runs == 1 || c.Runs == 1 {
		c.Test = TestTooFewRuns
		return
	}
	// The difference's resamples: pair the i-th of each side; a side without runs is
	// its fixed value in every resample.
	n := max(len(base), len(boot))
	if n == 0 {
		c.Test = TestNone
		return
	}
	c.Test = TestBootstrap
	at := func(s []float64, fixed float64, i int) float64 {
		if len(s) == 0 {
			return fixed
		}
		return s[i]
	}
	diffs := make([]float64, n)
	ratios := make([]float64, 0, n)
	below, above := 0, 0
	for i := range n {
		a, x := at(base, b.Value, i), at(boot, c.Value, i)
		d := x - a
		diffs[i] = d
		if d <= 0 {
			below++
		}
		if d >= 0 {
			above++
		}
		if a != 0 {
			ratios = append(ratios, (x/a-1)*100)
		}
	}
	lo, hi := interval(ratios)
	c.ChangeLow, c.ChangeHigh = lo, hi
	c.P = min(1, 2*float64(min(below, above)+1)/float64(n+1))
	significant := c.P < alpha
	large := math.Abs(c.ChangePct) >= threshold || math.IsNaN(c.ChangePct)
	changed := significant && large
	c.BelowThreshold = significant && !large
	c.Changed = &changed
}

// pool is a row's values sorted, each with the run it came from.
type pool struct {
	sorted []float64
	runs   [][]int // per run: indexes into sorted
	all    []int32 // every count 1: the pool itself
	n      int
}

func newPool(runs [][]float64) pool {
	type tagged struct {
		v   float64
		run int
	}
	var vals []tagged
	for i, r := range runs {
		for _, v := range r {
			if !math.IsNaN(v) {
				vals = append(vals, tagged{v, i})
			}
		}
	}
	slices.SortStableFunc(vals, func(a, b tagged) int { return cmp.Compare(a.v, b.v) })
	p := pool{sorted: make([]float64, len(vals)), all: make([]int32, len(vals)), n: len(vals)}
	members := make([][]int, len(runs))
	for i, t := range vals {
		p.sorted[i], p.all[i] = t.v, 1
		members[t.run] = append(members[t.run], i)
	}
	for _, m := range members {
		if len(m) > 0 {
			p.runs = append(p.runs, m)
		}
	}
	return p
}

// bootstrap draws resamples hierarchically: runs with replacement, then each drawn
// run's values with replacement; it returns the statistic of each, in draw order.
func (p pool) bootstrap(stat Statistic, resamples int, rng *rand.Rand) []float64 {
	if p.n == 0 || resamples <= 0 {
		return nil
	}
	counts := make([]int32, p.n)
	out := make([]float64, resamples)
	for i := range out {
		clear(counts)
		n := 0
		for range p.runs {
			run := p.runs[rng.IntN(len(p.runs))]
			for range run {
				counts[run[rng.IntN(len(run))]]++
			}
			n += len(run)
		}
		out[i] = stat.Of(p.sorted, counts, n)
	}
	return out
}

// rngOf seeds a row's resampling from its content: the same row, the same resamples.
func rngOf(seed uint64, r *Row) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(r.Metric + "\x00" + kvString(r.Condition) + "\x00"))
	var b [8]byte
	for _, run := range r.Runs {
		binary.LittleEndian.PutUint64(b[:], uint64(len(run)))
		h.Write(b[:])
		for _, v := range run {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
			h.Write(b[:])
		}
	}
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

func kvString(kvs []KV) string {
	parts := make([]string, len(kvs))
	for i, kv := range kvs {
		parts[i] = kv.Key + "=" + kv.Value
	}
	return strings.Join(parts, ",")
}
