package tabular_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/logbench/logbench/kit/experiment/tabular"
)

// TestANoteIsSaidOnceWithItsBundles: a note of several bundles is said once, in the
// order first said, led by every bundle it concerns.
func TestANoteIsSaidOnceWithItsBundles(t *testing.T) {
	type drawn = tabular.Drawn[*tinyParams, TinyRow]
	notes := map[string][]string{"a": {"relaxed", "marked"}, "b": {"marked"}, "c": nil}
	var ds []drawn
	for _, label := range []string{"a", "b", "c"} {
		ds = append(ds, drawn{Label: label})
	}
	have := tabular.Attributed(ds, func(d drawn) []string { return notes[d.Label] })
	if d := cmp.Diff([]string{"a: relaxed", "a, b: marked"}, have); d != "" {
		t.Errorf("-want +have:\n%s", d)
	}
}
