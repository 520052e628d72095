package bundle

import "testing"

// Absent leaves every Opt absent, those of an embedded struct too, and the rest zero.
func TestAbsent(t *testing.T) {
	type inner struct{ A, B Opt }
	type row struct {
		inner
		Inner
		C     Opt
		N     int
		S     string
		Named inner // a field, not embedded: a value of its own
	}
	r := Absent[row]()
	for name, o := range map[string]Opt{"C": r.C, "Inner.X": r.Inner.X} {
		if o.Present() {
			t.Errorf("%s = %v, want absent", name, o)
		}
	}
	if r.N != 0 || r.S != "" || r.Named.A != 0 {
		t.Errorf("non-figures or a named struct changed: %+v", r)
	}
	if r.inner.A != 0 {
		t.Errorf("an unexported embedded struct, which reflection cannot set, changed: %+v", r)
	}
}

// Inner is an exported struct to embed.
type Inner struct{ X Opt }
