package fifostall

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/logbench/logbench/kit/experiments/fifostall/schema"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
)

// Paths inside every container of a run.
const (
	fifoPath   = contract.RunDir + "/log.fifo"
	resultPath = contract.RunDir + "/result.json"
)

// Cond is a condition of this experiment: one API, logging mode and reader.
type Cond struct{ API, Mode, Reader string }

func (c Cond) String() string { return c.API + "/" + c.Mode + "/" + c.Reader }

// Cross is every API x mode x reader, the API varying slowest.
func Cross(apis, modes, readers []string) []Cond {
	var out []Cond
	for _, a := range apis {
		for _, m := range modes {
			for _, r := range readers {
				out = append(out, Cond{a, m, r})
			}
		}
	}
	return out
}

// Plan is a matrix of this experiment and the bundle it fills.
type Plan struct {
	conds    []Cond
	rounds   int
	Settings Settings
	bundle   *Bundle
	// Calibrate has Prepare measure the instrument first.
	Calibrate bool
}

var _ experiment.Plan = (*Plan)(nil)

// NewPlan is a fresh matrix of conds x rounds with params; the bundle's manifest is the
// caller's to fill (experiment.Common).
func NewPlan(conds []Cond, rounds int, params schema.Params) *Plan {
	params.Rounds = rounds
	params.APIs, params.Modes, params.Readers = nil, nil, nil
	for _, c := range conds {
		params.APIs = appendOnce(params.APIs, c.API)
		params.Modes = appendOnce(params.Modes, c.Mode)
		params.Readers = appendOnce(params.Readers, c.Reader)
	}
	b := &schema.Bundle{Manifest: schema.Manifest{Parameters: params}}
	b.Manifest.Experiment = Name
	return &Plan{conds: conds, rounds: rounds, Settings: SettingsOf(params), bundle: &Bundle{B: b}}
}

// Target records the images' platform.
func (p *Plan) Target(env experiment.Env) error {
	p.bundle.B.Manifest.Parameters.Platform = env.Platform
	return nil
}

// Prepare calibrates the instrument when the plan asks for it, and records the
// calibration in the manifest; a calibration that fails is a warning, not a stop.
func (p *Plan) Prepare(ctx context.Context, pods experiment.Pods, images map[string]string, imageBuild time.Duration, out io.Writer) error {
	if !p.Calibrate {
		return nil
	}
	fmt.Fprintln(out, "calibrating the instrument on this engine (about a minute)")
	cal, err := Calibrate(ctx, pods, p.Settings, images, CalibrateDefaults)
	cal.ImageBuildS = imageBuild.Seconds()
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		fmt.Fprintf(out, "WARNING: calibration failed, the manifest will have none: %v\n", err)
		return nil
	}
	p.bundle.B.Manifest.Calibration = &cal
	fmt.Fprintf(out, "send lag p99 %.3f ms at %g req/s; slow reader %.0f B/s (bound %d); load generator capacity %s; overhead %.2f s/run\n",
		cal.SendLagP99Ms, cal.RateRPS, cal.ReaderAchievedBytesPerS, cal.ReaderBoundBytesPerS, capacityText(&cal), cal.RunOverheadS)
	return nil
}

func (p *Plan) Conditions() []experiment.Condition {
	out := make([]experiment.Condition, len(p.conds))
	for i, c := range p.conds {
		out[i] = c
	}
	return out
}
func (p *Plan) Rounds() int               { return p.rounds }
func (p *Plan) SetRounds(n int)           { p.rounds, p.bundle.B.Manifest.Parameters.Rounds = n, n }
func (p *Plan) Bundle() experiment.Bundle { return p.bundle }

// FIFO returns the plan's bundle as this experiment's.
func (p *Plan) FIFO() *Bundle { return p.bundle }

// Images are the API images of the plan's APIs, and the reader and load generator.
func (p *Plan) Images() []string {
	var names []string
	for _, api := range p.bundle.B.Manifest.Parameters.APIs {
		names = appendOnce(names, ImageOf(api))
	}
	if p.Settings.ClientTopology == SharedClient {
		return append(names, "loadgen") // the loadgen image runs the reader too
	}
	return append(names, "reader", "loadgen")
}

// Pod is one run's three containers: the API owns the network namespace, the reader and
// the load generator (the conductor) join it.
func (p *Plan) Pod(cond experiment.Condition, runID string, images map[string]string) experiment.PodSpec {
	c := cond.(Cond)
	lg := contract.DefaultLoadgenArgs()
	lg.Run = p.Settings.Protocol
	return p.pod(c.API, c.Mode, p.Settings.ReaderBounds[c.Reader], runID, p.Settings.Limits, images, lg)
}

// pod is one run's containers. Split, the reader and the load generator each have a
// container and limits of their own; shared (as published), the load generator's
// container is the client: it runs the reader as its child process, both under the
// client's one budget (the loadgen limits), and containers.csv's reader and loadgen rows
// then read the same cgroup.
func (p *Plan) pod(api, mode string, readerRate int64, runID string, l schema.Limits, images map[string]string, lg contract.LoadgenArgs) experiment.PodSpec {
	apiArgs := contract.DefaultAPIArgs()
	apiArgs.Mode, apiArgs.FIFO, apiArgs.MaxLogBytes = mode, fifoPath, p.Settings.MaxLogBytes
	apiC := experiment.ContainerSpec{Role: "api", Image: images[ImageOf(api)], NanoCPUs: experiment.NanoCPUs(l.APICPUs), MemoryBytes: l.APIMemoryBytes,
		Cmd: apiArgs.FIFOArgs()}
	reader := contract.ReaderArgs{FIFO: fifoPath, RateBytes: readerRate}
	lg.Result = resultPath
	shared := p.Settings.ClientTopology == SharedClient
	if shared {
		lg.WithReader, lg.ReaderFIFO, lg.ReaderRate = true, fifoPath, readerRate
	}
	loadgenC := experiment.ContainerSpec{Role: "loadgen", Image: images["loadgen"], NanoCPUs: experiment.NanoCPUs(l.LoadgenCPUs), MemoryBytes: l.LoadgenMemoryBytes,
		Cmd: lg.Args()}
	containers := []experiment.ContainerSpec{apiC,
		{Role: "reader", Image: images["reader"], NanoCPUs: experiment.NanoCPUs(l.ReaderCPUs), MemoryBytes: l.ReaderMemoryBytes, Cmd: reader.Args()},
		loadgenC}
	if shared {
		containers = []experiment.ContainerSpec{apiC, loadgenC}
	}
	return experiment.PodSpec{
		RunID:      runID,
		Conductor:  "loadgen",
		MountPath:  contract.RunDir,
		ResultPath: resultPath,
		User:       contract.User,
		PidsLimit:  l.PidsLimit,
		Containers: containers,
	}
}

func appendOnce(list []string, s string) []string {
	if contains(list, s) {
		return list
	}
	return append(list, s)
}

// sweepResult parses a capacity sweep's result.
func sweepResult(run experiment.Run) (contract.SweepResult, error) {
	var res contract.SweepResult
	if run.Pod.Result == nil {
		return res, fmt.Errorf("sweep: %s", run.Failure)
	}
	err := jsonUnmarshal(run.Pod.Result, &res)
	return res, err
}
