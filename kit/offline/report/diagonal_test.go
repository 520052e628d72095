package report

import (
	"strings"
	"testing"
)

// TestDiagonal: every series and every category drawn is named in the legend, beside
// the diagonal; points without both figures are left out, and none at all is said.
func TestDiagonal(t *testing.T) {
	series := []Series{{Name: "bundle-a", Colour: Colour(0)}, {Name: "bundle-b", Colour: Colour(1)}}
	f := Diagonal("t", "x", "y", "x = y", series, []string{"format", "fsync", "never"},
		[]XY{{0, 0, 10, 9}, {1, 1, 1e5, 2e4}, {1, 2, 0, 5}})
	if f.Err != "" {
		t.Fatal(f.Err)
	}
	for _, want := range []string{"bundle-a", "bundle-b", "format", "fsync", "x = y"} {
		if !strings.Contains(string(f.SVG), want) {
			t.Errorf("no %q", want)
		}
	}
	if strings.Contains(string(f.SVG), "never") {
		t.Error("a category without a point is named")
	}
	if f := Diagonal("t", "x", "y", "=", series, []string{"a"}, []XY{{0, 0, 0, 1}}); f.Err == "" {
		t.Error("nothing to draw, and no error")
	}
}
