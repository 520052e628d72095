package tabular

import (
	"flag"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestANoteIsSaidOnceWithItsBundles: a note of several bundles is said once, in the
// order first said, led by every bundle it concerns.
func TestANoteIsSaidOnceWithItsBundles(t *testing.T) {
	type p = *noParams
	notes := map[string][]string{"a": {"relaxed", "marked"}, "b": {"marked"}, "c": nil}
	var ds []Drawn[p, struct{}]
	for _, label := range []string{"a", "b", "c"} {
		ds = append(ds, Drawn[p, struct{}]{Label: label})
	}
	have := Attributed(ds, func(d Drawn[p, struct{}]) []string { return notes[d.Label] })
	if d := cmp.Diff([]string{"a: relaxed", "a, b: marked"}, have); d != "" {
		t.Errorf("-want +have:\n%s", d)
	}
}

// noParams are an experiment's that has none.
type noParams struct{}

func (*noParams) Bind(*flag.FlagSet) {}
func (*noParams) Check() error       { return nil }
