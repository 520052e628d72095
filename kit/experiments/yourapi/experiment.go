// Package yourapi is the experiment "your-api": the seeds' question asked of a service
// the kit did not write. Any image the engine already has runs under exact CPU and
// memory limits and the kit's hardening, once per logging configuration (environment
// variables, or a command override); the qps experiment's closed loop or fifo-stall's
// open loop loads one of its URLs; its console is read back through the engine's log
// driver and its log directory from the run's volume, and their lines are counted, not
// verified: the kit cannot know what a foreign service meant to write. CPU is
// measured inside the container (its processes) and in the engine's processes, and
// each configuration's cost per request is set against a baseline configuration's.
// The kit owns the bundle (kit/experiment/tabular); this package declares it.
package yourapi

import (
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
)

// Name is the experiment's name.
const Name = "your-api"

var usagef = experiment.Usagef

// Bundle is a your-api bundle as a matrix fills it and verify reads it.
type Bundle = tabular.Bundle[*Params, RunRow]

// Experiment is your-api, declared; it adds the search's and the consent's plans, the
// comparison of one bundle within itself and its own report.
var Experiment = yourAPI{&tabular.Experiment[*Params, RunRow]{
	About: experiment.Info{Name: Name,
		Summary:   "your own image: requests/s, latency and CPU inside and outside the container in each logging configuration you give (--config NAME:ENV=VALUE), lines counted, not verified",
		Source:    "nothing: it measures your own service, against its baseline configuration",
		Question:  "What does each logging configuration cost your service, against its baseline?",
		Reference: "the bundle's baseline configuration"},
	Defaults: DefaultParams,
	// A condition is a configuration, and in a capacity search one of its steps.
	Axes:       []string{"config", "step"},
	Conditions: conditions,
	Images:     []string{LoadImage},
	Pod:        podOf,
	Target:     target,
	Observe:    Record,
	Judge: func(p *Params, r *RunRow, own tabular.Rows) {
		*r = DeriveRun(*r, tabular.Of[SeriesRow](own, SeriesFile), *p)
	},
	Runs: bundle.Table{File: RunsFile, Name: "runs", Refs: []bundle.Ref{{Columns: []string{"config"}, Table: ConditionsFile}},
		Text: "One row per run, failed and superseded ones too: the load as the generator measured it, the log lines read back and counted (not verified), " +
			"CPU inside and outside the service's container, and the figures derived from them (from requests on), which verify recomputes."},
	Tables: []tabular.Table[*Params]{
		tabular.Seconds[*Params](SeriesFile, RunsFile, func(run experiment.Run) []int64 { return loops(run).Seconds() }),
		tabular.Derived(bundle.Table{File: ConditionsFile, Name: "conditions", Key: []string{"config"},
			Text: "One row per logging configuration, in the manifest's order: figures pooled over its pooled runs (verified, lag-trusted, not superseded), and its cost against the baseline configuration."},
			func(p *Params, runs []RunRow, _ tabular.Rows) []ConditionRow { return DeriveConditions(runs, *p) }),
		Search.Table(Name),
	},
	Metrics:  Metrics,
	Manifest: func() tabular.Manifest[*Params] { return &Manifest{} },
	Rules:    rules,
	Drawings: drawings,
	Own: tabular.Own[*Params, RunRow]{Figures: Rows, Later: addedLater,
		Legend: func(*Bundle) []string { return legend }, Host: func(b *Bundle) []compare.KV { return []compare.KV{{Key: "image", Value: b.Params().Image}} },
		Earlier: earlier, Summary: summary, Describe: describe, Prepare: prepare, Measured: func(run experiment.Run) bool { return loops(run).Started() }, Progress: progress,
		Across: markRuns, Retry: retry, Answer: answer, Categories: categories, ParamsShown: paramsShown, Rounds: Search.Rounds},
}}

// yourAPI is the declaration with what is your-api's own beyond it.
type yourAPI struct {
	*tabular.Experiment[*Params, RunRow]
}

var _ experiment.Experiment = Experiment

// ImagesFor names the kit's own images: the service's is the user's, which the engine
// must already have, so there is no API to choose.
func (yourAPI) ImagesFor(api string) ([]string, error) {
	if api != "" && api != "all" {
		return nil, usagef("--api %s: %s runs your service's image (reproduce --image); the kit builds only its load generator", api, Name)
	}
	return []string{LoadImage}, nil
}

// Plan checks the flags into a matrix of configurations, or of a search's steps.
func (e yourAPI) Plan(ps experiment.Params, rounds int) (experiment.Plan, error) {
	p, err := e.Experiment.Plan(ps, rounds)
	if err != nil {
		return nil, err
	}
	return planOf(p), nil
}

// Resume reads the plan back from the bundle in dir, which must verify and record the
// image it ran.
func (e yourAPI) Resume(dir string) (experiment.Plan, error) {
	p, err := e.Experiment.Resume(dir)
	if err != nil {
		return nil, err
	}
	// Target runs the image only if the engine's image of that name is still this one.
	if pr := p.Bundle().(*Bundle).Params(); pr.ImageID == "" {
		return nil, usagef("--resume %s: the bundle records no image ID for %s, so the image it ran cannot be told from another of that name", dir, pr.Image)
	}
	return planOf(p), nil
}
