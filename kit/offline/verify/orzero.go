package verify

import "math"

// OrZero is a figure as a part of a sum: a missing one (NaN, bundle.None) is a part
// that was not measured, and adds nothing.
func OrZero(f float64) float64 {
	if math.IsNaN(f) {
		return 0
	}
	return f
}
