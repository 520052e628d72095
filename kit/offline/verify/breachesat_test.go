package verify

import "testing"

// A breach is a problem of the row's column; a rule that held adds none.
func TestBreachesAtPlacesABreachAtItsRow(t *testing.T) {
	var r Result
	place := r.BreachesAt("runs.csv", 3, "run r1")
	place("wall_s", nil)
	place("wall_s", WallCovers(1, Part{Name: "warmup_s", Value: 2}))
	if len(r.Problems) != 1 {
		t.Fatalf("problems %+v, want one", r.Problems)
	}
	if p := r.Problems[0]; p.File != "runs.csv" || p.Line != 3 || p.Key != "run r1" || p.Column != "wall_s" || p.Msg == "" {
		t.Errorf("problem %+v", p)
	}
}
