package bundle

// MeanOfAll is the mean of a figure over rows that every one of them has: absent
// without rows or when any lacks it, since a figure of some runs only would not be
// their condition's.
func MeanOfAll[R any](rows []R, of func(R) Opt) Opt {
	if v := PresentOf(rows, of); len(v) == len(rows) {
		return MeanOf(v)
	}
	return None
}

// SumOfAll is the sum of a figure over rows that every one of them has: absent
// without rows or when any lacks it, where a part of the total would pass for all of
// it.
func SumOfAll[R any](rows []R, of func(R) Opt) Opt {
	v := PresentOf(rows, of)
	if len(v) == 0 || len(v) != len(rows) {
		return None
	}
	var sum float64
	for _, x := range v {
		sum += x
	}
	return Opt(sum)
}
