package compare

import (
	"testing"

	"github.com/logbench/logbench/kit/offline/bundle/bundletest"
)

// BenchmarkBundles compares two bundles the size of the published matrix (7 modes x 2
// readers x 3 runs of 160 requests): every metric's hierarchical bootstrap, 2000
// resamples a row.
func BenchmarkBundles(b *testing.B) {
	modes := []string{"none", "short1", "short10", "json-only", "json-prebuilt-sync", "json-sync", "json-queue"}
	x := bundletest.New(bundletest.Options{Seed: 1, Modes: modes, Rounds: 3})
	y := bundletest.New(bundletest.Options{Seed: 2, Modes: modes, Rounds: 3, Scale: 1.3})
	sources := []Labeled{{"a", x}, {"b", y}}
	b.ResetTimer()
	for range b.N {
		if _, err := Bundles(sources, BundleOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
