package report

import (
	"slices"
	"strings"
	"testing"
)

// TestDistinctKeepsTheFirstOrder: each value once, where it first came.
func TestDistinctKeepsTheFirstOrder(t *testing.T) {
	have := Distinct([]string{"go/format", "python/format", "go/fsync", "node/format", "python/fsync"}, func(s string) string { lang, _, _ := strings.Cut(s, "/"); return lang })
	if want := []string{"go", "python", "node"}; !slices.Equal(have, want) {
		t.Errorf("Distinct: %q, want %q", have, want)
	}
}
