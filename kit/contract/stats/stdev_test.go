package stats

import (
	"math"
	"testing"
)

// TestPopulationStdevDividesByN: 2, 4, 4, 4, 5, 5, 7, 9 have mean 5 and squared
// distances summing to 32, so 2 over n (and not 32/7 over n-1); one value has none.
func TestPopulationStdevDividesByN(t *testing.T) {
	if got := PopulationStdev([]float64{2, 4, 4, 4, 5, 5, 7, 9}); got != 2 {
		t.Errorf("PopulationStdev = %v, want 2", got)
	}
	if got := PopulationStdev([]float64{7}); got != 0 {
		t.Errorf("one value: %v, want 0", got)
	}
	if got := PopulationStdev(nil); !math.IsNaN(got) {
		t.Errorf("no values: %v, want NaN", got)
	}
}
