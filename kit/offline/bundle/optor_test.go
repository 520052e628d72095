package bundle_test

import (
	"testing"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// Or keeps a present figure, zero and negative ones too, and gives v for an absent one.
func TestOptOr(t *testing.T) {
	for _, tc := range []struct {
		o       bundle.Opt
		v, want float64
	}{{bundle.Opt(2.5), 0, 2.5}, {bundle.Opt(0), 7, 0}, {bundle.Opt(-1), 7, -1}, {bundle.None, 0, 0}, {bundle.None, 7, 7}} {
		if have := tc.o.Or(tc.v); have != tc.want {
			t.Errorf("%v.Or(%v) = %v, want %v", tc.o, tc.v, have, tc.want)
		}
	}
}
