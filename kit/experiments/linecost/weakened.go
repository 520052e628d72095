package linecost

import "fmt"

// weakened names what weakens the figures of a bundle that verifies beyond the kit's
// (wide or single-run headlines, the speed probe): trials a CPU limit throttled, whose
// wall time is stretched.
func (c *checker) weakened(b *Bundle) {
	var w []string
	for _, cond := range Conditions(b) {
		if cond.ThrottledTrials > 0 {
			w = append(w, fmt.Sprintf("%s: %d trials were throttled by the CPU limit (their wall time is stretched)", conditionName(cond), cond.ThrottledTrials))
		}
	}
	c.Res.Weakened = append(w, c.Res.Weakened...)
}
