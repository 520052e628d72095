package experiment_test

import (
	"slices"
	"testing"

	"github.com/logbench/logbench/kit/experiment"
)

// TestRotateOpenSpreadsEveryPrefixOfRounds: each round runs every condition once; a
// round added leaves the earlier ones as they were; the first rounds start at 0, n/2,
// n/4, 3n/4 of the matrix.
func TestRotateOpenSpreadsEveryPrefixOfRounds(t *testing.T) {
	conds := []experiment.Condition{cond("a"), cond("b"), cond("c"), cond("d"), cond("e"), cond("f"), cond("g"), cond("h")}
	runs := experiment.RotateOpen(conds, 5)
	if !slices.Equal(runs[:len(conds)*4], experiment.RotateOpen(conds, 4)) {
		t.Errorf("a fifth round changed the first four")
	}
	var firsts []string
	for r := range 5 {
		round := runs[r*len(conds) : (r+1)*len(conds)]
		seen := map[string]bool{}
		for i, pr := range round {
			seen[pr.Condition.String()] = true
			if pr.Round != r+1 || pr.Position != i+1 {
				t.Errorf("round %d position %d: %+v", r+1, i+1, pr)
			}
		}
		if len(seen) != len(conds) {
			t.Errorf("round %d runs %d conditions of %d", r+1, len(seen), len(conds))
		}
		firsts = append(firsts, round[0].Condition.String())
	}
	if want := []string{"a", "e", "c", "g", "b"}; !slices.Equal(firsts, want) {
		t.Errorf("rounds start with %v, want %v", firsts, want)
	}
}

func TestNewPrecisionReadsPercentagesAndFractions(t *testing.T) {
	for in, want := range map[string]float64{"2%": 0.02, "0.02": 0.02, " 50 %": 0.5, "99.5%": 0.995} {
		p, err := experiment.NewPrecision(in, 3, 20)
		if err != nil || p.Target != want || p.MinRounds != 3 || p.MaxRounds != 20 || p.Stopped != "interrupted" {
			t.Errorf("%q: %+v, %v", in, p, err)
		}
	}
	for _, in := range []string{"0", "0%", "100%", "1", "-2%", "NaN", "Inf%", "", "2%%"} {
		if _, err := experiment.NewPrecision(in, 3, 20); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}
