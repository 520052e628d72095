package bundle

// Or is the figure, or v when it is absent: what a sum over rows adds for a row without
// the figure (0), or a bound that holds without it.
func (o Opt) Or(v float64) float64 {
	if !o.Present() {
		return v
	}
	return float64(o)
}
