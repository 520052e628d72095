package tabular

// Columns a runs table shares with every experiment's that has them: a row type embeds
// them, and the bundle's reader, writer and data package read them as its own columns
// (bundle.FieldsOf flattens an embedded struct), found by name in any order.

// RunPlace is where a run stood in its matrix, and how long the kit took over it: the
// matrix's own record of every run (experiment.Run), whatever the experiment measured.
type RunPlace struct {
	Round      int     `csv:"round" unit:"1" doc:"The round of the matrix, from 1."`
	Position   int     `csv:"position" unit:"1" doc:"The run's place in its round, from 1 (the order rotates between rounds)."`
	StartedUTC string  `csv:"started_utc" doc:"When the kit started the run, UTC, RFC 3339 with nanoseconds."`
	WallS      float64 `csv:"wall_s" unit:"s" doc:"The kit's whole run, from creating the pod to removing it."`
}

// Attempted are the columns of a runs table whose runs are redone (Own.Retry): each
// attempt is kept, the superseded ones in no figure.
type Attempted struct {
	Attempt    int  `csv:"attempt" unit:"1" doc:"Which attempt at this condition and round, from 1: a later attempt redoes a run the experiment's retry rule rejected; 0 in a bundle written before the kit redid runs."`
	Superseded bool `csv:"superseded" doc:"true when a later attempt redid this run: kept in the bundle, counted in no figure."`
}
