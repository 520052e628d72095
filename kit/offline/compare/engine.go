package compare

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/logbench/logbench/kit/offline/figure"
)

// The comparison engine: any experiment hands it, per source, rows of (condition,
// metric, unit, per-run values) and gets benchstat's table back: one row per condition
// and metric, each source's figure with its 95% interval, the change against the
// baseline in %, and a significance mark from a test on runs.
//
// Every figure and every test come from kit/offline/figure, the kit's one statistic,
// which verify and report call too: a run's values (its requests' latencies, its
// seconds' counts) are reduced to the run's own figure by the metric's statistic (the
// run's p99, its mean rate), and the figure is the mean of those run figures with its
// Student-t interval over runs; a change is Welch's t-test on the two sides' run
// figures. Runs are the unit because runs are what vary: the requests of one run share
// its host's state. One run gives a figure and no interval, no p-value; a side without
// runs (a published figure) is fixed, and a change against it is a one-sample test. A
// change is counted when p < Alpha and it is at least Threshold % of the baseline (a
// practical threshold: a smaller change is never counted, whatever its p); otherwise it
// is "~", with the smallest change these runs could have detected (MDE) beside it.

// KV is one axis of a condition and its value: api=go.
type KV struct{ Key, Value string }

// Statistic is what a metric computes over one run's values, to give the run's figure.
// The engine gives it the run's values sorted, each with a count (how many times it
// stands), so that a quantile or a mean costs O(n) with no sort.
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
	// Headline marks the figures an experiment is about (qps's requests/s, fifo-stall's
	// p99): reproduce --precision adds rounds until each has a narrow enough interval.
	Headline bool
}

// Measured is a row whose value is the statistic of its runs.
func Measured(cond []KV, metric, unit string, stat Statistic, runs [][]float64) Row {
	return Row{Condition: cond, Metric: metric, Unit: unit, Stat: stat, Runs: runs, Value: math.NaN()}
}

// Fixed is a row of a figure without runs: no interval, and a change against it is
// judged by a one-sample t-test on the other side's runs.
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
	// Headline marks the metric's figures as headline ones (Row.Headline), for an
	// experiment that makes its rows from its metrics (your-api, a declared one of
	// kit/experiment/tabular, where marking none makes each metric one).
	Headline bool
	// Log draws the metric's charts on a log scale: its conditions' figures span orders
	// of magnitude (a line formatted against one fsynced).
	Log bool
}

// Options tune a comparison; the zero value takes the defaults.
type Options struct {
	// Match names the condition keys that must agree for two rows to be compared (e.g.
	// mode,reader to set one API against another). Empty: every key that varies within
	// some source, or agrees across sources (see Compare).
	Match []string
	// Threshold is the practical threshold in %: a change smaller than it is never
	// counted as changed. 0 takes DefaultThreshold; negative is none.
	Threshold float64
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
	Low      float64 // 95% interval over runs (figure.Of); NaN with fewer than 2 runs
	High     float64
	Runs     int // runs the value rests on (0 for a fixed figure)
	Requests int // values the runs' figures rest on, or the row's Requests
	// Estimate is the figure as kit/offline/figure states it: the one statistic.
	Estimate figure.Estimate
	// Against the baseline (NaN in the baseline column and where either is missing).
	Ratio      float64 // value / baseline's
	ChangePct  float64 // (ratio - 1) * 100
	ChangeLow  float64 // 95% interval of the change, in %
	ChangeHigh float64
	P          float64 // two-sided p-value of the test on runs; NaN without a test
	// MDE is the smallest change in % these runs could have detected (figure.Change);
	// NaN without a test.
	MDE float64
	// Test says how the change was judged (figure.Welch, figure.OneSample,
	// figure.TooFewRuns, figure.NoRuns, ...); "" in the baseline column.
	Test string
	// Changed is P < Alpha with a change of at least the threshold; nil without a test.
	Changed *bool
	// BelowThreshold says P < Alpha but the change is smaller than the threshold.
	BelowThreshold bool
	// Marks are the row's (Row.Marks).
	Marks []string
	// Comparable says the cell counts in the geomean: both sides present, positive,
	// unmarked, with intervals resolved from zero (figure.Counts).
	Comparable bool
}

// How a change was judged (Cell.Test): figure's names.
const (
	TestWelch      = figure.Welch
	TestOneSample  = figure.OneSample
	TestTooFewRuns = figure.TooFewRuns
	TestNone       = figure.NoRuns
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
	// comparable conditions (Cell.Comparable); NaN over fewer than figure.MinGeomean.
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

// DefaultThreshold is the practical threshold, in %.
const DefaultThreshold = 1.0

// Compare matches the sources' rows condition by condition and metric by metric; the
// first source is the baseline. Rows are matched by opt.Match; by default by every key
// but those constant within each source and different between them (two bundles of one
// API each are matched by the other keys, their APIs shown in their columns).
func Compare(sources []Source, opt Options) (Result, error) {
	switch {
	case opt.Threshold == 0:
		opt.Threshold = DefaultThreshold
	case opt.Threshold < 0:
		opt.Threshold = 0
	}
	res := Result{Experiment: opt.Experiment, Alpha: figure.Alpha, Threshold: opt.Threshold}
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
		ratios := make([][]float64, len(res.Columns))
		for _, key := range conds {
			line := byCond[key]
			for c, r := range rowsOf[key] {
				if r == nil {
					line.Cells[c] = absent()
					continue
				}
				cell := evaluate(r)
				if b := line.Cells[0]; c > 0 && b.Present {
					against(&cell, b, res.Threshold)
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
				ratios[c] = append(ratios[c], cell.Ratio)
			}
			mr.Rows = append(mr.Rows, *line)
		}
		for c := range res.Columns {
			summaries[c].Column = res.Columns[c].Label
			summaries[c].GeoMeanRatio, _ = figure.Geomean(ratios[c])
			summaries[c].GeoMeanOver = len(ratios[c])
		}
		// Bonferroni: the changes that stay below Alpha divided by the tests made.
		for _, line := range mr.Rows {
			for c, cell := range line.Cells {
				if c > 0 && cell.Changed != nil && *cell.Changed && cell.P < res.Alpha/float64(summaries[c].Compared) {
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
// do): a figure marked as not trusted would carry its doubt into the mean, and the rest
// is figure.Counts (both positive, with intervals resolved from zero).
func incomparable(b, c Cell) (why string, marked bool) {
	switch {
	case len(b.Marks) > 0:
		return strings.Join(b.Marks, ", "), true
	case len(c.Marks) > 0:
		return strings.Join(c.Marks, ", "), true
	}
	return figure.Counts(b.Estimate, c.Estimate), false
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
	return Cell{Value: nan, Low: nan, High: nan, Ratio: nan, ChangePct: nan, ChangeLow: nan, ChangeHigh: nan, P: nan, MDE: nan, Estimate: figure.Of(nil)}
}

// Estimate is a row's figure as the kit states it everywhere: each run reduced to its
// own figure by the row's statistic, then figure.Of over the runs; a row without runs is
// its fixed value.
func Estimate(r Row) figure.Estimate {
	if len(r.Runs) == 0 {
		return figure.Fixed(r.Value)
	}
	perRun, _ := RunFigures(&r)
	return figure.Of(perRun)
}

// evaluate states a row's figure: each run reduced to its own figure by the row's
// statistic, then figure.Of over the runs; a row without runs is its fixed value.
func evaluate(r *Row) Cell {
	c := absent()
	c.Present = true
	c.Marks = r.Marks
	if len(r.Runs) == 0 {
		c.Estimate = figure.Fixed(r.Value)
	} else {
		perRun, n := RunFigures(r)
		c.Estimate = figure.Of(perRun)
		c.Requests = n
	}
	if r.Requests > 0 {
		c.Requests = r.Requests
	}
	c.Value, c.Low, c.High, c.Runs = c.Estimate.Value, c.Estimate.Low, c.Estimate.High, c.Estimate.Runs
	return c
}

// RunFigures are a row's runs each reduced to its figure by the row's statistic (Mean
// without one), a run without values left out; n counts the values they rest on. The
// figure of the row is figure.Of over them, wherever it is shown.
func RunFigures(r *Row) (perRun []float64, n int) {
	stat := r.Stat
	if stat == nil {
		stat = Mean{}
	}
	for _, run := range r.Runs {
		var v []float64
		for _, x := range run {
			if !math.IsNaN(x) {
				v = append(v, x)
			}
		}
		if len(v) == 0 {
			continue
		}
		slices.Sort(v)
		counts := make([]int32, len(v))
		for i := range counts {
			counts[i] = 1
		}
		perRun = append(perRun, stat.Of(v, counts, len(v)))
		n += len(v)
	}
	return perRun, n
}

// against fills a cell's change to the baseline's cell b: figure.Compare, counted as a
// change when significant and at least threshold %.
func against(c *Cell, b Cell, threshold float64) {
	if !c.Present || math.IsNaN(c.Value) || math.IsNaN(b.Value) {
		return
	}
	ch := figure.Compare(b.Estimate, c.Estimate)
	c.Ratio, c.ChangePct, c.ChangeLow, c.ChangeHigh, c.P, c.MDE, c.Test = ch.Ratio, ch.Pct, ch.Low, ch.High, ch.P, ch.MDE, ch.Test
	if !ch.Tested() {
		return
	}
	large := math.Abs(c.ChangePct) >= threshold || math.IsNaN(c.ChangePct)
	changed := ch.Significant() && large
	c.BelowThreshold = ch.Significant() && !large
	c.Changed = &changed
}

func kvString(kvs []KV) string {
	parts := make([]string, len(kvs))
	for i, kv := range kvs {
		parts[i] = kv.Key + "=" + kv.Value
	}
	return strings.Join(parts, ",")
}
