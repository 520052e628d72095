package linecost

import (
	"bytes"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/comparetest"
	"github.com/logbench/logbench/kit/experiment"
)

const finalBundle = "../../../results/2026-11-30-vm2/lc-final.tar.gz"

// TestCompareArchivedGolden compares the committed bundle with the published figures
// in every format.
func TestCompareArchivedGolden(t *testing.T) {
	final := comparetest.Archived(t, Experiment, "lc-final", finalBundle)
	comparetest.EveryFormat(t, Experiment, "final-published", []experiment.Source{final}, true)
}

// A bundle compared with itself changes nothing; --match bogus is bad input; a
// wall-clock figure with throttled trials is marked.
func TestCompareItselfAndABogusMatch(t *testing.T) {
	final := comparetest.Archived(t, Experiment, "a", finalBundle)
	b := final
	b.Label = "b"
	var out bytes.Buffer
	if err := (Experiment).Compare(&out, &bytes.Buffer{}, []experiment.Source{final, b}, experiment.CompareOptions{Format: "text"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"b vs a: 0 of 14 conditions changed", "1.000x over 12 of 14", "a throttled trials: go/slog/fsync, python/logging/fsync"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
	err := Experiment.Compare(&out, &bytes.Buffer{}, []experiment.Source{final, b}, experiment.CompareOptions{Format: "text", Match: []string{"bogus"}})
	if err == nil || !strings.Contains(err.Error(), `no condition has "bogus"`) {
		t.Fatalf("err %v", err)
	}
}
