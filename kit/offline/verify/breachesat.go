package verify

// BreachesAt holds a row (file, line, key) to the physical rules: each breach it is
// given becomes a problem of the row at the column named, and a rule that held (nil)
// says nothing. A row's rules then name only their column and their breach.
func (r *Result) BreachesAt(file string, line int, key string) func(column string, b *Breach) {
	return func(column string, b *Breach) {
		if b != nil {
			r.Problem(b.Problem(file, line, key, column))
		}
	}
}
