package compare

import (
	"math"
	"testing"
)

// Each condition's figures are found by its values in order; a figure it lacks is
// absent, not 0.
func TestByConditionFindsEachFigure(t *testing.T) {
	cond := []KV{{Key: "api", Value: "go"}, {Key: "mode", Value: "none"}}
	rows := []Row{Measured(cond, "p99_ms", "ms", Mean{}, [][]float64{{2}, {4}}), Fixed(cond, "p99_pooled_ms", "ms", 3)}
	e := ByCondition(rows)["go/none"]
	if have := e.Of("p99_ms"); have.Value != 3 || have.Runs != 2 {
		t.Errorf("p99_ms %+v", have)
	}
	if have := e.Of("drain_s"); !math.IsNaN(have.Value) || have.Runs != 0 {
		t.Errorf("an absent figure %+v", have)
	}
}
