// Package precision judges whether a bundle's headline figures are known well enough:
// the rule reproduce --precision stops by, and that verify holds a bundle's record of
// it to. A figure is known to a target when its 95% interval (the kit's one statistic,
// compare.Estimate) has a half-width of at most target times its value; the rule waits
// for the widest, relative to its value, of the figures an experiment marks as its
// headline (compare.Row.Headline).
package precision

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/figure"
)

// Widest is the headline figure of rows whose interval is widest relative to its
// value; a figure without an interval (fewer than two runs) or a value of 0 with a
// spread is wider than any. Of equals, the first. Nil when rows have no headline figure.
func Widest(rows []compare.Row) *bundle.Widest {
	var widest *bundle.Widest
	worst := math.Inf(-1)
	for _, r := range rows {
		if !r.Headline {
			continue
		}
		w := Of(r)
		rel := math.Inf(1)
		if w.Relative != nil {
			rel = *w.Relative
		}
		if widest == nil || rel > worst {
			widest, worst = &w, rel
		}
	}
	return widest
}

// Of is row's figure with its interval's half-width, absolute and relative.
func Of(r compare.Row) bundle.Widest {
	e := compare.Estimate(r)
	w := bundle.Widest{Metric: r.Metric, Condition: ConditionText(r.Condition), Unit: r.Unit, Runs: e.Runs}
	if !math.IsNaN(e.Value) {
		w.Value = ptr(e.Value)
	}
	if !e.HasInterval() {
		return w
	}
	h := (e.High - e.Low) / 2
	w.HalfWidth = ptr(h)
	switch {
	case h == 0:
		w.Relative = ptr(0)
	case e.Value != 0:
		w.Relative = ptr(h / math.Abs(e.Value))
	}
	return w
}

// Met says the widest figure is within target: the rule is reached. No headline
// figure, or one without an interval, never is.
func Met(w *bundle.Widest, target float64) bool {
	return w != nil && w.Relative != nil && *w.Relative <= target
}

// Same says two records of the widest figure agree: the same figure, and the same
// numbers to the last few bits (a manifest holds them as JSON writes a float64, which
// reads back exactly; the margin only spares a reader that does not).
func Same(a, b *bundle.Widest) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Metric == b.Metric && a.Condition == b.Condition && a.Unit == b.Unit && a.Runs == b.Runs &&
		near(a.Value, b.Value) && near(a.HalfWidth, b.HalfWidth) && near(a.Relative, b.Relative)
}

func near(a, b *float64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b || math.Abs(*a-*b) <= 1e-12*math.Max(math.Abs(*a), math.Abs(*b))
}

// ConditionText names a figure's condition as the record does: "api=go config=none".
func ConditionText(kvs []compare.KV) string {
	parts := make([]string, len(kvs))
	for i, kv := range kvs {
		parts[i] = kv.Key + "=" + kv.Value
	}
	return strings.Join(parts, " ")
}

// Percent writes a fraction as a percentage: 0.02 is "2%", 0.0184 "1.84%".
func Percent(f float64) string {
	pct := f * 100
	if math.Abs(pct) >= 100 {
		return strconv.FormatFloat(pct, 'f', 0, 64) + "%"
	}
	return strconv.FormatFloat(pct, 'g', 3, 64) + "%"
}

// WidestText says a widest figure in a line: "requests_per_s (api=go config=none)
// 30374 req/s ±1.84%"; "none" for no headline figure.
func WidestText(w *bundle.Widest) string {
	if w == nil {
		return "no headline figure has a run"
	}
	s := w.Metric
	if w.Condition != "" {
		s += " (" + w.Condition + ")"
	}
	if w.Value != nil {
		s += " " + figure.Text(*w.Value) + " " + w.Unit
	}
	switch {
	case w.Relative != nil:
		s += " ±" + Percent(*w.Relative)
	case w.HalfWidth != nil:
		s += " ±" + figure.Text(*w.HalfWidth) + " " + w.Unit + " around 0"
	case w.Runs == 0:
		s += ": no interval (a figure without runs, such as a bound)"
	default:
		s += ": no interval from " + strconv.Itoa(w.Runs) + " run"
		if w.Runs != 1 {
			s += "s"
		}
	}
	return s
}

// Line says where the rule stands after a round, for reproduce's progress: the rounds
// done of the most, the widest figure, the target and what happens next.
func Line(p *bundle.Precision) string {
	next := "one more round"
	switch p.Stopped {
	case bundle.Reached:
		next = "reached"
	case bundle.MaxRounds:
		next = "not reached in the rounds allowed (--max-reps)"
	}
	return fmt.Sprintf("round %d/%d: widest interval %s, target ±%s: %s", p.Rounds, p.MaxRounds, WidestText(p.Widest), Percent(p.Target), next)
}

// Summary says a finished record in a few words, for verify's summary: "rounds until
// ±2%: reached after 7 of at most 20 rounds (widest ±1.84%)".
func Summary(p *bundle.Precision) string {
	s := "rounds until ±" + Percent(p.Target) + ": "
	switch p.Stopped {
	case bundle.Reached:
		s += fmt.Sprintf("reached after %d of at most %d rounds", p.Rounds, p.MaxRounds)
	case bundle.MaxRounds:
		s += fmt.Sprintf("not reached after the %d rounds allowed", p.MaxRounds)
	default:
		s += fmt.Sprintf("interrupted after %d of at most %d rounds judged", p.Rounds, p.MaxRounds)
	}
	if p.Widest != nil {
		s += " (widest " + WidestText(p.Widest) + ")"
	}
	return s
}

func ptr(f float64) *float64 { return &f }
