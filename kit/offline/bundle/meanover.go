package bundle

// MeanOver is the mean of a figure over rows, each row whose figure is absent left out:
// a condition's figure pooled over its runs. It is absent when no row has the figure.
func MeanOver[R any](rows []R, of func(R) Opt) Opt {
	var v []float64
	for _, r := range rows {
		if o := of(r); o.Present() {
			v = append(v, float64(o))
		}
	}
	return MeanOf(v)
}
