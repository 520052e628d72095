package tabular

// Product are the cells of a plan whose axes are crossed: every value of the first
// axis with every value of the second, and so on, the last axis varying fastest.
func Product(axes ...[]string) []Cell {
	out := []Cell{{}}
	for _, values := range axes {
		var next []Cell
		for _, c := range out {
			for _, v := range values {
				next = append(next, append(append(Cell{}, c...), v))
			}
		}
		out = next
	}
	return out
}
