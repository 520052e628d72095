// Package qps is the kit's second experiment: how much an access log costs an API at
// saturation (reference/qps-experiment.md). The Node.js API of images/api-node (Express
// and morgan, the published formats) in four configurations, none, console, file and
// console+file, under closed-loop load as autocannon -c 10 -d 5 -p 1 offers it; every
// log line the API wrote is read back, from the engine's log driver (console) and from
// the shared volume (file), and verified by count, bytes and SHA-256. The kit owns the
// bundle (kit/experiment/tabular); this package declares it.
package qps

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/httpload"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/report"
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

// The bundle's files.
const (
	RunsFile       = "runs.csv"
	SeriesFile     = "series.csv"
	ConditionsFile = "conditions.csv"
	SumsFile       = bundle.SumsFile
)

// Bundle is a qps bundle as a matrix fills it and verify reads it.
type Bundle = tabular.Bundle[*Params, RunRow]

// Experiment is the qps experiment, declared; ImagesFor chooses among its APIs.
var Experiment = withAPIs{&tabular.Experiment[*Params, RunRow]{
	About: experiment.Info{Name: Name,
		Summary:  "requests/s of an Express API with morgan access logs: none, console (the engine's log driver), file, console+file; closed-loop load, every line read back",
		Source:   mustPublished().Source,
		Question: "What does logging to the console and to a file cost, against no logging?"},
	Defaults: DefaultParams,
	// A condition is an API's configuration, and in a capacity search one of its steps.
	Axes:       []string{"api", "config", "step"},
	Conditions: conditions,
	Images:     []string{"api-node", "api", "api-python", "qpsload", "wrk"},
	Needs:      needs,
	Pod:        pod,
	Target:     target,
	Observe:    Record,
	Judge: func(p *Params, r *RunRow, own tabular.Rows) {
		*r = DeriveRun(*r, tabular.Of[SeriesRow](own, SeriesFile), p.NonBlocking)
	},
	Runs: bundle.Table{File: RunsFile, Name: "runs", Refs: []bundle.Ref{{Columns: []string{"api", "config"}, Table: ConditionsFile}},
		Text: "One row per run, failed ones too: the closed-loop load as the generator measured it, the API's own counters, the engine's and the host's CPU, " +
			"every access log read back and checked, and the figures derived from them (from requests on), which verify recomputes.",
		Enums: map[string][]string{"api": APIs, "config": Configs}},
	Tables: []tabular.Table[*Params]{
		tabular.Seconds[*Params](SeriesFile, RunsFile, func(run experiment.Run) []int64 { return loops(run).Seconds() }),
		tabular.Derived(bundle.Table{File: ConditionsFile, Name: "conditions", Key: []string{"api", "config"},
			Text:  "One row per condition (api x config, in the manifest's order): figures pooled over its verified runs, and the article's figures beside them.",
			Enums: map[string][]string{"api": APIs, "config": Configs}},
			func(p *Params, runs []RunRow, _ tabular.Rows) []ConditionRow {
				return DeriveConditions(runs, *p, mustPublished())
			}),
		Search.Table(Name),
	},
	Metrics: Metrics,
	Manifest: func() tabular.Manifest[*Params] {
		return &Manifest{RoundsInParams: tabular.RoundsInParams[Params, *Params]{Settle: (*Params).settled}}
	},
	Rules:     rules,
	Published: published,
	Drawings:  drawings,
	Own: tabular.Own[*Params, RunRow]{Figures: Rows, Later: addedLater, Earlier: earlier, Summary: summary, Answer: answer,
		Legend: func(*Bundle) []string { return compareLegend }, Host: host, Prepare: prepare,
		Describe: tabular.Describes(Name, "requests per second of an API under a closed-loop load in each access-log configuration, "+
			"every run's load, CPU and log read-back, per-second counts, and each condition's pooled figures beside the article's. "+bundle.SumsText, manifestText),
		Measured: func(run experiment.Run) bool { return loops(run).Started() }, Progress: progress, Categories: categories, Rounds: Search.Rounds, Retry: Search.Retry},
}}

type withAPIs struct {
	*tabular.Experiment[*Params, RunRow]
}

// Plan checks the flags into a matrix of conditions, or of a search's steps.
func (e withAPIs) Plan(ps experiment.Params, rounds int) (experiment.Plan, error) {
	p, err := e.Experiment.Plan(ps, rounds)
	if err != nil {
		return nil, err
	}
	return Search.Plan(p), nil
}

// Resume reads the plan back from the bundle in dir, which must verify.
func (e withAPIs) Resume(dir string) (experiment.Plan, error) {
	p, err := e.Experiment.Resume(dir)
	if err != nil {
		return nil, err
	}
	return Search.Plan(p), nil
}

// ImagesFor names the images of api's runs ("" or "all": every API's), with the load
// generator and wrk, which checks every configuration's rate by default.
func (withAPIs) ImagesFor(api string) ([]string, error) {
	return experiment.ImagesOfChoice(api, "qps measures the APIs", APIs, func(apis []string) []string { return needs(&Params{APIs: apis, Wrk: true}) })
}

// needs are the API images and the load generator, and wrk when it checks the rate.
func needs(p *Params) []string {
	names := append(report.Distinct(p.APIs, ImageOf), "qpsload")
	if p.Wrk {
		names = append(names, "wrk")
	}
	return names
}

// EngineHelper says what the engine CPU helper is, for the manifest.
const EngineHelper = "a container of the qpsload image in the host's PID namespace (read-only root, no capabilities, no new privileges, uid 65532, 0.1 CPU, 64 MiB) " +
	"reads /proc/<pid>/stat of the engine's processes (Docker: dockerd, containerd and containerd-shim; Podman: conmon and podman system service) before and after the measured interval and answers on the pod's loopback only"

// target records the platform, the log driver (the engine's default unless given) and
// which engine's processes the helper counts, or, for an engine whose processes the kit
// cannot identify, measures nothing and says why in the manifest (the engine CPU
// columns are then empty, never 0); it refuses a log driver the engine does not offer.
func target(p *Params, env experiment.Env) error {
	p.Platform = env.Platform
	if p.LogDriver == "" {
		p.LogDriver, p.LogDriverChosenBy = experiment.DefaultLogDriver(env.Engine)
	} else if p.LogDriverChosenBy == "" {
		p.LogDriverChosenBy = "--log-driver"
	}
	if e := env.Engine; p.EngineCPU && contract.EngineProcessesOf(e.Kind) != "" {
		p.EngineKind = e.Kind
	} else if p.EngineCPU {
		p.EngineCPU, p.EngineCPUHow, p.EngineKind = false, "", ""
		p.m.Unmeasured = append(p.m.Unmeasured, "engine_cpu_cores: the engine's own CPU was not measured: the kit cannot identify the processes of this engine ("+e.KindEvidence+")")
	}
	if drivers := env.Engine.LogDrivers; len(drivers) > 0 && !slices.Contains(drivers, p.LogDriver) {
		return experiment.Usagef("--log-driver %s: this engine offers %v", p.LogDriver, drivers)
	}
	return nil
}

// prepare tries a logging driver or options other than the engine's json-file defaults
// on one short pod before the matrix: the engine checks a driver's options only when a
// container is created, and a refusal is bad input, said in one line before any run.
func prepare(ctx context.Context, p *Params, pods experiment.Pods, images map[string]string, _ time.Duration, out io.Writer) error {
	if p.LogDriver == "json-file" && len(p.LogOpts) == 0 {
		return nil
	}
	fmt.Fprintf(out, "trying --log-driver %s on the engine\n", strings.TrimSpace(p.LogDriver+" "+experiment.FormatLogOpts(p.LogOpts)))
	probe := *p
	probe.DurationS, probe.WarmupS, probe.EngineCPU, probe.pods = 0.5, 0, false, nil
	_, err := pods.RunPod(ctx, pod(&probe, tabular.Cell{p.APIs[0], Console}, experiment.NewTryID(), images), io.Discard)
	if experiment.Refused(ctx, err, "api") {
		what := "--log-driver " + p.LogDriver
		if len(p.LogOpts) > 0 {
			what += " --log-opt " + experiment.FormatLogOpts(p.LogOpts)
		}
		return experiment.Usagef("%s: the engine refuses it: %v", what, err)
	}
	return err
}

// result is the conductor's result of a run, and why it cannot be read.
func result(run experiment.Run) (res contract.QPSResult, failure string) {
	if why := run.Pod.Decode(&res); why != "" {
		return res, why
	}
	return res, res.Failure
}

// loops are the run's loops as the conductor reported them: whether it got as far as
// the measured load, and its per-second counts.
func loops(run experiment.Run) httpload.Loops {
	res, _ := result(run)
	return httpload.Loops{Closed: &res.Load, Open: res.Open}
}

// conditions are the plan's: every API's every configuration, or a search's steps
// planned so far.
func conditions(p *Params) []tabular.Cell {
	if p.Capacity.On() {
		return Search.Conditions(p)
	}
	return categories(p)
}

// categories are the conditions a report draws: a search's steps are drawn as the
// condition they search.
func categories(p *Params) []tabular.Cell {
	var out []tabular.Cell
	for _, c := range Search.Subjects(p) {
		out = append(out, append(c, ""))
	}
	return out
}

// progress is the line after each run.
func progress(p *Params, r RunRow) string {
	wrk := ""
	if r.WrkRequestsPerS.Present() {
		wrk = fmt.Sprintf("  wrk %.0f req/s (kit/wrk %s, wrk %s cores, kit %s)", float64(r.WrkRequestsPerS), r.WrkAgreement.Fixed(3), r.WrkCPUCores.Fixed(2), r.GeneratorCores.Fixed(2))
	}
	name := r.API + "/" + r.Config
	if r.Step != "" {
		name += fmt.Sprintf(" %s at %g req/s (lag p99 %s ms)", r.Step, Search.RateOf(p, tabular.Cell{r.API, r.Config, r.Step}), r.SendLagP99Ms.Fixed(2))
	}
	return fmt.Sprintf("%-20s %7s req/s  p99 %6.2f ms  api %.2f cores, engine %s, other %s  console %s, file %s%s  %s",
		name, r.RequestsPerS.Fixed(0), r.LatencyP99Ms, r.APICPUCores.Or(0), r.EngineCores.Fixed(2), r.OtherCores.Fixed(2), r.ConsoleVerified, r.FileVerified, wrk, tabular.Verdict(r.Verified, r.Failure))
}

// manifestText documents the manifest's keys a reader could misread.
const manifestText = bundle.ManifestLead + "on which engine (engine.*), with which images, " + bundle.ManifestProgress + ", " +
	"and the parameters every run shared: apis and configs (the matrix), rounds, the load (connections, pipelining, duration_s and warmup_s in seconds), " +
	"the API container's log_driver (log_driver_chosen_by: the flag, or the engine's default) and log_opts as the docker CLI spells them (non_blocking: mode=non-blocking), the containers' limits " +
	"(limits.api_cpus and limits.loadgen_cpus in cores, 0 = no limit; memory in bytes; pids_limit), max_run_time_s, engine_cpu (whether the engine's own CPU " +
	"was measured), engine_cpu_how and engine_kind (whose processes were counted: docker or podman, as the engine reports itself in engine.kind), wrk (whether Debian's wrk loaded the API after the kit in each run of none) and wrk_command, and platform. versions maps each API to its runtime's and libraries' versions as its image records them; " +
	"unmeasured names what the bundle does not measure, so that a missing column is not read as a zero."
