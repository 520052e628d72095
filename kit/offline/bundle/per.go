package bundle

// Per is num over den, a figure per unit of another (CPU over an interval, CPU over
// the requests it served): absent when either is absent or den is not positive, where
// there is nothing to divide by. Unlike Ratio, a negative den is no figure either.
func Per(num, den Opt) Opt {
	if !num.Present() || !den.Present() || den <= 0 {
		return None
	}
	return num / den
}
