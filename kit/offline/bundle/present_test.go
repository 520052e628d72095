package bundle

import (
	"slices"
	"testing"
)

// TestPresentOfLeavesOutTheMissing: the values in the rows' order, none for a row
// whose figure is missing.
func TestPresentOfLeavesOutTheMissing(t *testing.T) {
	if have, want := PresentOf([]Opt{1, None, 3}, func(v Opt) Opt { return v }), []float64{1, 3}; !slices.Equal(have, want) {
		t.Errorf("PresentOf = %v, want %v", have, want)
	}
}
