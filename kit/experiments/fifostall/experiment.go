// Package fifostall is the kit's first experiment: an API that writes its log lines to
// a FIFO, read by a fast or a throttled reader, under open-loop load; seven logging
// modes; the p99 from the scheduled send, the drain, both throughputs, and SHA-256 proof
// that no log byte was lost. The kit owns the bundle (kit/experiment/tabular): this
// package declares its tables, derivation and rules, its plan, pods and
// runs (Tabular), its comparison, its report's answer and drawings, and its calibration.
package fifostall

import (
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
)

// Experiment is the FIFO-stall experiment as a plug-in: its declaration on the kit
// (Tabular), which writes, verifies, compares and draws its bundles, with `logbench
// run` and `logbench calibrate` of its own.
var Experiment = plugin{Tabular}

type plugin struct {
	*tabular.Experiment[*Params, RunRow]
}

var _ experiment.Experiment = Experiment

// reproduceParams are reproduce's parameters at their defaults: every mode and reader
// on the article's Python API, the instrument calibrated first, up to two retries.
func reproduceParams() *Params {
	p := DefaultParams(PythonAPI)
	p.Calibrate, p.Retries = true, 2
	return p
}
