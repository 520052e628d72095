package tabular

import (
	"reflect"
	"testing"
)

// Crossed axes give every combination, the last axis varying fastest; an empty axis
// gives none.
func TestProductCrossesTheAxes(t *testing.T) {
	have := Product([]string{"go", "python"}, []string{"none"}, []string{"fast", "slow"})
	want := []Cell{{"go", "none", "fast"}, {"go", "none", "slow"}, {"python", "none", "fast"}, {"python", "none", "slow"}}
	if !reflect.DeepEqual(have, want) {
		t.Errorf("have %v, want %v", have, want)
	}
	if have := Product([]string{"go"}, nil); len(have) != 0 {
		t.Errorf("an empty axis: %v", have)
	}
}
