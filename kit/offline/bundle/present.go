package bundle

// PresentOf are the rows' values of a figure (of), those that have it, in the rows'
// order: what MeanOf and MeanCI pool over a condition's runs.
func PresentOf[R any](rows []R, of func(R) Opt) []float64 {
	var out []float64
	for _, r := range rows {
		if v := of(r); v.Present() {
			out = append(out, float64(v))
		}
	}
	return out
}
