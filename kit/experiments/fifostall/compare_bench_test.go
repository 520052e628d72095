package fifostall_test

import (
	"testing"

	"github.com/logbench/logbench/internal/fifostalltest"
	"github.com/logbench/logbench/kit/offline/compare"
)

// BenchmarkCompare compares two bundles the size of the published matrix (7 modes x 2
// readers x 3 runs of 160 requests): every metric's run figures, their t intervals and
// Welch's tests.
func BenchmarkCompare(b *testing.B) {
	modes := []string{"none", "short1", "short10", "json-only", "json-prebuilt-sync", "json-sync", "json-queue"}
	x := fifostalltest.New(fifostalltest.Options{Seed: 1, Modes: modes, Rounds: 3})
	y := fifostalltest.New(fifostalltest.Options{Seed: 2, Modes: modes, Rounds: 3, Scale: 1.3})
	sources := []labeled{{"a", x}, {"b", y}}
	b.ResetTimer()
	for range b.N {
		if _, err := compareSome(sources, false, compare.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
