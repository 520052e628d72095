package tabular_test

import (
	"testing"

	"github.com/logbench/logbench/kit/experiment/tabular"
)

// TestANoisyRunCountsOnlyWhenItIsData: a run measured on a noisy host is counted noisy
// when it is verified and not redone; a failed or a redone one is in no figure.
func TestANoisyRunCountsOnlyWhenItIsData(t *testing.T) {
	type row struct {
		Verified   bool `csv:"verified"`
		Superseded bool `csv:"superseded"`
		HostNoisy  bool `csv:"host_noisy"`
	}
	runs := []row{{true, false, true}, {true, false, false}, {false, false, true}, {true, true, true}, {true, false, true}}
	if n := tabular.Noisy(runs); n != 2 {
		t.Errorf("noisy runs: %d, want 2", n)
	}
}
