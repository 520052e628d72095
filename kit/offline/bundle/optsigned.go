package bundle

import "fmt"

// Signed writes the figure to decimals places with its sign, as a change against a
// baseline is written ("+1.5", "-0.3"); - when absent.
func (o Opt) Signed(decimals int) string {
	if !o.Present() {
		return "-"
	}
	return fmt.Sprintf("%+.*f", decimals, float64(o))
}
