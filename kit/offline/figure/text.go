package figure

// Stated writes the estimate as every table of the kit states a figure over runs: its
// value, then its interval where it has one, "2.25 [1.43, 3.08]"; "-" when absent.
func (e Estimate) Stated() string {
	if !e.HasInterval() {
		return Text(e.Value)
	}
	return Text(e.Value) + " " + e.IntervalText()
}
