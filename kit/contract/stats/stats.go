// Package stats holds the few statistics the experiment defines, exactly as it defines
// them.
package stats

import (
	"math"
	"slices"
)

// NearestRank returns the p-th percentile (0 < p <= 100) by the nearest-rank rule:
// element ceil(p/100 x n) of the sorted values, counted from 1. NaN for no values.
func NearestRank(values []float64, p float64) float64 {
	if len(values) == 0 {
		return math.NaN()
	}
	sorted := slices.Clone(values)
	slices.Sort(sorted)
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	return sorted[min(max(rank, 1), len(sorted))-1]
}

// Mean is the arithmetic mean; NaN for no values.
func Mean(values []float64) float64 {
	if len(values) == 0 {
		return math.NaN()
	}
	var sum float64
	for _, v := range values {
		sum += v
	}
	return sum / float64(len(values))
}

// Min is the smallest value; NaN for no values.
func Min(values []float64) float64 {
	if len(values) == 0 {
		return math.NaN()
	}
	return slices.Min(values)
}

// Max is the largest value; NaN for no values.
func Max(values []float64) float64 {
	if len(values) == 0 {
		return math.NaN()
	}
	return slices.Max(values)
}
