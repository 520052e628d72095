// Package fifostall is the kit's first experiment: an API that writes its log lines to
// a FIFO, read by a fast or a throttled reader, under open-loop load; seven logging
// modes; the p99 from the scheduled send, the drain, both throughputs, and SHA-256 proof
// that no log byte was lost. The kit owns the bundle (kit/experiment/tabular): schema
// declares its tables, derivation and rules, and this package its plan, pods and runs
// (Tabular), its comparison, its report's answer and drawings, and its calibration.
package fifostall

import (
	"github.com/logbench/logbench/kit/experiments/fifostall/schema"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// Name is the experiment's name.
const Name = schema.Name

// Experiment is the FIFO-stall experiment as a plug-in.
type Experiment struct{}

var _ experiment.Experiment = Experiment{}

// Info is the declaration's (Tabular).
func (Experiment) Info() experiment.Info { return Tabular.Info() }

// Params are reproduce's parameters at their defaults: every mode and reader on the
// article's Python API, the instrument calibrated first, up to two retries.
func (Experiment) Params() experiment.Params {
	p := DefaultParams(PythonAPI)
	p.Calibrate, p.Retries = true, 2
	return p
}

// Plan checks reproduce's flags into the matrix API x mode x reader (Tabular).
func (Experiment) Plan(ps experiment.Params, rounds int) (experiment.Plan, error) {
	return Tabular.Plan(ps, rounds)
}

// Resume reads the plan back from the bundle in dir, which must verify and be
// reproduce's (Tabular).
func (Experiment) Resume(dir string) (experiment.Plan, error) { return Tabular.Resume(dir) }

// Verify checks every file, checksum and figure of a bundle, the kit's checks of every
// table-driven bundle and fifo-stall's rules (Tabular), and the record of reproduce
// --precision against the figures.
func (Experiment) Verify(files *bundle.Files) *verify.Result { return Tabular.Verify(files) }
