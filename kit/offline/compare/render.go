package compare

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/logbench/logbench/kit/offline/figure"
)

// Notes are what an experiment adds to a comparison: warnings about how the sources
// were measured, and legend lines.
type Notes struct {
	Warnings []string
	Legend   []string
}

// DefaultWidth is the text table's width without --wide.
const DefaultWidth = 120

// Render writes a comparison in format (see Formats). Text and markdown show the hosts
// side by side, then one table per metric; without wide, text leaves out the metrics
// marked Wide and then, table by table, the intervals it needs to fit width columns,
// and says so. JSON and CSV always hold everything, typed: numbers as numbers, a
// missing value as null (JSON) or an empty field (CSV).
func (r Result) Render(w io.Writer, format string, notes Notes, wide bool, width int) error {
	if width <= 0 {
		width = DefaultWidth
	}
	switch format {
	case "text", "":
		return r.text(w, notes, wide, width, false)
	case "markdown":
		return r.text(w, notes, true, 0, true)
	case "json":
		return r.json(w, notes)
	case "csv":
		return r.csv(w)
	}
	return fmt.Errorf("unknown format %q (known: %s)", format, strings.Join(Formats, ", "))
}

// Marked follows a value whose figure is marked as not to be trusted as it stands
// (Row.Marks); the table's footer says why.
const Marked = "?"

// valueText is how the text shows a cell's value.
func valueText(c Cell) string {
	if !c.Present {
		return "-"
	}
	if len(c.Marks) > 0 {
		return Figure(c.Value) + Marked
	}
	return Figure(c.Value)
}

func ciText(c Cell) string {
	if !c.Present || math.IsNaN(c.Low) {
		return ""
	}
	return "[" + Figure(c.Low) + ", " + Figure(c.High) + "]"
}

// changeText is benchstat's mark: the change in % and its p-value when it counts as
// a change, or "~" and why not, with the smallest change the runs could have detected.
func changeText(c Cell, threshold float64) string {
	switch {
	case !c.Present || math.IsNaN(c.ChangePct) && c.Changed == nil:
		return "-"
	case math.IsNaN(c.ChangePct) && !*c.Changed:
		return fmt.Sprintf("~ (p=%s%s)", pValue(c.P), mdeText(c))
	case c.Test == TestTooFewRuns:
		return "~ " + pct(c.ChangePct) + " (too few runs)"
	case c.Changed == nil:
		return pct(c.ChangePct) + " (no test)"
	case c.BelowThreshold:
		return fmt.Sprintf("~ %s (p=%s, <%g%%)", pct(c.ChangePct), pValue(c.P), threshold)
	case !*c.Changed:
		return fmt.Sprintf("~ %s (p=%s%s)", pct(c.ChangePct), pValue(c.P), mdeText(c))
	}
	return fmt.Sprintf("%s (p=%s)", pct(c.ChangePct), pValue(c.P))
}

// mdeText is the smallest change the runs could have detected, beside a "~".
func mdeText(c Cell) string {
	if math.IsNaN(c.MDE) {
		return ""
	}
	return ", MDE " + strings.TrimPrefix(pct(c.MDE), "+")
}

func pct(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "-"
	case math.Abs(v) >= 100:
		return fmt.Sprintf("%+.0f%%", v)
	case math.Abs(v) < 0.05:
		return "0.0%"
	}
	return fmt.Sprintf("%+.1f%%", v)
}

func pValue(p float64) string { return strconv.FormatFloat(p, 'f', 3, 64) }

// text writes the hosts and the metric tables.
func (r Result) text(w io.Writer, notes Notes, wide bool, width int, markdown bool) error {
	// Hosts, one column per source.
	var facts []string
	for _, h := range r.Hosts {
		for _, kv := range h.Host {
			if !contains(facts, kv.Key) {
				facts = append(facts, kv.Key)
			}
		}
	}
	if len(facts) > 0 {
		t := grid{header: [][]string{append([]string{""}, r.Sources...)}}
		for _, f := range facts {
			row := []string{f}
			for _, h := range r.Hosts {
				v := "-"
				for _, kv := range h.Host {
					if kv.Key == f && kv.Value != "" {
						v = kv.Value
					}
				}
				row = append(row, v)
			}
			t.rows = append(t.rows, row)
		}
		if markdown {
			fmt.Fprintf(w, "### Hosts\n\n")
		} else if width > 0 && t.width() > width {
			t = t.wrapCells(width)
		}
		t.write(w, markdown)
		fmt.Fprintln(w)
	}
	var hidden []string
	for _, m := range r.Metrics {
		if m.Wide && !wide {
			hidden = append(hidden, m.Name)
			continue
		}
		title := m.Title
		if m.Unit != "" {
			title += " (" + m.Unit + ")"
		}
		title += ": " + m.Stat
		// Every column; then without the compared columns' intervals; then without any;
		// then the compared columns in several tables, each with the baseline.
		all := make([]int, len(r.Columns))
		for i := range all {
			all[i] = i
		}
		tables := []grid{r.table(m, 0, all)}
		dropped := ""
		for level, note := range []string{"", " (intervals of the compared columns left out to fit; --wide shows them)", " (intervals left out to fit; --wide shows them)"} {
			tables[0], dropped = r.table(m, level, all), note
			if width == 0 || tables[0].width() <= width {
				break
			}
		}
		if width > 0 && tables[0].width() > width && len(all) > 2 {
			tables = nil
			chunk := []int{0}
			for _, i := range all[1:] {
				if next := append(slices.Clone(chunk), i); len(chunk) == 1 || r.table(m, 2, next).width() <= width {
					chunk = next
					continue
				}
				tables = append(tables, r.table(m, 2, chunk))
				chunk = []int{0, i}
			}
			tables = append(tables, r.table(m, 2, chunk))
			dropped = " (intervals left out and columns split to fit; --wide shows them side by side)"
		}
		if markdown {
			fmt.Fprintf(w, "### %s\n\n", title)
		} else {
			fmt.Fprintln(w, wrap(title+dropped, width))
		}
		for i, t := range tables {
			if i > 0 {
				fmt.Fprintln(w)
			}
			t.write(w, markdown)
		}
		if marks := r.marks(m); len(marks) > 0 {
			fmt.Fprintln(w, wrap(Marked+" marked, in no geomean: "+strings.Join(marks, "; "), width))
			if markdown {
				fmt.Fprintln(w)
			}
		}
		for _, s := range m.Summary {
			if s.GeoMeanOf == 0 {
				continue
			}
			fmt.Fprintln(w, wrap(r.summaryText(s), width))
			if markdown {
				fmt.Fprintln(w)
			}
		}
		fmt.Fprintln(w)
	}
	var legend []string
	if len(hidden) > 0 && !markdown {
		legend = append(legend, "Left out (--wide shows them): "+strings.Join(hidden, ", ")+".")
	}
	legend = append(legend, r.legend()...)
	legend = append(legend, notes.Legend...)
	for _, l := range legend {
		if markdown {
			fmt.Fprintf(w, "%s\n\n", l)
		} else {
			fmt.Fprintln(w, wrap(l, width))
		}
	}
	if markdown && len(notes.Warnings) > 0 {
		fmt.Fprintf(w, "### Warnings\n\n")
		for _, warn := range notes.Warnings {
			fmt.Fprintf(w, "- %s\n", strings.TrimPrefix(warn, "WARNING: "))
		}
	}
	return nil
}

// marks lists a metric's marked cells, by column and reason:
// "fifo-py p99 not resolved: none/slow, short1/fast".
func (r Result) marks(m MetricResult) []string {
	var keys []string
	conds := map[string][]string{}
	for i := range r.Columns {
		for _, line := range m.Rows {
			c := line.Cells[i]
			if !c.Present || len(c.Marks) == 0 {
				continue
			}
			for _, mark := range c.Marks {
				k := r.Columns[i].Label + " " + mark
				if _, ok := conds[k]; !ok {
					keys = append(keys, k)
				}
				conds[k] = append(conds[k], conditionText(line.Condition))
			}
		}
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k + ": " + strings.Join(conds[k], ", ")
	}
	return out
}

// summaryText is a column's "k of n changed" and geomean, saying what each rests on.
func (r Result) summaryText(s Summary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s vs %s: ", s.Column, r.Columns[0].Label)
	if s.Compared > 0 {
		fmt.Fprintf(&b, "%d of %d conditions changed (p < %g and |change| >= %g%%; %d with the Bonferroni bound p < %.2g)",
			s.Changed, s.Compared, r.Alpha, r.Threshold, s.Corrected, r.Alpha/float64(s.Compared))
		if s.ChangedMarked > 0 {
			fmt.Fprintf(&b, ", %d of the changes on a marked figure %s", s.ChangedMarked, Marked)
		}
	} else {
		b.WriteString("no condition tested")
	}
	if s.Untested > 0 {
		fmt.Fprintf(&b, ", %d not tested (too few runs or none)", s.Untested)
	}
	b.WriteString("; geomean of ratios ")
	if math.IsNaN(s.GeoMeanRatio) {
		fmt.Fprintf(&b, "none: %d of %d conditions comparable, %d needed", s.GeoMeanOver, s.GeoMeanOf, figure.MinGeomean)
	} else {
		fmt.Fprintf(&b, "%.3fx over %d of %d conditions", s.GeoMeanRatio, s.GeoMeanOver, s.GeoMeanOf)
	}
	var left []string
	if s.LeftOutMarked > 0 {
		left = append(left, fmt.Sprintf("%d marked %s", s.LeftOutMarked, Marked))
	}
	if n := len(s.LeftOut) - s.LeftOutMarked; n > 0 {
		left = append(left, fmt.Sprintf("%d without resolved intervals", n))
	}
	if len(left) > 0 {
		fmt.Fprintf(&b, " (left out: %s)", strings.Join(left, ", "))
	}
	return b.String()
}

// legend says how to read the tables.
func (r Result) legend() []string {
	return []string{
		fmt.Sprintf("Figures: each run's figure (its p99, its mean rate, ...), then the mean over runs with its 95%% Student-t interval over runs: runs are what vary. One run gives a figure and no interval. verify, report and the JSON and CSV give every figure with this same interval."),
		fmt.Sprintf("vs base: the change against the first column in %%, and the two-sided p-value of Welch's t-test on the two sides' run figures (a one-sample t-test against a published figure). A change counts when p < %g and it is at least %g%% (--threshold); otherwise ~, with MDE: the smallest change these runs could have detected (at p < %g with %g%% power). A side of one run gives no p-value (too few runs).", r.Alpha, r.Threshold, r.Alpha, figure.Power*100),
		fmt.Sprintf("Multiple comparisons: at p < %g about 1 in 20 unchanged conditions is marked by chance; the Bonferroni count keeps only changes below %g divided by the conditions tested. The geomean is over the comparable conditions only, and over %d at least: both figures positive, with an interval (or published) that does not reach 0, neither marked %s.", r.Alpha, r.Alpha, figure.MinGeomean, Marked),
		"Matched by " + strings.Join(r.Match, ",") + ": rows agree on these keys; a column named [key=value] is the part of a source with that value of a key not matched by (--match sets the keys).",
	}
}

// table lays out one metric: level 0 has every interval, 1 drops the compared columns',
// 2 drops all. A column without any figure of the metric is left out, and so is the
// change when the baseline has none.
func (r Result) table(m MetricResult, level int, cols []int) grid {
	has := make([]bool, len(r.Columns))
	hasCI := make([]bool, len(r.Columns))
	for _, line := range m.Rows {
		for i, c := range line.Cells {
			has[i] = has[i] || c.Present
			hasCI[i] = hasCI[i] || c.Present && !math.IsNaN(c.Low)
		}
	}
	for i := range has {
		if !slices.Contains(cols, i) {
			has[i] = false
		}
	}
	showCI := func(i int) bool { return hasCI[i] && (level == 0 || level == 1 && i == 0) }
	showChange := func(i int) bool { return i > 0 && has[0] }
	groupHead := []string{strings.Join(r.Match, "/")}
	subHead := []string{""}
	for i, c := range r.Columns {
		if !has[i] {
			continue
		}
		groupHead = append(groupHead, c.Label)
		subHead = append(subHead, m.Unit)
		if showCI(i) {
			groupHead, subHead = append(groupHead, ""), append(subHead, "95% CI")
		}
		if showChange(i) {
			groupHead, subHead = append(groupHead, ""), append(subHead, "vs base")
		}
	}
	g := grid{header: [][]string{groupHead, subHead}, spans: true}
	for _, line := range m.Rows {
		var vals []string
		for _, kv := range line.Condition {
			vals = append(vals, kv.Value)
		}
		row := []string{strings.Join(vals, "/")}
		for i, c := range line.Cells {
			if !has[i] {
				continue
			}
			row = append(row, valueText(c))
			if showCI(i) {
				row = append(row, ciText(c))
			}
			if showChange(i) {
				row = append(row, changeText(c, r.Threshold))
			}
		}
		g.rows = append(g.rows, row)
	}
	anyGeomean := false
	for i, sum := range m.Summary {
		anyGeomean = anyGeomean || has[i+1] && sum.GeoMeanOver > 0
	}
	if anyGeomean && has[0] {
		row := []string{"geomean"}
		for i := range r.Columns {
			if !has[i] {
				continue
			}
			cell := ""
			var s Summary
			if i > 0 {
				s = m.Summary[i-1]
				if !math.IsNaN(s.GeoMeanRatio) {
					cell = fmt.Sprintf("%.3fx", s.GeoMeanRatio)
				}
			}
			row = append(row, cell)
			if showCI(i) {
				row = append(row, "")
			}
			if showChange(i) {
				row = append(row, pct((s.GeoMeanRatio-1)*100))
			}
		}
		g.rows = append(g.rows, row)
	}
	return g
}

// grid is a text table: header lines and rows, columns two spaces apart. With spans, a
// non-empty cell of the first header line may run over the empty cells after it (a
// column's label over its value, interval and change).
type grid struct {
	header [][]string
	rows   [][]string
	spans  bool
}

func (g grid) widths() []int {
	n := 0
	for _, r := range append(g.header, g.rows...) {
		n = max(n, len(r))
	}
	w := make([]int, n)
	for i, r := range append(g.header[len(g.header)-1:], g.rows...) {
		_ = i
		for j, c := range r {
			w[j] = max(w[j], utf8.RuneCountInString(c))
		}
	}
	if !g.spans {
		for _, r := range g.header {
			for j, c := range r {
				w[j] = max(w[j], utf8.RuneCountInString(c))
			}
		}
		return w
	}
	// A spanning label widens the last column of its span if it does not fit.
	top := g.header[0]
	for j := 0; j < len(top); j++ {
		if top[j] == "" {
			continue
		}
		end := j + 1
		for end < len(top) && top[end] == "" {
			end++
		}
		have := 0
		for k := j; k < end; k++ {
			have += w[k]
		}
		have += 2 * (end - j - 1)
		if need := utf8.RuneCountInString(top[j]); need > have {
			w[end-1] += need - have
		}
	}
	return w
}

// wrapCells breaks the cells after the first column at spaces, over as many lines as
// they need, so that the table fits width columns where the words allow.
func (g grid) wrapCells(width int) grid {
	n := len(g.header[0]) - 1
	first := g.widths()[0]
	each := max(12, (width-first-2*n)/max(1, n))
	out := grid{header: g.header, spans: g.spans}
	for _, r := range g.rows {
		var cols [][]string
		lines := 1
		for _, c := range r[1:] {
			parts := strings.Split(wrap(c, each), "\n")
			for i := range parts {
				parts[i] = strings.TrimSpace(parts[i])
			}
			cols = append(cols, parts)
			lines = max(lines, len(parts))
		}
		for l := range lines {
			row := []string{""}
			if l == 0 {
				row[0] = r[0]
			}
			for _, parts := range cols {
				cell := ""
				if l < len(parts) {
					cell = parts[l]
				}
				row = append(row, cell)
			}
			out.rows = append(out.rows, row)
		}
	}
	return out
}

func (g grid) width() int {
	total := 0
	for _, x := range g.widths() {
		total += x + 2
	}
	return total - 2
}

func (g grid) write(w io.Writer, markdown bool) {
	if markdown {
		head := g.header[len(g.header)-1]
		if g.spans {
			// One header line: the column's label on its value.
			head = make([]string, len(g.header[0]))
			for j := range head {
				head[j] = strings.TrimSpace(g.header[0][j] + " " + g.header[1][j])
			}
		}
		fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
		for _, r := range g.rows {
			fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
		}
		fmt.Fprintln(w)
		return
	}
	widths := g.widths()
	line := func(cells []string, spanning bool) {
		var b strings.Builder
		for j := 0; j < len(cells); j++ {
			c := cells[j]
			wd := widths[j]
			if spanning && c != "" {
				end := j + 1
				for end < len(cells) && cells[end] == "" {
					wd += 2 + widths[end]
					end++
				}
				j = end - 1
			}
			pad := wd - utf8.RuneCountInString(c)
			if j == len(cells)-1 {
				pad = 0
			}
			b.WriteString(c + strings.Repeat(" ", max(0, pad)))
			if j < len(cells)-1 {
				b.WriteString("  ")
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	for i, h := range g.header {
		line(h, g.spans && i == 0)
	}
	for _, r := range g.rows {
		line(r, false)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// num is a JSON number that is null when missing.
func num(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// JSONRow is one row of the JSON and CSV outputs: one metric of one condition of one
// column.
type JSONRow struct {
	Experiment string            `json:"experiment"`
	Metric     string            `json:"metric"`
	Unit       string            `json:"unit"`
	Condition  map[string]string `json:"condition"` // every key: the matched ones and the column's own
	Source     string            `json:"source"`
	Column     string            `json:"column"`
	Baseline   bool              `json:"baseline"`
	Present    bool              `json:"present"`
	Runs       int               `json:"runs"`
	Values     int               `json:"values"` // values the figure rests on: requests, seconds, trials, runs
	Value      *float64          `json:"value"`
	Low        *float64          `json:"low"`
	High       *float64          `json:"high"`
	Ratio      *float64          `json:"ratio"`
	ChangePct  *float64          `json:"change_pct"`
	ChangeLow  *float64          `json:"change_low_pct"`
	ChangeHi   *float64          `json:"change_high_pct"`
	P          *float64          `json:"p"`
	// MDE is the smallest change in % these runs could have detected; null without a test.
	MDE *float64 `json:"mde_pct"`
	// Test is how the change was judged: "welch t", "one-sample t", "too few runs",
	// "no runs"; "" in the baseline and where a side is missing.
	Test string `json:"test"`
	// Changed is null where there is no test (the baseline, a missing side, too few
	// runs); BelowThreshold says p < alpha but the change is under the threshold.
	Changed        *bool `json:"changed"`
	BelowThreshold bool  `json:"below_threshold"`
	// Marks say why the figure is not to be trusted as it stands (empty: nothing).
	Marks []string `json:"marks"`
	// Comparable says the row counts in its column's geomean.
	Comparable bool `json:"comparable"`
}

// Records are the comparison as flat rows, baseline first within each condition.
func (r Result) Records() []JSONRow {
	var out []JSONRow
	for _, m := range r.Metrics {
		for _, line := range m.Rows {
			for i, c := range line.Cells {
				col := r.Columns[i]
				cond := map[string]string{}
				for _, kv := range line.Condition {
					cond[kv.Key] = kv.Value
				}
				for _, kv := range col.Extra {
					cond[kv.Key] = kv.Value
				}
				row := JSONRow{Experiment: r.Experiment, Metric: m.Name, Unit: m.Unit, Condition: cond, Source: col.Source, Column: col.Label, Baseline: i == 0,
					Present: c.Present, Runs: c.Runs, Values: c.Requests, Value: num(c.Value), Low: num(c.Low), High: num(c.High),
					Ratio: num(c.Ratio), ChangePct: num(c.ChangePct), ChangeLow: num(c.ChangeLow), ChangeHi: num(c.ChangeHigh), P: num(c.P), MDE: num(c.MDE),
					Test: c.Test, Changed: c.Changed, BelowThreshold: c.BelowThreshold, Marks: append([]string{}, c.Marks...), Comparable: c.Comparable}
				out = append(out, row)
			}
		}
	}
	return out
}

// SchemaOf names the layout of a command's JSON document: logbench/<command>/v1. Every
// document the kit prints begins with it.
func SchemaOf(command string) string { return "logbench/" + command + "/v1" }

// Document is compare --format json: the comparison's settings, the hosts, each
// metric's summaries, every row, the warnings and the legend.
type Document struct {
	Schema     string       `json:"schema"` // logbench/compare/v1
	Experiment string       `json:"experiment"`
	Sources    []string     `json:"sources"`
	Baseline   string       `json:"baseline"`
	Match      []string     `json:"match"`
	Alpha      float64      `json:"alpha"`
	Threshold  float64      `json:"threshold_pct"`
	Hosts      []HostJSON   `json:"hosts"`
	Metrics    []MetricJSON `json:"metrics"`
	Rows       []JSONRow    `json:"rows"`
	Warnings   []string     `json:"warnings"`
	Legend     []string     `json:"legend"`
}

// HostJSON is one source's machine.
type HostJSON struct {
	Source string            `json:"source"`
	Facts  map[string]string `json:"facts"`
}

// MetricJSON is one metric and its summary per column.
type MetricJSON struct {
	Metric    string        `json:"metric"`
	Title     string        `json:"title"`
	Unit      string        `json:"unit"`
	Statistic string        `json:"statistic"`
	Summary   []SummaryJSON `json:"summary"`
}

// SummaryJSON is one column's summary of a metric against the baseline.
type SummaryJSON struct {
	Column       string   `json:"column"`
	Changed      int      `json:"changed"`
	Compared     int      `json:"compared"`
	Bonferroni   int      `json:"changed_bonferroni"`
	Marked       int      `json:"changed_marked"`
	Untested     int      `json:"untested"`
	GeoMeanRatio *float64 `json:"geomean_ratio"`
	GeoMeanOver  int      `json:"geomean_over"`
	GeoMeanOf    int      `json:"geomean_of"`
	LeftOut      []string `json:"geomean_left_out"`
}

// Document is the comparison as compare --format json prints it.
func (r Result) Document(notes Notes) Document {
	doc := Document{Schema: SchemaOf("compare"), Experiment: r.Experiment, Sources: r.Sources, Match: r.Match, Alpha: r.Alpha, Threshold: r.Threshold, Rows: r.Records(),
		Warnings: append([]string{}, notes.Warnings...), Legend: append(r.legend(), notes.Legend...)}
	if len(r.Sources) > 0 {
		doc.Baseline = r.Sources[0]
	}
	for _, h := range r.Hosts {
		f := map[string]string{}
		for _, kv := range h.Host {
			f[kv.Key] = kv.Value
		}
		doc.Hosts = append(doc.Hosts, HostJSON{h.Label, f})
	}
	for _, m := range r.Metrics {
		mm := MetricJSON{Metric: m.Name, Title: m.Title, Unit: m.Unit, Statistic: m.Stat, Summary: []SummaryJSON{}}
		for _, s := range m.Summary {
			mm.Summary = append(mm.Summary, SummaryJSON{s.Column, s.Changed, s.Compared, s.Corrected, s.ChangedMarked, s.Untested, num(s.GeoMeanRatio), s.GeoMeanOver,
				s.GeoMeanOf, append([]string{}, s.LeftOut...)})
		}
		doc.Metrics = append(doc.Metrics, mm)
	}
	return doc
}

func (r Result) json(w io.Writer, notes Notes) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r.Document(notes))
}

// csv writes the rows, one line per metric, condition and column: plain ASCII, numbers
// in full, empty fields for missing values, the interval in two columns.
func (r Result) csv(w io.Writer) error {
	cw := csv.NewWriter(w)
	header := []string{"experiment", "metric", "unit"}
	header = append(header, r.Keys...)
	header = append(header, "source", "column", "baseline", "runs", "values", "value", "low", "high",
		"ratio", "change_pct", "change_low_pct", "change_high_pct", "p", "mde_pct", "test", "changed", "below_threshold", "marks", "comparable")
	cw.Write(header)
	f := func(v *float64) string {
		if v == nil {
			return ""
		}
		return strconv.FormatFloat(*v, 'g', -1, 64)
	}
	for _, row := range r.Records() {
		rec := []string{r.Experiment, row.Metric, row.Unit}
		for _, k := range r.Keys {
			rec = append(rec, row.Condition[k])
		}
		changed := ""
		if row.Changed != nil {
			changed = strconv.FormatBool(*row.Changed)
		}
		runs, reqs := "", ""
		if row.Present {
			runs, reqs = strconv.Itoa(row.Runs), strconv.Itoa(row.Values)
		}
		rec = append(rec, row.Source, row.Column, strconv.FormatBool(row.Baseline), runs, reqs, f(row.Value), f(row.Low), f(row.High),
			f(row.Ratio), f(row.ChangePct), f(row.ChangeLow), f(row.ChangeHi), f(row.P), f(row.MDE), row.Test, changed,
			strconv.FormatBool(row.BelowThreshold), strings.Join(row.Marks, "; "), strconv.FormatBool(row.Comparable))
		for i, c := range rec {
			rec[i] = ascii(c)
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

// ascii replaces anything outside printable ASCII (a label from a folder name) with '?'.
func ascii(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e {
			return '?'
		}
		return r
	}, s)
}

// wrap breaks text at spaces into lines of at most width runes (0: no limit), the
// lines after the first indented by two.
func wrap(text string, width int) string {
	if width <= 0 || utf8.RuneCountInString(text) <= width {
		return text
	}
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) > width:
			lines = append(lines, line)
			line = "  " + word
		default:
			line += " " + word
		}
	}
	return strings.Join(append(lines, line), "\n")
}
