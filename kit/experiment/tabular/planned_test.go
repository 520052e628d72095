package tabular_test

import (
	"slices"
	"testing"

	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// TestARunOfNoPlannedConditionIsAProblem: a run whose cell the manifest's parameters
// no longer plan is named, on its line, with what they plan, whatever the experiment
// (its rules add nothing); the runs of planned cells are not.
func TestARunOfNoPlannedConditionIsAProblem(t *testing.T) {
	exp := tiny()
	dir := tinyBundle(t, exp, "reproduce", []int{1, 2}, 1, 2)
	files, err := bundle.ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if res := exp.Verify(files); !res.OK() {
		t.Fatalf("the bundle as written: %v", res.Problems)
	}
	planned := exp.Conditions
	exp.Conditions = func(p *tinyParams) []tabular.Cell {
		return slices.DeleteFunc(planned(p), func(c tabular.Cell) bool { return c[0] == "2" })
	}
	var have []string
	for _, p := range exp.Verify(files).Problems {
		if p.Msg == "2 is not a condition of manifest.json's parameters, which plan size 1" {
			have = append(have, p.Key)
		}
	}
	if len(have) != 1 || have[0] == "" {
		t.Errorf("problems of the unplanned run: %q, want one, keyed by its run", have)
	}
}
