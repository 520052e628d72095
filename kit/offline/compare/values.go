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

// ValuesByRun are each run's values of a figure (of) of its rows (byRun: a run's rows of
// a per-run table, its trials): what Measured states over runs.
func ValuesByRun[T any](byRun [][]T, of func(T) float64) [][]float64 {
	out := make([][]float64, len(byRun))
	for i, run := range byRun {
		out[i] = ValuesOf(run, of)
	}
	return out
}

// ValuesOf are the values of a figure (of) of rows, in their order.
func ValuesOf[T any](rows []T, of func(T) float64) []float64 {
	var out []float64
	for _, r := range rows {
		out = append(out, of(r))
	}
	return out
}
