package tabular

import (
	"slices"
	"testing"
)

// TestShortNamesLeaveOutWhatEveryConditionShares: the axes every condition has the
// same value on are left out of its name; one condition, or conditions of different
// shapes, keep their whole names.
func TestShortNamesLeaveOutWhatEveryConditionShares(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"go/json-file/-/500", "go/syslog-tcp/slow/500", "go/syslog-tcp/fast/500"}, []string{"json-file/-", "syslog-tcp/slow", "syslog-tcp/fast"}},
		{[]string{"go/json-file"}, []string{"go/json-file"}},
		{[]string{"a/b", "a/b/c"}, []string{"a/b", "a/b/c"}},
	} {
		if got := shortNames(c.in); !slices.Equal(got, c.want) {
			t.Errorf("%v: %v, want %v", c.in, got, c.want)
		}
	}
}
