// Package qps is the kit's second experiment: how much an access log costs an API at
// saturation (reference/qps-experiment.md). The Node.js API of images/api-node (Express
// and morgan, the published formats) in four configurations, none, console, file and
// console+file, under closed-loop load as autocannon -c 10 -d 5 -p 1 offers it; every
// log line the API wrote is read back, from the engine's log driver (console) and from
// the shared volume (file), and verified by count, bytes and SHA-256.
package qps

import (
	"github.com/logbench/logbench/kit/experiment"
)

// Name is the experiment's name.
const Name = "qps"

// The API implementations this experiment can run.
const (
	NodeAPI = "node"
	GoAPI   = "go"
	PyAPI   = "python"
)

// APIs are the implementations that serve the four configurations: the published
// Node.js API, the Go API with gorilla/handlers' access log, the Python API with the
// standard library's logging.
var APIs = []string{NodeAPI, GoAPI, PyAPI}

// ImageOf names the image that serves api.
func ImageOf(api string) string {
	switch api {
	case NodeAPI:
		return "api-node"
	case PyAPI:
		return "api-python"
	}
	return "api"
}

// Experiment is the qps experiment as a plug-in.
type Experiment struct{}

var _ experiment.Experiment = Experiment{}

func (Experiment) Name() string { return Name }

func (Experiment) Summary() string {
	return "requests/s of an Express API with morgan access logs: none, console (the engine's log driver), file, console+file; closed-loop load, every line read back"
}

func (Experiment) Source() string {
	pub, err := LoadPublished()
	if err != nil {
		return "seed 004"
	}
	return pub.Source
}

// Params are qps's parameters at their defaults.
func (Experiment) Params() experiment.Params { return DefaultParams() }

var usagef = experiment.Usagef

// Plan checks reproduce's flags into the matrix api x config.
func (Experiment) Plan(ps experiment.Params, rounds int) (experiment.Plan, error) {
	p, err := experiment.Own[*Params](ps)
	if err != nil {
		return nil, err
	}
	settled, err := p.settled(rounds)
	if err != nil {
		return nil, err
	}
	return NewPlan(settled), nil
}

// Resume reads the plan back from the bundle in dir, which must verify.
func (e Experiment) Resume(dir string) (experiment.Plan, error) {
	b, err := experiment.ReadResumed(dir, verifyFiles, (*Bundle).Common)
	if err != nil {
		return nil, err
	}
	return &Plan{conds: cross(b.M.Parameters.APIs, b.M.Parameters.Configs), bundle: b, pods: map[string]int{}}, nil
}

var _ experiment.Imager = Experiment{}

// ImagesFor names the images of api's runs ("" or "all": every API's), with the load
// generator and wrk, which checks every configuration's rate by default.
func (Experiment) ImagesFor(api string) ([]string, error) {
	apis := APIs
	switch api {
	case "", "all":
	case NodeAPI, GoAPI, PyAPI:
		apis = []string{api}
	default:
		return nil, usagef("--api %q: want node, go, python or all", api)
	}
	return NewPlan(Params{APIs: apis, Wrk: true}).Images(), nil
}
