// Package yourapi is the experiment "your-api": the seeds' question asked of a service
// the kit did not write. Any image the engine already has runs under exact CPU and
// memory limits and the kit's hardening, once per logging configuration (environment
// variables, or a command override); the qps experiment's closed loop or fifo-stall's
// open loop loads one of its URLs; its console is read back through the engine's log
// driver and its log directory from the run's volume, and their lines are counted, not
// verified: the kit cannot know what a foreign service meant to write. CPU is
// measured inside the container (its processes) and in the engine's processes, and
// each configuration's cost per request is set against a baseline configuration's.
package yourapi

import (
	"github.com/logbench/logbench/kit/experiment"
)

// Name is the experiment's name.
const Name = "your-api"

// Experiment is your-api as a plug-in.
type Experiment struct{}

var _ experiment.Experiment = Experiment{}

func (Experiment) Name() string { return Name }

func (Experiment) Summary() string {
	return "your own image: requests/s, latency and CPU inside and outside the container in each logging configuration you give (--config NAME:ENV=VALUE), lines counted, not verified"
}

func (Experiment) Source() string {
	return "nothing: it measures your own service, against its baseline configuration"
}

var usagef = experiment.Usagef

// Params are your-api's parameters at their defaults.
func (Experiment) Params() experiment.Params { return DefaultParams() }

// Plan checks the flags into a matrix of configurations.
func (Experiment) Plan(ps experiment.Params, rounds int) (experiment.Plan, error) {
	p, err := experiment.Own[*Params](ps)
	if err != nil {
		return nil, err
	}
	settled, err := p.settled(rounds)
	if err != nil {
		return nil, err
	}
	return planOf(NewPlan(settled)), nil
}

// Resume reads the plan back from the bundle in dir, which must verify.
func (Experiment) Resume(dir string) (experiment.Plan, error) {
	b, err := experiment.ReadResumed(dir, verifyFiles, (*Bundle).Common)
	if err != nil {
		return nil, err
	}
	// Target runs the image only if the engine's image of that name is still this one.
	if b.M.Parameters.ImageID == "" {
		return nil, usagef("--resume %s: the bundle records no image ID for %s, so the image it ran cannot be told from another of that name", dir, b.M.Parameters.Image)
	}
	return planOf(&Plan{bundle: b}), nil
}
