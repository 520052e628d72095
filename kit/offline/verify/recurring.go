package verify

// Recurring gathers a problem that recurs row after row (a forged limit is off in every
// run) into one problem per kind K, said at its first row (V, what that row has) with
// how many rows have it: a reader sees each kind once, not a page of the same line.
type Recurring[K comparable, V any] struct {
	kinds []K
	first map[K]V
	rows  map[K]int
}

// See is one more row with a problem of kind k; v is kept where it is the first.
func (r *Recurring[K, V]) See(k K, v V) {
	if r.first == nil {
		r.first, r.rows = map[K]V{}, map[K]int{}
	}
	if _, seen := r.first[k]; !seen {
		r.kinds, r.first[k] = append(r.kinds, k), v
	}
	r.rows[k]++
}

// Each calls say for every kind in the order first seen, with its first row and how
// many rows have it.
func (r *Recurring[K, V]) Each(say func(k K, first V, rows int)) {
	for _, k := range r.kinds {
		say(k, r.first[k], r.rows[k])
	}
}
