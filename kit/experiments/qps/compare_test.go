package qps

import (
	"bytes"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/comparetest"
	"github.com/logbench/logbench/kit/experiment"
)

const (
	finalBundle = "../../../results/2026-11-30-vm2/qps-final.tar.gz"
	wrkBundle   = "../../../results/2026-11-30-vm2/qps-wrk.tar.gz"
)

// TestCompareArchivedGolden compares the committed bundles in every format, and one
// against the published figures.
func TestCompareArchivedGolden(t *testing.T) {
	final, wrk := comparetest.Archived(t, Experiment, "qps-final", finalBundle), comparetest.Archived(t, Experiment, "qps-wrk", wrkBundle)
	for _, tc := range []struct {
		name      string
		published bool
		sources   []experiment.Source
	}{
		{"final-wrk", false, []experiment.Source{final, wrk}},
		{"final-published", true, []experiment.Source{final}},
	} {
		warn := comparetest.EveryFormat(t, Experiment, tc.name, tc.sources, tc.published)
		comparetest.Golden(t, "archived-"+tc.name+".warnings.txt", warn)
	}
}

// The requests/s of an API whose rate wrk contradicts are marked NOT CONFIRMED in
// every format, and count in no geomean.
func TestCompareMarksWhatWrkDoesNotConfirm(t *testing.T) {
	final, wrk := comparetest.Archived(t, Experiment, "qps-final", finalBundle), comparetest.Archived(t, Experiment, "qps-wrk", wrkBundle)
	var text, js bytes.Buffer
	if err := (Experiment).Compare(&text, &bytes.Buffer{}, []experiment.Source{final, wrk}, experiment.CompareOptions{Format: "text"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "5956?") || !strings.Contains(text.String(), "qps-wrk NOT CONFIRMED by wrk (the kit's rate 1.06 x wrk's): node/none") {
		t.Errorf("text:\n%s", text.String())
	}
	if err := (Experiment).Compare(&js, &bytes.Buffer{}, []experiment.Source{final, wrk}, experiment.CompareOptions{Format: "json"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"NOT CONFIRMED by wrk (the kit's rate`) {
		t.Errorf("json has no mark")
	}
}

// A bundle compared with itself changes nothing; --match bogus is bad input.
func TestCompareItselfAndABogusMatch(t *testing.T) {
	final := comparetest.Archived(t, Experiment, "a", finalBundle)
	b := final
	b.Label = "b"
	var out bytes.Buffer
	if err := (Experiment).Compare(&out, &bytes.Buffer{}, []experiment.Source{final, b}, experiment.CompareOptions{Format: "text"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "b vs a: 0 of 4 conditions changed") || !strings.Contains(out.String(), "1.000x over 4 of 4") {
		t.Errorf("text:\n%s", out.String())
	}
	err := Experiment.Compare(&out, &bytes.Buffer{}, []experiment.Source{final, b}, experiment.CompareOptions{Format: "text", Match: []string{"bogus"}})
	if err == nil || !strings.Contains(err.Error(), `no condition has "bogus"`) {
		t.Fatalf("err %v", err)
	}
}
