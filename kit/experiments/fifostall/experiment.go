// Package fifostall is the kit's first experiment: an API that writes its log lines to
// a FIFO, read by a fast or a throttled reader, under open-loop load; seven logging
// modes; the p99 from the scheduled send, the drain, both throughputs, and SHA-256 proof
// that no log byte was lost.
package fifostall

import (
	"github.com/logbench/logbench/kit/experiments/fifostall/schema"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/results/reference"
)

// Name is the experiment's name.
const Name = schema.Name

// Experiment is the FIFO-stall experiment as a plug-in.
type Experiment struct{}

var _ experiment.Experiment = Experiment{}

func (Experiment) Name() string { return Name }

func (Experiment) Summary() string {
	return "a slow log reader stalls an API: 7 logging modes x fast/throttled FIFO reader, open-loop load, p99, drain, no byte lost"
}

func (Experiment) Source() string { return reference.Source }

// Params are reproduce's parameters at their defaults: every mode and reader on the
// article's Python API, the instrument calibrated first, up to two retries.
func (Experiment) Params() experiment.Params {
	p := DefaultParams(PythonAPI)
	p.Calibrate, p.Retries = true, 2
	return p
}

// Plan checks reproduce's flags into the matrix API x mode x reader.
func (Experiment) Plan(ps experiment.Params, rounds int) (experiment.Plan, error) {
	own, err := experiment.Own[*schema.Params](ps)
	if err != nil {
		return nil, err
	}
	params := *own
	params.Rounds = rounds
	if err := params.Check(); err != nil {
		return nil, err
	}
	p := NewPlan(Cross(params.APIs, params.Modes, params.Readers), rounds, params)
	p.Calibrate = params.Calibrate
	return p, nil
}

// Resume reads the plan back from the bundle in dir, which has been verified.
func (Experiment) Resume(dir string) (experiment.Plan, error) {
	files, err := bundle.ReadFolder(dir)
	if err != nil {
		return nil, usagef("--resume %s: %v", dir, err)
	}
	checked := Experiment{}.Verify(files)
	if !checked.OK() {
		return nil, usagef("--resume %s: the bundle does not verify (%d problems, the first: %s); see logbench verify %s",
			dir, len(checked.Problems), checked.Problems[0], dir)
	}
	b := schema.Of(checked)
	if b.Manifest.Command != "reproduce" {
		return nil, usagef("--resume %s: a bundle of %q, not of reproduce", dir, b.Manifest.Command)
	}
	mp := b.Manifest.Parameters
	return &Plan{conds: Cross(mp.APIs, mp.Modes, mp.Readers), rounds: mp.Rounds, Settings: SettingsOf(mp), bundle: &Bundle{B: b}}, nil
}

func contains(list []string, s string) bool {
	for _, have := range list {
		if have == s {
			return true
		}
	}
	return false
}
