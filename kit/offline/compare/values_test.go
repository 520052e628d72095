package compare_test

import (
	"math"
	"testing"

	"github.com/logbench/logbench/kit/offline/compare"
)

func TestMedianOf(t *testing.T) {
	if m := compare.MedianOf([]float64{3, 1, 2}); m != 2 {
		t.Errorf("median %v", m)
	}
	if m := compare.MedianOf([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median %v", m)
	}
	if m := compare.MedianOf(nil); !math.IsNaN(m) {
		t.Errorf("median of nothing %v", m)
	}
}

func TestValuesByRun(t *testing.T) {
	have := compare.ValuesByRun([][]int{{1, 2}, {3}}, func(i int) float64 { return float64(i) * 10 })
	if len(have) != 2 || len(have[0]) != 2 || have[0][1] != 20 || have[1][0] != 30 {
		t.Errorf("have %v", have)
	}
	if one := compare.ValuesOf([]int{4, 5}, func(i int) float64 { return float64(i) / 2 }); len(one) != 2 || one[0] != 2 || one[1] != 2.5 {
		t.Errorf("values of one run %v", one)
	}
}
