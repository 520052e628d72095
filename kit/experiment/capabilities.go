package experiment

import (
	"context"
	"io"
	"time"
)

// The optional capabilities below are what some experiments offer beyond reproduce:
// a command finds them by a type assertion on the Experiment (or its Plan), and says
// plainly that an experiment without one has no such thing. None of them names a type
// of one experiment.

// Imager is an experiment that names, without a plan, the images its runs may need, so
// that `logbench build --experiment NAME` makes them ahead of any run (on a host with a
// network, for one without: build --save).
type Imager interface {
	// ImagesFor names them: the images of the experiment's APIs, or of one of them (api;
	// "" or "all": every one), and those of its load generators and helpers. An api the
	// experiment does not have is a UsageError.
	ImagesFor(api string) ([]string, error)
}

// SingleRunner is an experiment whose `logbench run` has flags of its own rather than
// reproduce's narrowed to one condition (fifo-stall's --mode and --reader, on the Go
// API by default).
type SingleRunner interface {
	// SingleRunParams are run's parameters at this experiment's defaults, fresh at
	// each call.
	SingleRunParams() Params
	// PlanSingleRun checks them, every problem before the engine is reached, into a
	// plan of one condition and one round.
	PlanSingleRun(p Params) (Plan, error)
}

// RunReporter is a plan that says more of its one run than the matrix's progress line,
// for `logbench run` (fifo-stall: the requests and latencies, the log bytes and their
// SHA-256, the drain). Without it, run writes the progress line and the bundle's
// summary.
type RunReporter interface {
	// RunHeader is said before the run: its condition and the load it is offered.
	RunHeader() string
	// ReportRun writes what the run added last measured, and says why it is not data
	// ("" when it is).
	ReportRun(w io.Writer) (failure string)
}

// Consenter is a plan whose bundle may record what the kit grants only when the command
// line asks for it (your-api: a service run with relaxed hardening). A bundle to resume
// is someone's writing, so resuming it never grants that on the bundle's word: the
// command line must ask for the same again.
type Consenter interface {
	// ConsentFlags are the experiment's flags that --resume takes.
	ConsentFlags() []string
	// Consent holds the bundle to those flags as the command line gave them (asked, the
	// experiment's parameters bound to it): a UsageError, in one line, names the flags
	// the bundle needs, or those it did not have.
	Consent(asked Params) error
}

// Calibrator is an experiment that measures its own instrument on an engine, inside its
// runs' limits, for `logbench calibrate` (fifo-stall: the load generator's send lag and
// timers, the reader's pacing, the pipe, the kit's overhead per run, the capacity).
type Calibrator interface {
	// CalibrationParams are calibrate's parameters at this experiment's defaults, fresh
	// at each call.
	CalibrationParams() Params
	// PlanCalibration checks them, every problem before the engine is reached.
	PlanCalibration(p Params) (Calibration, error)
}

// Calibration is a validated measurement of an experiment's instrument.
type Calibration interface {
	// Images names the images it runs (see Plan.Images).
	Images() []string
	// Measure performs it on pods, with images (each name of Images to its ID) found or
	// built in imageBuild, saying on out what it is doing; it returns its figures in the
	// order they are shown.
	Measure(ctx context.Context, pods Pods, images map[string]string, imageBuild time.Duration, out io.Writer) ([]Figure, error)
}

// Figure is one figure of a calibration: its name, its value as written, and what it
// is.
type Figure struct {
	Name, Value, What string
}

// Grower is a plan whose conditions follow from the runs before them (your-api's
// --capacity: each configuration's next rate from its last step's outcome). Once the
// runs planned so far are done, the lab asks it to grow: it judges the bundle and adds
// the next conditions, each run for every round, to its own conditions and its
// manifest's parameters, so that the manifest's count of planned runs stays its
// conditions times its rounds.
type Grower interface {
	// Grow adds the next conditions and returns them; none when the plan is complete.
	Grow() ([]Condition, error)
	// MostRuns is the most runs the plan may grow to, for the disk check.
	MostRuns() int
}

// RoundGrower is a growing plan whose rounds are its own (a capacity search's: another
// search of every condition, from its first step), for reproduce --precision: once it
// has grown to its end, the lab judges its figures and, while they are not known to the
// target, has it add a round.
type RoundGrower interface {
	Grower
	// AddRound plans one more round and returns its first conditions.
	AddRound() ([]Condition, error)
	// OwnRounds are the rounds planned so far.
	OwnRounds() int
}
