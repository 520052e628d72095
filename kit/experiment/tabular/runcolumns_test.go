package tabular

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// A row type that embeds the run's columns has them as its own: in the file where it
// embeds them, and read back by name from a file that has them in another order.
func TestRunColumnsAreTheRowsOwn(t *testing.T) {
	type row struct {
		RunID string `csv:"run_id" doc:"The run."`
		RunPlace
		Attempted
		Verified bool `csv:"verified" doc:"Data."`
	}
	if d := cmp.Diff([]string{"run_id", "round", "position", "started_utc", "wall_s", "attempt", "superseded", "verified"}, bundle.Columns[row]()); d != "" {
		t.Errorf("columns (-want +have):\n%s", d)
	}
	file := "verified,superseded,attempt,wall_s,started_utc,position,round,run_id\ntrue,true,2,3.5,2026-12-03T10:00:00Z,4,1,r1\n"
	d := bundle.DecodeCSV[row]("runs.csv", []byte(file), 10)
	if len(d.Errs) > 0 || len(d.Missing) > 0 {
		t.Fatalf("errors %v, missing %v", d.Errs, d.Missing)
	}
	want := row{RunID: "r1", RunPlace: RunPlace{Round: 1, Position: 4, StartedUTC: "2026-12-03T10:00:00Z", WallS: 3.5}, Attempted: Attempted{Attempt: 2, Superseded: true}, Verified: true}
	if diff := cmp.Diff([]row{want}, d.Rows); diff != "" {
		t.Errorf("rows (-want +have):\n%s", diff)
	}
}
