package linecost

import (
	"fmt"
	"slices"

	lc "github.com/logbench/logbench/kit/incontainer/linecost"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/report"
)

// Ordering is one of the seed's findings checked against a language's figures: the
// fidelity checks are its orderings and ratios, not its absolute nanoseconds.
type Ordering struct {
	Language string
	Claim    string
	// Holds says whether the figures bear the claim out; Clear whether their intervals
	// do too (they do not overlap the wrong way), and NoInterval that a figure has none
	// (one run). Measured is false when a way it needs was not measured.
	Holds, Clear, NoInterval, Measured bool
	// Unjudged is a claim the language's clocks cannot decide (Evidence says why).
	Unjudged bool
	Evidence string
}

// State is the verdict in words.
func (o Ordering) State() string {
	switch {
	case o.Unjudged:
		return "cannot be judged"
	case !o.Measured:
		return "not measured"
	case o.Holds && o.Clear:
		return "holds"
	case o.Holds && o.NoInterval:
		return "holds by the figures (one run: no interval)"
	case o.Holds:
		return "holds by the figures (the intervals overlap)"
	}
	return "DOES NOT HOLD"
}

// The seed's findings, as thresholds.
const (
	// FsyncFactor is what ">>" asks of fsync against an unbuffered write: the seed
	// finds about three orders of magnitude; ten times is the least that is "much".
	FsyncFactor = 10
	// EagerShare is "most of a written line": the seed's 43.7 ns against 58.4 ns is
	// 75 per cent; more than half is most.
	EagerShare = 0.5
)

// Orderings checks the seed's findings for each language of conds.
func Orderings(conds []ConditionRow) []Ordering {
	var out []Ordering
	for _, lang := range report.Distinct(conds, func(c ConditionRow) string { return c.Language }) {
		get := func(way string) (ConditionRow, bool) { return wayOf(conds, lang, way) }
		// greater checks a > k*b on the headline, by the figures and by their intervals.
		greater := func(claim, a, b string, k float64) Ordering {
			o := Ordering{Language: lang, Claim: claim}
			ca, okA := get(a)
			cb, okB := get(b)
			if !okA || !okB {
				o.Evidence = "needs " + a + " and " + b
				return o
			}
			o.Measured = true
			o.Holds = float64(ca.NsPerLine) > k*float64(cb.NsPerLine)
			o.Clear = float64(ca.NsPerLineLow) > k*float64(cb.NsPerLineHigh)
			o.NoInterval = !ca.NsPerLineLow.Present() || !cb.NsPerLineHigh.Present()
			o.Evidence = fmt.Sprintf("%s %s (%s) against %s %s (%s): %.3gx", a, Ns(ca.NsPerLine), ca.Headline, b, Ns(cb.NsPerLine), cb.Headline, ca.NsPerLine/cb.NsPerLine)
			return o
		}
		out = append(out,
			greater(fmt.Sprintf("fsync >> unbuffered (more than %dx)", FsyncFactor), lc.Fsync, lc.Unbuffered, FsyncFactor),
			greater("unbuffered > buffered", lc.Unbuffered, lc.Buffered, 1),
			greater("buffered > format", lc.Buffered, lc.Format, 1),
			greater(fmt.Sprintf("eager disabled DEBUG costs most of a written line (> %.0f%%)", EagerShare*100), lc.DisabledEager, lc.Buffered, EagerShare),
			greater("lazy disabled DEBUG is cheaper than eager", lc.DisabledEager, lc.DisabledLazy, 1),
		)
		// The queue moves the cost off the caller: the caller's CPU per line is below an
		// unbuffered write's, while the container still pays for the write elsewhere.
		o := greater("the queue moves the cost off the caller", lc.Unbuffered, lc.Queue, 1)
		if q, ok := get(lc.Queue); ok && o.Measured {
			u, _ := get(lc.Unbuffered)
			o.Evidence = fmt.Sprintf("caller %s/line with the queue against %s unbuffered; every thread of the container %s/line with the queue",
				Ns(q.NsPerLine), Ns(u.NsPerLine), Ns(q.CgroupCPUNsPerLine))
		}
		if lang == Node && o.Measured {
			// Node.js 18 has no per-thread CPU clock: its figure is the whole process's,
			// the writer thread included, so the caller's share cannot be told apart.
			o = Ordering{Language: lang, Claim: o.Claim, Unjudged: true,
				Evidence: "Node's CPU figure is the whole process's (Node.js 18 has no per-thread CPU clock), the queue's writer thread included"}
		}
		out = append(out, o)
	}
	return out
}

// Ratio is one of the seed's ratios or differences beside the measured one.
type Ratio struct{ Language, Name, Measured, Published string }

// Ratios set the seed's ratios and differences beside the measured ones, per language.
func Ratios(conds []ConditionRow, pub Published) []Ratio {
	var out []Ratio
	for _, lang := range report.Distinct(conds, func(c ConditionRow) string { return c.Language }) {
		ns := func(way string) float64 { c, _ := wayOf(conds, lang, way); return float64(c.NsPerLine) }
		if f, ok := pub.Find(lc.Buffered, "speedup_vs_unbuffered"); ok {
			out = append(out, Ratio{lang, "unbuffered / buffered", ratio(ns(lc.Unbuffered) / ns(lc.Buffered)), fmt.Sprintf("%gx", f.Value)})
		}
		if f, ok := pub.Find(lc.Unbuffered, "syscall_extra_per_line"); ok {
			out = append(out, Ratio{lang, "unbuffered - buffered", Ns(ns(lc.Unbuffered) - ns(lc.Buffered)), fmt.Sprintf("~%g %s (the write system call)", f.Value, f.Unit)})
		}
		if f, ok := pub.Find(lc.Fsync, "time_per_line"); ok {
			fsync, _ := wayOf(conds, lang, lc.Fsync)
			out = append(out, Ratio{lang, "fsync / cheapest way", ratio(fsync.RatioToCheapest), fmt.Sprintf("%s (%s)", f.Note, Ns(f.Value*1e3))})
		}
	}
	return out
}

// wayOf is lang's condition of way with a headline figure; without one, a condition
// whose figures are absent.
func wayOf(conds []ConditionRow, lang, way string) (ConditionRow, bool) {
	i := slices.IndexFunc(conds, func(c ConditionRow) bool { return c.Language == lang && c.Way == way && c.NsPerLine.Present() })
	if i < 0 {
		return ConditionRow{NsPerLine: bundle.None, RatioToCheapest: bundle.None, CgroupCPUNsPerLine: bundle.None}, false
	}
	return conds[i], true
}

// findings are the seed's orderings and ratios checked in a bundle's conditions, each
// language and library apart (ByLibrary), as tables of a row each: the summary writes
// them, the report draws every bundle's (tabular.LabelledEach).
func findings(conds []ConditionRow) []report.Table {
	orderings := report.Table{Caption: "The seed's orderings.", Header: []string{"language", "claim", "verdict", "evidence"}, Text: 4}
	ratios := report.Table{Caption: "The seed's ratios.", Header: []string{"language", "ratio", "measured", "published"}, Text: 4}
	for _, o := range Orderings(ByLibrary(conds)) {
		orderings.Rows = append(orderings.Rows, []string{o.Language, o.Claim, o.State(), o.Evidence})
	}
	for _, r := range Ratios(ByLibrary(conds), mustPublished()) {
		ratios.Rows = append(ratios.Rows, []string{r.Language, r.Name, r.Measured, r.Published})
	}
	return []report.Table{orderings, ratios}
}
