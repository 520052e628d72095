package bundle_test

import (
	"testing"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// Signed writes every present figure with its sign, zero too, and - for an absent one.
func TestOptSigned(t *testing.T) {
	for _, tc := range []struct {
		o    bundle.Opt
		want string
	}{{bundle.Opt(1.54), "+1.5"}, {bundle.Opt(-0.26), "-0.3"}, {bundle.Opt(0), "+0.0"}, {bundle.None, "-"}} {
		if have := tc.o.Signed(1); have != tc.want {
			t.Errorf("%v.Signed(1) = %q, want %q", tc.o, have, tc.want)
		}
	}
}
