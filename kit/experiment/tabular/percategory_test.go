package tabular_test

import (
	"image/color"
	"testing"

	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/report"
)

// TestPerCategoryIsABarOfEachBundleInEachCategory: a series a bundle, in its colour,
// holding its value of each category in the categories' order, absent where it has none.
func TestPerCategoryIsABarOfEachBundleInEachCategory(t *testing.T) {
	type drawn = tabular.Drawn[*tinyParams, TinyRow]
	ds := []drawn{{Label: "a", Colour: color.RGBA{R: 1}}, {Label: "b", Colour: color.RGBA{G: 1}}}
	g := tabular.PerCategory(ds, []string{"x", "y"}, func(d drawn, cat string) report.Value {
		if d.Label == "b" && cat == "y" {
			return report.Absent
		}
		return report.Value{V: float64(len(d.Label + cat)), Lo: report.NaN, Hi: report.NaN}
	})
	if len(g.Series) != 2 || g.Series[0].Name != "a" || g.Series[1].Colour != ds[1].Colour {
		t.Fatalf("series %+v", g.Series)
	}
	a, b := g.Series[0].Values, g.Series[1].Values
	if len(a) != 2 || a[0].V != 2 || a[1].V != 2 || len(b) != 2 || b[0].V != 2 || b[1].V == b[1].V {
		t.Errorf("values a %v, b %v", a, b)
	}
}
