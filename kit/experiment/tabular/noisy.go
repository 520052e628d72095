package tabular

import (
	"fmt"
	"slices"
)

// Noisy counts the runs that count (verified, not redone) measured on a noisy host, as
// their host_noisy column says: the one rule of the runs a summary or a condition calls
// noisy.
func Noisy[R any](runs []R) int {
	n := 0
	for _, r := range runs {
		if isData(r) && column(r, "host_noisy") == "true" {
			n++
		}
	}
	return n
}

// noisy counts, in a bundle whose runs say whether their host was noisy (a host_noisy
// column), the runs that count measured on one, as Judge derived them rather than as
// the file claims them; and says that they weaken the figures.
func (t *Experiment[P, R]) noisy(c *Check[P, R]) {
	if !sayNoisy[R]() {
		return
	}
	if c.Res.Counts.Noisy = Noisy(c.Judged); c.Res.Counts.Noisy > 0 {
		counting := len(slices.DeleteFunc(slices.Clone(c.Judged), func(r R) bool { return !isData(r) }))
		c.Res.Weakened = append(c.Res.Weakened, fmt.Sprintf("runs measured on a noisy host: %d of the %d that count; other work shared the host (%s host_noisy says by which rule)",
			c.Res.Counts.Noisy, counting, t.Runs.File))
	}
}
