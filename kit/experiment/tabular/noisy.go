package tabular

// Noisy counts the runs that count (verified, not redone) measured on a noisy host, as
// their host_noisy column says: the one rule of the runs a summary or a condition calls
// noisy.
func Noisy[R any](runs []R) int {
	n := 0
	for _, r := range runs {
		if column(r, "verified") == "true" && counts(r) && column(r, "host_noisy") == "true" {
			n++
		}
	}
	return n
}

// CountNoisy counts the bundle's noisy runs (Noisy) in the result's counts, as Judge
// derived them rather than as the file claims them.
func (c *Check[P, R]) CountNoisy() int {
	c.Res.Counts.Noisy = Noisy(c.Judged)
	return c.Res.Counts.Noisy
}
