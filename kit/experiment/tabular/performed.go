package tabular

import (
	"time"

	"github.com/logbench/logbench/kit/experiment"
)

// Performed are the columns of a row of runs that say how the matrix performed the
// run, as every experiment that redoes runs (Own.Retry) records them: its row embeds
// them, and Record fills them with PerformedOf.
type Performed struct {
	RunID      string  `csv:"run_id" doc:"The run's identifier, unique in the bundle; runs.csv has its condition."`
	Round      int     `csv:"round" unit:"1" doc:"The round of the matrix, from 1."`
	Position   int     `csv:"position" unit:"1" doc:"The run's place in its round, from 1 (the order rotates between rounds)."`
	Attempt    int     `csv:"attempt" unit:"1" doc:"The attempt of this condition in this round, from 1: a run the experiment performs again (a capacity step its generator could not keep, an open loop whose sends were late) is performed as the next attempt."`
	Superseded bool    `csv:"superseded" doc:"true when the run was performed again (a later attempt replaces it): it counts in no figure."`
	StartedUTC string  `csv:"started_utc" doc:"When the kit started the run, UTC, RFC 3339 with nanoseconds."`
	WallS      float64 `csv:"wall_s" unit:"s" doc:"The kit's whole run, from creating the pod to removing it."`
}

// PerformedOf are run's columns as the matrix performed it; a run of a matrix that did
// not number its attempts is the first.
func PerformedOf(run experiment.Run) Performed {
	return Performed{RunID: run.ID, Round: run.Round, Position: run.Position, Attempt: max(run.Attempt, 1),
		StartedUTC: run.Started.UTC().Format(time.RFC3339Nano), WallS: run.Wall.Seconds()}
}
