package stats

import "math"

// PopulationStdev is the population standard deviation, the root of the mean squared
// distance from the mean (over n, not n-1): the spread of a run's whole seconds' counts
// about the rate they make. NaN for no values.
func PopulationStdev(values []float64) float64 {
	mean := Mean(values)
	var ss float64
	for _, v := range values {
		ss += (v - mean) * (v - mean)
	}
	return math.Sqrt(ss / float64(len(values)))
}
