package experiments

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/experiments/internal/comparetest"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// TestEveryArchivedBundleVerifies: every bundle the repository keeps under results/,
// of every format the kit has written, verifies with this kit, and says how far its
// figures can be trusted in the words its golden file holds: trust recomputed from the
// runs (or said not recorded), never a count the files merely claim.
func TestEveryArchivedBundleVerifies(t *testing.T) {
	archives, err := filepath.Glob("../../results/*/*.tar.gz")
	if err != nil || len(archives) < 10 {
		t.Fatalf("%d archived bundles under results/ (%v), want the 10 the repository keeps", len(archives), err)
	}
	for _, path := range archives {
		name := filepath.Base(filepath.Dir(path)) + "-" + strings.TrimSuffix(filepath.Base(path), ".tar.gz")
		t.Run(name, func(t *testing.T) {
			files, err := bundle.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			exp, err := Of(files)
			if err != nil {
				t.Fatal(err)
			}
			res := exp.Verify(files)
			if !res.OK() {
				t.Fatalf("%s does not verify: %v", path, res.Problems)
			}
			var b strings.Builder
			b.WriteString(strings.ReplaceAll(res.Summary(), path, filepath.Base(path)) + "\n")
			for _, n := range res.Notes {
				b.WriteString("note: " + n.String() + "\n")
			}
			comparetest.GoldenFile(t, filepath.Join("testdata", "archived", name+".txt"), []byte(b.String()))
		})
	}
}
