// Package bench performs runs of the reference experiment on an engine: it turns a
// condition (api x mode x reader) and the shared settings into a pod, runs it, and
// returns the run's record, failed or not.
package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/host/engine"
	"github.com/logbench/logbench/kit/host/images"
	"github.com/logbench/logbench/kit/incontainer/fiforeader"
	"github.com/logbench/logbench/kit/incontainer/logmode"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// The API implementations: Go (net/http) and the article's Python 3.11 asyncio API.
const (
	GoAPI     = "go"
	PythonAPI = "python"
)

// APIs lists the implementations.
var APIs = []string{GoAPI, PythonAPI}

// ImageOf names the image (in Runner.Images) that serves api.
func ImageOf(api string) string {
	if api == PythonAPI {
		return "api-python"
	}
	return "api"
}

// ParseAPIs turns "go", "python" or "all" into implementations.
func ParseAPIs(s string) ([]string, error) {
	switch s {
	case "all":
		return APIs, nil
	case GoAPI, PythonAPI:
		return []string{s}, nil
	}
	return nil, fmt.Errorf("unknown API %q (known: go, python, all)", s)
}

// The two readers of the experiment.
const (
	FastReader = "fast"
	SlowReader = "slow"
)

// Readers lists the reader kinds in published order.
var Readers = []string{FastReader, SlowReader}

// ReaderRate is the pacing bound of a reader kind in bytes per second (0: none).
func ReaderRate(kind string) (int64, error) {
	switch kind {
	case FastReader:
		return 0, nil
	case SlowReader:
		return fiforeader.SlowRateBytesPerSec, nil
	}
	return 0, fmt.Errorf("unknown reader %q (known: %s)", kind, strings.Join(Readers, ", "))
}

// ReaderBounds maps every reader kind to its bound, for the manifest.
func ReaderBounds() map[string]int64 {
	bounds := map[string]int64{}
	for _, kind := range Readers {
		bounds[kind], _ = ReaderRate(kind)
	}
	return bounds
}

// Condition is one cell of the matrix.
type Condition struct {
	API    string
	Mode   logmode.Mode
	Reader string
}

func (c Condition) String() string { return c.API + "/" + string(c.Mode) + "/" + c.Reader }

// Settings are shared by every run.
type Settings struct {
	Protocol    contract.RunParams
	Limits      bundle.Limits
	MaxLogBytes int64
	// MaxSendLagP99 flags runs whose load generator was later than this against its
	// schedule (p99).
	MaxSendLagP99 time.Duration
}

// Paths inside every container of a run.
const (
	fifoPath   = images.RunDir + "/log.fifo"
	resultPath = images.RunDir + "/result.json"
)

// Runner performs runs on one engine with one set of images.
type Runner struct {
	Engine   *engine.Engine
	Images   map[string]images.Built // "api" (Go), "api-python", "reader", "loadgen"
	Settings Settings
	Progress io.Writer
}

// Run performs one run. The record says whether the run is data; the error is for what
// stops the matrix itself (an interrupt, a broken engine).
func (r *Runner) Run(ctx context.Context, cond Condition, runID string) (bundle.RunRecord, error) {
	rec := bundle.RunRecord{RunID: runID, API: cond.API, Mode: cond.Mode, Reader: cond.Reader, Started: time.Now(), MaxSendLagP99: r.Settings.MaxSendLagP99}
	rate, err := ReaderRate(cond.Reader)
	if err != nil {
		return rec, err
	}
	if _, ok := r.Images[ImageOf(cond.API)]; !ok {
		return rec, fmt.Errorf("no image for the %s API", cond.API)
	}
	p := r.Settings.Protocol
	loadgenArgs := []string{"-rate", fmt.Sprint(p.Rate), "-duration", p.Duration.String(), "-warmup", strconv.Itoa(p.WarmupCount),
		"-request-timeout", p.RequestTimeout.String(), "-max-run-time", p.MaxRunTime.String()}
	if p.MeasureTimer {
		loadgenArgs = append(loadgenArgs, "-measure-timer")
	}
	pod := r.pod(cond.API, cond.Mode, rate, runID, r.Settings.Limits, loadgenArgs)
	out, err := r.Engine.RunPod(ctx, pod, r.Progress)
	rec.Wall = time.Since(rec.Started)
	rec.Exits = out.Exits
	// The most precise reasons first: how a container ended, then what the engine side
	// saw, then what the conductor recorded.
	var failures []string
	for _, x := range out.Exits {
		if x.OOMKilled {
			failures = append(failures, fmt.Sprintf("%s container killed for exceeding its memory limit (OOM)", x.Role))
		}
		// The conductor's own status 3 means "the run failed, the result says why".
		if !x.Running && x.ExitCode != 0 && !(x.Role == pod.Conductor && x.ExitCode == contract.ExitRunFailed) {
			failures = append(failures, fmt.Sprintf("%s container exited with code %d%s", x.Role, x.ExitCode, lastLine(x.LogTail)))
		}
	}
	if out.Failure != "" && len(failures) == 0 {
		failures = append(failures, out.Failure)
	}
	if out.Result != nil {
		if jerr := json.Unmarshal(out.Result, &rec.Result); jerr != nil {
			failures = append(failures, "unreadable result: "+jerr.Error())
		} else if rec.Result.Failure != "" {
			failures = append(failures, rec.Result.Failure)
		}
	} else if out.Failure != "" && len(failures) > 0 {
		failures = append(failures, out.Failure)
	}
	rec.Failure = strings.Join(failures, "; ")
	if err != nil {
		return rec, fmt.Errorf("run %s: %w", runID, err)
	}
	return rec, nil
}

// pod is one run's three containers; loadgenArgs say what the conductor does.
func (r *Runner) pod(api string, mode logmode.Mode, readerRate int64, runID string, l bundle.Limits, loadgenArgs []string) engine.PodSpec {
	return engine.PodSpec{
		RunID:      runID,
		Conductor:  "loadgen",
		MountPath:  images.RunDir,
		ResultPath: resultPath,
		User:       images.User,
		PidsLimit:  l.PidsLimit,
		Containers: []engine.ContainerSpec{
			{Role: "api", Image: r.Images[ImageOf(api)].ID, NanoCPUs: nanoCPUs(l.APICPUs), MemoryBytes: l.APIMemoryBytes,
				Cmd: []string{"-mode", string(mode), "-fifo", fifoPath, "-max-log-bytes", strconv.FormatInt(r.Settings.MaxLogBytes, 10)}},
			{Role: "reader", Image: r.Images["reader"].ID, NanoCPUs: nanoCPUs(l.ReaderCPUs), MemoryBytes: l.ReaderMemoryBytes,
				Cmd: []string{"-fifo", fifoPath, "-rate-bytes", strconv.FormatInt(readerRate, 10)}},
			{Role: "loadgen", Image: r.Images["loadgen"].ID, NanoCPUs: nanoCPUs(l.LoadgenCPUs), MemoryBytes: l.LoadgenMemoryBytes,
				Cmd: append(loadgenArgs, "-result", resultPath)},
		},
	}
}

// Sweep finds the load generator's capacity against the API in mode none with a fast
// reader, each container given limits l.
func (r *Runner) Sweep(ctx context.Context, p contract.SweepParams, l bundle.Limits, runID string) (contract.SweepResult, error) {
	rates := make([]string, len(p.Rates))
	for i, rate := range p.Rates {
		rates[i] = fmt.Sprint(rate)
	}
	// One Go processor per CPU of the limit: the scheduler spins just before each send,
	// and an idle processor spinning beside a busy one would exceed the CPU quota.
	procs := max(1, int(math.Ceil(l.LoadgenCPUs)))
	args := []string{"-sweep", strings.Join(rates, ","), "-sweep-step", p.Step.String(), "-sweep-max-lag", p.MaxLagP99.String(),
		"-sweep-trials", strconv.Itoa(p.Trials), "-gomaxprocs", strconv.Itoa(procs)}
	out, err := r.Engine.RunPod(ctx, r.pod(GoAPI, logmode.None, 0, runID, l, args), r.Progress)
	var res contract.SweepResult
	if out.Result != nil {
		if jerr := json.Unmarshal(out.Result, &res); jerr != nil {
			return res, fmt.Errorf("sweep result: %w", jerr)
		}
	} else if err == nil {
		err = fmt.Errorf("sweep: %s", out.Failure)
	}
	return res, err
}

func nanoCPUs(cpus float64) int64 { return int64(cpus*1e9 + 0.5) }

// lastLine is the last line a container printed, as ": <line>", or nothing.
func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if s == "" {
		return ""
	}
	return ": " + s
}
