// Package linecost is the kit's third experiment: what one log line costs, seven ways
// (format only, a disabled DEBUG line with eager and with lazy arguments, buffered,
// unbuffered, fsync per line, a queue with a writer thread), in the logging libraries
// people choose between in each language (--libraries; Go: log/slog, zap, zerolog,
// logrus; Python: logging, structlog, loguru; Node.js: util.format, winston), each
// writing its own line, time stamp included (--line), measured inside that language's
// API image under the API's limits. Each run
// is one container measuring one way; its trials are timed by the calling thread's CPU
// clock and the monotonic clock, with the cgroup's CPU and throttling read around each,
// and every line written is verified against the kit's own regeneration of it. The kit
// owns the bundle (kit/experiment/tabular); this package declares it.
package linecost

import (
	"cmp"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/results/reference"
)

// Name is the experiment's name.
const Name = "line-cost"

// Source names where the published figures come from.
var Source = reference.MustSetup(Name).Source

// Bundle is a line-cost bundle as a matrix fills it and verify reads it: its runs, and
// its trials (Trials).
type Bundle = tabular.Bundle[*Params, RunRow]

// Experiment is the line-cost experiment, declared; ImagesFor chooses among its
// languages.
var Experiment = withLanguages{&tabular.Experiment[*Params, RunRow]{
	About: experiment.Info{Name: Name,
		Summary:  "what one log line costs, 7 ways (format, disabled eager/lazy, buffered, unbuffered, fsync, queue) x Go/Python/Node.js x their libraries, CPU and wall time per line, every line verified",
		Source:   Source,
		Question: "What does one log line cost to format, to write and to fsync?"},
	Defaults:   DefaultParams,
	Axes:       []string{"language", "library_id", "way"},
	Conditions: (*Params).Conditions,
	Images:     images(&Params{Languages: Languages}),
	Needs:      images,
	Pod:        pod,
	Target:     target,
	Notes:      func(p *Params) []string { return p.NotOffered() },
	Observe:    func(p *Params, run experiment.Run) RunRow { r, _ := observe(p, run); return r },
	Judge: func(p *Params, r *RunRow, own tabular.Rows) {
		*r = FinishRun(*r, tabular.Of[TrialRow](own, TrialsFile))
	},
	Runs: tables[0],
	Tables: []tabular.Table[*Params]{
		tabular.PerRun(tables[1], func(p *Params, run experiment.Run) []TrialRow { _, t := observe(p, run); return t }),
		tabular.Derived(tables[2], func(p *Params, runs []RunRow, rows tabular.Rows) []ConditionRow {
			return Figures(*p, runs, tabular.Of[TrialRow](rows, TrialsFile), mustPublished())
		}),
	},
	Metrics: Metrics,
	// The rounds are among the parameters, as every line-cost bundle records them; a
	// plan records the default libraries narrowed to --languages (settled).
	Manifest: func() tabular.Manifest[*Params] {
		return &tabular.RoundsInParams[Params, *Params]{Settle: (*Params).settled}
	},
	Rules:     rules,
	Published: published,
	Drawings:  drawings,
	Own: tabular.Own[*Params, RunRow]{Figures: func(b *Bundle) []compare.Row { return Rows(b, b.Speed) }, Respell: respell, Summary: summary, Answer: answer, Legend: func(*Bundle) []string { return compareLegend }, Host: host,
		Describe: describe, Measured: documented, Progress: progress, Drawn: drawnOf},
}}

type withLanguages struct {
	*tabular.Experiment[*Params, RunRow]
}

// ImagesFor names the images of a language's runs ("" or "all": every language's): the
// API image of the language holds its measuring program.
func (withLanguages) ImagesFor(language string) ([]string, error) {
	return experiment.ImagesOfChoice(language, "line-cost measures the languages", Languages, func(ls []string) []string { return images(&Params{Languages: ls}) })
}

// images are the API images of the languages.
func images(p *Params) []string {
	var names []string
	for _, l := range p.Languages {
		names = append(names, programs[l].image)
	}
	return names
}

// target records the platform and refuses a --volume the engine does not have.
func target(p *Params, env experiment.Env) error {
	p.Platform = env.Platform
	return experiment.CheckVolume(env, "volume", p.Volume)
}

// pod is one container: the language's API image running the measurement of one way,
// its document the run's result, its log files on the run's volume (or --volume).
func pod(p *Params, c tabular.Cell, runID string, images map[string]string) experiment.PodSpec {
	lang, libID, way := c[0], c[1], c[2]
	result := contract.RunDir + "/linecost-" + runID + ".json" // never a stale one in a reused --volume
	lib, _ := LibraryOfRun(lang, libID)
	// Every flag is written, so the Python and Node.js programs, whose defaults are not
	// the Go program's, run with the plan's values alone.
	args := contract.LineCostArgs{Library: lib.ID, Line: p.LineOf(lib), Ways: way, Lines: p.LinesOf(way), Trials: p.Trials,
		Warmup: p.WarmupTrials, Dir: contract.RunDir, Out: result, QueueSize: p.QueueSize, QueueFull: p.QueueFull}.Args()
	return experiment.PodSpec{
		RunID: runID, Conductor: "linecost", MountPath: contract.RunDir, ResultPath: result, User: contract.User,
		PidsLimit: p.PidsLimit, Volume: p.Volume, StopAfter: experiment.WithGrace(p.maxRunTime(way)),
		Containers: []experiment.ContainerSpec{{Role: "linecost", Image: images[programs[lang].image], Entrypoint: programs[lang].entrypoint, Cmd: args,
			NanoCPUs: experiment.NanoCPUs(p.CPUs), MemoryBytes: p.MemoryBytes}},
	}
}

// documented: the program wrote its document.
func documented(run experiment.Run) bool {
	var doc contract.LineCostDocument
	return run.Pod.Result != nil && json.Unmarshal(run.Pod.Result, &doc) == nil && len(doc.Ways) > 0
}

// observe derives a run's row and its trials from the program's document.
func observe(p *Params, run experiment.Run) (RunRow, []TrialRow) {
	c := run.Condition.(tabular.Cell)
	r := RunRow{RunKey: RunKey{RunID: run.ID, Language: c[0], Way: c[2]}, RunPlace: tabular.RunPlaceOf(run), Volume: cmp.Or(p.Volume, "logbench-"+run.ID),
		Exits: experiment.ExitsText(run.Pod.Exits)}
	if !p.Legacy() {
		r.LibraryID = c[1]
	}
	var doc *contract.LineCostDocument
	failure := run.Failure
	if run.Pod.Result != nil {
		doc = new(contract.LineCostDocument)
		if err := json.Unmarshal(run.Pod.Result, doc); err != nil {
			doc, failure = nil, experiment.JoinFailures(failure, "unreadable document: "+err.Error())
		}
	}
	r, trials := Derive(*p, r, doc, failure)
	median := func(of func(TrialRow) float64) string {
		return Ns(compare.MedianOf(compare.ValuesOf(trials, of)))
	}
	perLine.Store(run.ID, fmt.Sprintf("cpu %s/line  wall %s/line", median(cpuOf), median(wallOf)))
	return r, trials
}

// perLine are the medians of each run's trials as observe found them, by run ID, for
// its progress line (which is handed the run's row alone).
var perLine sync.Map

// progress is the line reproduce prints after each run.
func progress(_ *Params, r RunRow) string {
	figures, _ := perLine.LoadAndDelete(r.RunID)
	lib, _ := LibraryOfRun(r.Language, r.LibraryID)
	return fmt.Sprintf("%-30s %s  throttled %d/%d trials  %s", r.Language+"/"+lib.ID+"/"+r.Way, figures, r.TrialsThrottle, r.Trials, tabular.Verdict(r.Verified, r.Failure))
}
