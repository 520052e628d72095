package fifostall

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// Where every image has the mount point of the run's shared volume, and the
// unprivileged uid:gid every container runs as (the Dockerfiles say both too).
const (
	RunDir = "/run/logbench"
	User   = "65532:65532"
)

// Paths inside every container of a run.
const (
	fifoPath   = RunDir + "/log.fifo"
	resultPath = RunDir + "/result.json"
)

// Plan is a matrix of this experiment and the bundle it fills.
type Plan struct {
	conds    []experiment.Condition
	rounds   int
	Settings Settings
	bundle   *Bundle
	// calibrate has Prepare measure the instrument first.
	calibrate bool
}

var _ experiment.Plan = (*Plan)(nil)

// NewPlan is a fresh matrix of conds x rounds with params; the bundle's manifest is the
// caller's to fill (experiment.Common).
func NewPlan(conds []experiment.Condition, rounds int, params bundle.Params) *Plan {
	params.Rounds = rounds
	params.APIs, params.Modes, params.Readers = nil, nil, nil
	for _, c := range conds {
		params.APIs = appendOnce(params.APIs, c[0])
		params.Modes = appendOnce(params.Modes, c[1])
		params.Readers = appendOnce(params.Readers, c[2])
	}
	b := &bundle.Bundle{Manifest: bundle.Manifest{Parameters: params}}
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
	if !p.calibrate {
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
	fmt.Fprintf(out, "send lag p99 %.3f ms at %g req/s; slow reader %.0f B/s (bound %d); capacity %.0f req/s on %g CPU; overhead %.2f s/run\n",
		cal.SendLagP99Ms, cal.RateRPS, cal.ReaderAchievedBytesPerS, cal.ReaderBoundBytesPerS, cal.CapacityRPS, cal.CapacityCPUs, cal.RunOverheadS)
	return nil
}

func (p *Plan) Conditions() []experiment.Condition { return p.conds }
func (p *Plan) Rounds() int                        { return p.rounds }
func (p *Plan) Bundle() experiment.Bundle          { return p.bundle }

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
	rate, _ := ReaderRate(cond[2])
	pr := p.Settings.Protocol
	args := []string{"-rate", fmt.Sprint(pr.Rate), "-duration", pr.Duration.String(), "-warmup", strconv.Itoa(pr.WarmupCount),
		"-request-timeout", pr.RequestTimeout.String(), "-max-run-time", pr.MaxRunTime.String()}
	if pr.MeasureTimer {
		args = append(args, "-measure-timer")
	}
	return p.pod(cond[0], cond[1], rate, runID, p.Settings.Limits, images, args)
}

// pod is one run's containers. Split, the reader and the load generator each have a
// container and limits of their own; shared (as published), the load generator's
// container is the client: it runs the reader as its child process, both under the
// client's one budget (the loadgen limits), and containers.csv's reader and loadgen rows
// then read the same cgroup.
func (p *Plan) pod(api, mode string, readerRate int64, runID string, l bundle.Limits, images map[string]string, loadgenArgs []string) experiment.PodSpec {
	apiC := experiment.ContainerSpec{Role: "api", Image: images[ImageOf(api)], NanoCPUs: nanoCPUs(l.APICPUs), MemoryBytes: l.APIMemoryBytes,
		Cmd: []string{"-mode", mode, "-fifo", fifoPath, "-max-log-bytes", strconv.FormatInt(p.Settings.MaxLogBytes, 10)}}
	readerArgs := []string{"-fifo", fifoPath, "-rate-bytes", strconv.FormatInt(readerRate, 10)}
	loadgenC := experiment.ContainerSpec{Role: "loadgen", Image: images["loadgen"], NanoCPUs: nanoCPUs(l.LoadgenCPUs), MemoryBytes: l.LoadgenMemoryBytes,
		Cmd: append(slices.Clone(loadgenArgs), "-result", resultPath)}
	containers := []experiment.ContainerSpec{apiC,
		{Role: "reader", Image: images["reader"], NanoCPUs: nanoCPUs(l.ReaderCPUs), MemoryBytes: l.ReaderMemoryBytes, Cmd: readerArgs},
		loadgenC}
	if p.Settings.ClientTopology == SharedClient {
		loadgenC.Cmd = append(loadgenC.Cmd, "-with-reader", "-reader-fifo", fifoPath, "-reader-rate-bytes", strconv.FormatInt(readerRate, 10))
		containers = []experiment.ContainerSpec{apiC, loadgenC}
	}
	return experiment.PodSpec{
		RunID:      runID,
		Conductor:  "loadgen",
		MountPath:  RunDir,
		ResultPath: resultPath,
		User:       User,
		PidsLimit:  l.PidsLimit,
		Containers: containers,
	}
}

func nanoCPUs(cpus float64) int64 { return int64(cpus*1e9 + 0.5) }

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
