package compare

import (
	"reflect"
	"testing"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// TestOnePerRunLeavesOutTheRunsWithoutTheFigure: a value a run, in the runs' order,
// none for a run whose figure is missing.
func TestOnePerRunLeavesOutTheRunsWithoutTheFigure(t *testing.T) {
	have := OnePerRun([]bundle.Opt{2, bundle.None, 5}, func(v bundle.Opt) bundle.Opt { return v })
	if want := [][]float64{{2}, {5}}; !reflect.DeepEqual(have, want) {
		t.Errorf("OnePerRun = %v, want %v", have, want)
	}
	if have := OnePerRun([]bundle.Opt{bundle.None}, func(v bundle.Opt) bundle.Opt { return v }); have != nil {
		t.Errorf("OnePerRun of no figure = %v, want nil", have)
	}
}
