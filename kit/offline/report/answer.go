package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/figure"
)

// Answer is how every report opens, the same for every experiment: the question the
// experiment asks, answered in a sentence or two with the figures and their intervals,
// then the one chart that shows it. The verification follows in one line (Verdict), its
// details folded below it.
type Answer struct {
	Question  string
	Sentences []string
	Chart     Figure
}

// Open makes the page open with the experiment's answer: its question, the sentences
// that answer it (their figures stated by Stated, the kit's one statistic) and the
// headline chart. The verification summary of the page's bundles follows them.
func (p *Page) Open(question string, sentences []string, chart Figure) {
	p.Answer = &Answer{Question: question, Sentences: sentences, Chart: chart}
}

// Stated writes a figure as the answer states it: the value and its 95% interval over
// runs as every command of the kit writes them ("2266 [2019, 2513] req/s"), or the
// value and why it has no interval ("2266 req/s (one run: no interval)").
func Stated(e figure.Estimate, unit string) string {
	u := ""
	if unit != "" {
		u = " " + unit
	}
	switch {
	case e.Runs == 0 && !isNaN(e.Value):
		return figure.Text(e.Value) + u + " (published, no interval)"
	case e.Runs == 0:
		return "no figure" + u
	case !e.HasInterval():
		return figure.Text(e.Value) + u + " (one run: no interval)"
	}
	return figure.Text(e.Value) + " " + e.IntervalText() + u
}

func isNaN(v float64) bool { return v != v }

// Verdict is the page's verification in one line: each bundle verified OK or its
// problems, its runs and conditions, and the cautions that weaken its figures, marked
// with compare's mark (?) for a figure not to be trusted as it stands.
func Verdict(bundles []Status) (line string, ok bool) {
	ok = true
	var parts []string
	for _, b := range bundles {
		var s string
		if b.OK {
			s = fmt.Sprintf("%s verified OK: %d runs, %d conditions", b.Label, b.Runs, b.Conditions)
		} else {
			ok = false
			n := len(b.Problems) + b.More
			s = fmt.Sprintf("%s DOES NOT VERIFY: %d %s", b.Label, n, plural(n, "problem", "problems"))
		}
		if b.Cautions > 0 {
			s += fmt.Sprintf("; %s %d %s", Untrusted, b.Cautions, plural(b.Cautions, "caution", "cautions"))
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " · "), ok
}

// Untrusted is the mark of a figure or bundle not to be trusted as it stands: compare's.
const Untrusted = compare.Marked

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// StatedRow is Stated of a row's figure (compare.Estimate, as compare and verify state
// it), its value marked Untrusted when the row is marked, as compare marks it.
func StatedRow(r compare.Row, unit string) string {
	s := Stated(compare.Estimate(r), unit)
	if len(r.Marks) == 0 {
		return s
	}
	if i := strings.IndexAny(s, " "); i > 0 {
		return s[:i] + Untrusted + s[i:]
	}
	return s + Untrusted
}

// RowOf finds the row of a metric whose condition has every one of the keys and values
// given.
func RowOf(rows []compare.Row, metric string, cond ...compare.KV) (compare.Row, bool) {
next:
	for _, r := range rows {
		if r.Metric != metric {
			continue
		}
		for _, want := range cond {
			if !slices.Contains(r.Condition, want) {
				continue next
			}
		}
		return r, true
	}
	return compare.Row{}, false
}

// Marked says whether any of the rows is marked: the answer then says what the mark
// means.
func Marked(rows ...compare.Row) bool {
	for _, r := range rows {
		if len(r.Marks) > 0 {
			return true
		}
	}
	return false
}
