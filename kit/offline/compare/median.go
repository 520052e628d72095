package compare

import "slices"

// MedianOf is the Median of values, each counted once: the middle one, the mean of the
// two middle ones for an even count, NaN for none.
func MedianOf(values []float64) float64 {
	sorted := slices.Clone(values)
	slices.Sort(sorted)
	counts := make([]int32, len(sorted))
	for i := range counts {
		counts[i] = 1
	}
	return Median{}.Of(sorted, counts, len(sorted))
}
