package experiments

import (
	"bytes"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/comparetest"
	"github.com/logbench/logbench/kit/experiment"
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

// TestEveryComparisonNamesItsExperiment: the JSON of a comparison of every archived
// bundle (with itself, and alone where the experiment compares a bundle within
// itself) names the bundle's experiment, which a reader of the JSON alone has nothing
// else to learn it from.
func TestEveryComparisonNamesItsExperiment(t *testing.T) {
	archives, err := filepath.Glob("../../results/*/*.tar.gz")
	if err != nil || len(archives) == 0 {
		t.Fatalf("no archived bundle (%v)", err)
	}
	for _, path := range archives {
		t.Run(filepath.Base(filepath.Dir(path))+"-"+filepath.Base(path), func(t *testing.T) {
			files, err := bundle.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			exp, err := Of(files)
			if err != nil {
				t.Fatal(err)
			}
			res := exp.Verify(files)
			a, b := experiment.Source{Label: "a", Result: res}, experiment.Source{Label: "b", Result: res}
			sets := [][]experiment.Source{{a, b}}
			if exp.Info().Reference != "" {
				sets = append(sets, []experiment.Source{a})
			}
			for _, sources := range sets {
				var out bytes.Buffer
				if err := exp.Compare(&out, io.Discard, sources, experiment.CompareOptions{Format: "json"}); err != nil {
					t.Fatal(err)
				}
				var doc struct {
					Experiment string `json:"experiment"`
				}
				if err := json.Unmarshal(out.Bytes(), &doc); err != nil || doc.Experiment != exp.Info().Name {
					t.Errorf("%d bundles: experiment %q (%v), want %q", len(sources), doc.Experiment, err, exp.Info().Name)
				}
			}
		})
	}
}
