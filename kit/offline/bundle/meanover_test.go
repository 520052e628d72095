package bundle_test

import (
	"testing"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// A row without the figure is left out of its mean; rows of which none has it have
// none.
func TestMeanOverLeavesAbsentFiguresOut(t *testing.T) {
	of := func(o bundle.Opt) bundle.Opt { return o }
	if got := bundle.MeanOver([]bundle.Opt{1, bundle.None, 2, 6}, of); got != 3 {
		t.Errorf("mean %v, want 3", got)
	}
	if got := bundle.MeanOver([]bundle.Opt{bundle.None, bundle.None}, of); got.Present() {
		t.Errorf("mean %v of no figure, want absent", got)
	}
	if got := bundle.MeanOver(nil, of); got.Present() {
		t.Errorf("mean %v of no row, want absent", got)
	}
}
