package report

import "slices"

// Distinct are the values of of over xs, each once, in the order they first come: the
// categories of a set of rows (their languages, their ways).
func Distinct[T any](xs []T, of func(T) string) []string {
	var out []string
	for _, x := range xs {
		if v := of(x); !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}
