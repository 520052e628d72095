package bench

import (
	"testing"

	"github.com/logbench/logbench/kit/incontainer/logmode"
)

func TestPlanRotatesTheStartEachRound(t *testing.T) {
	var conds []Condition
	for _, m := range logmode.All {
		for _, r := range Readers {
			conds = append(conds, Condition{API: "go", Mode: m, Reader: r})
		}
	}
	runs := Plan(conds, 3)
	if len(runs) != 42 {
		t.Fatalf("%d runs, want 42", len(runs))
	}
	seen := map[Condition]int{}
	firsts := map[Condition]bool{}
	for i, r := range runs {
		seen[r.Condition]++
		if r.Position == 1 {
			firsts[r.Condition] = true
		}
		if want := i/14 + 1; r.Round != want {
			t.Fatalf("run %d in round %d, want %d", i, r.Round, want)
		}
	}
	for c, n := range seen {
		if n != 3 {
			t.Fatalf("%v runs %d times", c, n)
		}
	}
	if len(firsts) != 3 {
		t.Fatalf("rounds start with %d distinct conditions, want 3", len(firsts))
	}
}
