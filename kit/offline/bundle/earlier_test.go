package bundle_test

import (
	"reflect"
	"testing"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// TestRespelled: an earlier kit's NaN in a figure column reads as the empty field, a
// NaN elsewhere is left for the reader to refuse, and a renamed column is read under
// its name today, its values converted.
func TestRespelled(t *testing.T) {
	type row struct {
		Name string     `csv:"name"`
		Ms   bundle.Opt `csv:"ms"`
		Opt  bundle.Opt `csv:"opt"`
	}
	renamed := map[string]bundle.Renamed{"s": {Name: "ms", Value: func(s string) string { return s + "000" }}}
	for _, tc := range []struct{ have, want string }{
		{"name,ms,opt\nNaN,1,2\n", "name,ms,opt\nNaN,1,2\n"},
		{"name,ms,opt\na,1,NaN\n", "name,ms,opt\na,1,\n"},
		{"name,s,opt\na,2,NaN\nb,,3\n", "name,ms,opt\na,2000,\nb,,3\n"},
		{"name,ms,opt\na,1,2\n", "name,ms,opt\na,1,2\n"},
	} {
		if have := string(bundle.Respelled([]byte(tc.have), reflect.TypeFor[row](), renamed)); have != tc.want {
			t.Errorf("%q: have %q, want %q", tc.have, have, tc.want)
		}
	}
}
