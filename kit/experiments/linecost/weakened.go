package linecost

import "fmt"

// wideInterval is the half-width of a headline's 95% interval, as a share of the
// headline, past which verify names the figure as weakly determined.
const wideInterval = 0.10

// weakened names what weakens the figures of a bundle that verifies: trials a CPU limit
// throttled (their wall time is stretched), and headlines with wide intervals.
func (c *checker) weakened(b *Bundle) {
	w := &c.res.Weakened
	for _, cond := range b.Conditions {
		name := cond.Language + "/" + cond.Way
		if cond.ThrottledTrials > 0 {
			*w = append(*w, fmt.Sprintf("%s: %d trials were throttled by the CPU limit (their wall time is stretched)", name, cond.ThrottledTrials))
		}
		ns, lo, hi := cond.NsPerLine, cond.NsPerLineLow, cond.NsPerLineHigh
		if ns > 0 && (hi-lo)/2 > wideInterval*ns {
			*w = append(*w, fmt.Sprintf("%s: %.0f ns a line has a 95%% interval [%.0f, %.0f], wider than ±%g%%", name, ns, lo, hi, wideInterval*100))
		}
	}
}
