package tabular

import (
	"time"

	"github.com/logbench/logbench/kit/experiment"
)

// Performed are the columns of a row of runs that say how the matrix performed the
// run, as an experiment that redoes runs (Own.Retry) records them: its ID, its place
// (RunPlace) and its attempt (Attempted). Its row embeds them, and Record fills them
// with PerformedOf.
type Performed struct {
	RunID string `csv:"run_id" doc:"The run's identifier, unique in the bundle; runs.csv has its condition."`
	RunPlace
	Attempted
}

// PerformedOf are run's columns as the matrix performed it; a run of a matrix that did
// not number its attempts is the first.
func PerformedOf(run experiment.Run) Performed {
	return Performed{RunID: run.ID, RunPlace: RunPlaceOf(run), Attempted: Attempted{Attempt: max(run.Attempt, 1)}}
}

// RunPlaceOf is run's place as the matrix performed it: its round and position, its
// start in UTC and its wall time.
func RunPlaceOf(run experiment.Run) RunPlace {
	return RunPlace{Round: run.Round, Position: run.Position, StartedUTC: run.Started.UTC().Format(time.RFC3339Nano), WallS: run.Wall.Seconds()}
}
