package report

import (
	"math"
	"slices"
)

// InOrder lists the distinct values of have in the order of want, then the others as
// they come: a page's categories in the order its manifests list them.
func InOrder(want, have []string) []string {
	var out []string
	for _, w := range want {
		if slices.Contains(have, w) && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	for _, h := range have {
		if !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out
}

// Union is xs with each value of ys it lacks appended, in order.
func Union(xs, ys []string) []string {
	for _, y := range ys {
		if !slices.Contains(xs, y) {
			xs = append(xs, y)
		}
	}
	return xs
}

// Extent is the range a log axis shows of several plots that share it: the smallest
// of the values seen at its low end and the largest of those seen at its high end, each
// above 0 and finite.
type Extent struct{ Lo, Hi float64 }

// NewExtent is an extent of nothing seen yet.
func NewExtent() Extent { return Extent{Lo: math.Inf(1)} }

// Low sees v at the low end, High at the high end.
func (e *Extent) Low(v float64) {
	if v > 0 && !math.IsInf(v, 0) {
		e.Lo = min(e.Lo, v)
	}
}

func (e *Extent) High(v float64) {
	if v > 0 && !math.IsInf(v, 0) {
		e.Hi = max(e.Hi, v)
	}
}

// Or is the extent, or lo to hi where nothing was seen at one end, or the high end
// below the low.
func (e Extent) Or(lo, hi float64) (float64, float64) {
	if math.IsInf(e.Lo, 1) || e.Hi < e.Lo {
		return lo, hi
	}
	return e.Lo, e.Hi
}
