package verify

import "math"

// Rule words a problem that breaks one of an experiment's rules of what can happen at
// all (each experiment's README, "What verify checks"), so that the message names it:
// "rule seq-contiguous: ...".
func Rule(name, msg string) string { return "rule " + name + ": " + msg }

// Disorder is the first pair of present (not NaN) values that is out of order, as
// indexes into values: -1, -1 when every present value is at least the one before it
// (p50 <= p90 <= p99 <= max, or connected <= first byte <= done).
func Disorder(values ...float64) (int, int) {
	last := -1
	for i, x := range values {
		if math.IsNaN(x) {
			continue
		}
		if last >= 0 && x < values[last] {
			return last, i
		}
		last = i
	}
	return -1, -1
}
