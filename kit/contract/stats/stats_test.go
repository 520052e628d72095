package stats

import (
	"math"
	"testing"
)

func TestNearestRank(t *testing.T) {
	hundred := make([]float64, 100)
	for i := range hundred {
		hundred[i] = float64(100 - i) // 100..1, unsorted on purpose
	}
	oneSixty := make([]float64, 160)
	for i := range oneSixty {
		oneSixty[i] = float64(i + 1)
	}
	for _, tc := range []struct {
		name   string
		values []float64
		p      float64
		want   float64
	}{
		{"p99 of 100 is the 99th", hundred, 99, 99},
		{"p50 of 100 is the 50th", hundred, 50, 50},
		{"p99 of 160 is the 159th: ceil(158.4)", oneSixty, 99, 159},
		{"p99 of 480 is the 476th: ceil(475.2)", seq(480), 99, 476},
		{"one value", []float64{7}, 99, 7},
		{"p100 is the max", hundred, 100, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if have := NearestRank(tc.values, tc.p); have != tc.want {
				t.Fatalf("have %v, want %v", have, tc.want)
			}
		})
	}
	if !math.IsNaN(NearestRank(nil, 99)) {
		t.Fatal("no values must give NaN")
	}
}

func seq(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(i + 1)
	}
	return v
}

func TestMeanAndMax(t *testing.T) {
	if Mean([]float64{1, 2, 6}) != 3 || Max([]float64{1, 9, 2}) != 9 {
		t.Fatal("wrong mean or max")
	}
}
