package report

import (
	"testing"

	"gonum.org/v1/plot"
)

// TestCategoriesTakesNone: a plot of no condition (a manifest may name none) is drawn
// with its axis as it is, not a panic in gonum's NominalX.
func TestCategoriesTakesNone(t *testing.T) {
	p := plot.New()
	Categories(p, nil)
	Categories(p, []string{"go/none"})
	if p.X.Min != -0.6 || p.X.Max != 0.6 {
		t.Fatalf("axis %v to %v", p.X.Min, p.X.Max)
	}
}
