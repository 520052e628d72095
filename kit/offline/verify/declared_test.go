package verify

import (
	"math"
	"strings"
	"testing"
)

// The rules a row type declares in its tags, each held at its edge and broken past it.

type latencies struct {
	Run  string  `csv:"run_id"`
	Sent float64 `csv:"sent_ms" absent:"0"`
	P50  float64 `csv:"p50_ms"`
	P99  float64 `csv:"p99_ms" atleast:"p50_ms"`
	Max  float64 `csv:"max_ms" atleast:"p99_ms,sent_ms"`
}

func TestOrderedHoldsEachDeclaredPair(t *testing.T) {
	rows := []latencies{
		{"a", 0, 2, 2, 2},          // equal is in order; sent 0 is no value
		{"b", 1, 2, math.NaN(), 3}, // a missing p99 orders nothing
		{"c", 5, 2, 1, 4},          // p99 below p50; max below sent
	}
	res := &Result{}
	Ordered(res, "runs.csv", []int{2, 3, 4}, rows, func(r latencies) string { return "run " + r.Run }, nil)
	if len(res.Problems) != 2 {
		t.Fatalf("want 2 problems, of run c; have %v", res.Problems)
	}
	for i, want := range []string{"runs.csv line 4 (run c): p99_ms: have 1, want at least 2 (rule ordered: p99_ms below p50_ms)",
		"runs.csv line 4 (run c): max_ms: have 4, want at least 5 (rule ordered: max_ms below sent_ms)"} {
		if have := res.Problems[i].String(); have != want {
			t.Errorf("problem %d:\nhave %s\nwant %s", i, have, want)
		}
	}
	// A column an earlier kit did not write is no value either.
	res = &Result{}
	Ordered(res, "runs.csv", nil, rows, func(r latencies) string { return r.Run }, map[string]bool{"p50_ms": true, "sent_ms": true})
	if len(res.Problems) != 0 {
		t.Errorf("absent columns: %v", res.Problems)
	}
}

type seconds struct {
	Run    string `csv:"run_id"`
	Second int    `csv:"second" numbered:"0,1"`
}

func TestNumberedWantsEachRunsRowsInOrder(t *testing.T) {
	run := func(s seconds) string { return s.Run }
	res := &Result{}
	// Two runs interleaved, one from 0 and one from 1: in order, each.
	Numbered(res, "s.csv", nil, []seconds{{"a", 0}, {"b", 1}, {"a", 1}, {"b", 2}, {"a", 2}}, run)
	if len(res.Problems) != 0 {
		t.Errorf("in order: %v", res.Problems)
	}
	for _, tc := range []struct {
		rows []seconds
		want string
	}{
		{[]seconds{{"a", 2}, {"a", 3}}, "have 2, want 0 or 1"},      // from neither first
		{[]seconds{{"a", 0}, {"a", 2}, {"a", 3}}, "have 2, want 1"}, // a gap, said once a run
		{[]seconds{{"a", 0}, {"a", 1}, {"a", 1}}, "have 1, want 2"}, // a repeat
		{[]seconds{{"a", 1}, {"a", 0}}, "have 0, want 2"},           // out of order
	} {
		res := &Result{}
		Numbered(res, "s.csv", nil, tc.rows, run)
		if len(res.Problems) != 1 || !strings.Contains(res.Problems[0].String(), tc.want) || !strings.Contains(res.Problems[0].Msg, "rule numbered:") {
			t.Errorf("%v: want one problem %q; have %v", tc.rows, tc.want, res.Problems)
		}
	}
}

type verdicts struct {
	Run      string `csv:"run_id"`
	Verified bool   `csv:"verified"`
	Failure  string `csv:"failure"`
}

func TestAVerdictSaysWhy(t *testing.T) {
	rows := []verdicts{{"a", true, ""}, {"b", false, "exit 1"}, {"c", true, "exit 1"}, {"d", false, " "}}
	res := &Result{}
	Verdicts(res, "runs.csv", []int{2, 3, 4, 5}, rows, func(r verdicts) string { return "run " + r.Run })
	var have []string
	for _, p := range res.Problems {
		have = append(have, p.Key+" "+p.Column)
	}
	if want := []string{"run c verified", "run d failure"}; strings.Join(have, ", ") != strings.Join(want, ", ") || !strings.Contains(res.Problems[0].Msg, "rule "+RuleVerdict+":") {
		t.Errorf("problems %v, want %v naming the rule", res.Problems, want)
	}
}
