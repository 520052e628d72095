package yourapi

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/capacitysearch"
	"github.com/logbench/logbench/kit/experiment/tabular"
)

// Where the kit's containers mount the run's volume, and the uid:gid they run as.
const (
	RunDir     = "/run/logbench"
	User       = "65532:65532"
	resultPath = RunDir + "/result.json"
	helperPort = 9003
	// LoadImage is the kit's image that conducts the run and measures CPU.
	LoadImage = "qpsload"
)

// CPUHow says how CPU is measured, for the manifest.
const CPUHow = "a helper container of the qpsload image in the host's PID namespace (read-only root, no capabilities, no new privileges, uid 65532, 0.1 CPU, 64 MiB) " +
	"reads /proc/<pid>/stat before and after the measured interval: of dockerd, containerd and containerd-shim (outside the container: the engine's CPU), " +
	"and of the processes whose /proc/<pid>/cgroup names the service's container (inside: their user + system time, those present at the second sample; " +
	"a process that ended in between is not counted)"

// conditions are the plan's: every configuration, or a search's steps planned so far.
func conditions(p *Params) []tabular.Cell {
	if p.Capacity.On() {
		return Search.Conditions(p)
	}
	return categories(p)
}

// plan is a matrix of this experiment: tabular's, which a resume asks for the flags
// that relax the hardening (consent.go).
type plan struct {
	experiment.Plan
	b *Bundle
}

var (
	_ experiment.Preparer  = plan{}
	_ experiment.Consenter = plan{}
)

// planOf is the plan of tabular's: a search when its parameters say so.
func planOf(p experiment.Plan) experiment.Plan {
	pl := plan{Plan: p, b: p.Bundle().(*Bundle)}
	if pl.b.Params().Capacity.On() {
		return searchPlan{pl, Search.Growth(pl.b)}
	}
	return pl
}

// searchPlan is a plan that searches each configuration's capacity (Search).
type searchPlan struct {
	plan
	capacitysearch.Growth[*Params, RunRow]
}

var _ experiment.Grower = searchPlan{}

// Prepare is tabular's (Own.Prepare).
func (p plan) Prepare(ctx context.Context, pods experiment.Pods, images map[string]string, build time.Duration, out io.Writer) error {
	return p.Plan.(experiment.Preparer).Prepare(ctx, pods, images, build, out)
}

// target finds the image on the engine (the kit does not pull) and refuses a log
// driver the engine does not offer; on resume, the image must still be the one the
// bundle ran.
func target(params *Params, env experiment.Env) error {
	params.Platform = env.Platform
	if params.LogDriver == "" {
		params.LogDriver, _ = experiment.DefaultLogDriver(env.Engine)
	}
	if drivers := env.Engine.LogDrivers; len(drivers) > 0 && !slices.Contains(drivers, params.LogDriver) {
		return usagef("--log-driver %s: this engine offers %v", params.LogDriver, drivers)
	}
	if env.Image == nil {
		return usagef("--image %s: this engine cannot be asked for its images", params.Image)
	}
	id, found, err := env.Image(params.Image)
	if err != nil {
		return fmt.Errorf("--image %s: asking the engine: %w", params.Image, err)
	}
	if !found {
		return usagef("--image %s: the engine has no such image (pull or build it first: the kit runs what the engine has)", params.Image)
	}
	if params.ImageID != "" && params.ImageID != id {
		return usagef("--resume: %s is now %.19s, the bundle ran %.19s; resume with the same image, or start a new bundle", params.Image, id, params.ImageID)
	}
	params.ImageID = id
	return nil
}

// Pod is one run's three containers: the service owns the network namespace; the CPU
// helper (the host's PID namespace) and the conductor join it and reach the service
// on 127.0.0.1.
func podOf(p *Params, c tabular.Cell, runID string, images map[string]string) experiment.PodSpec {
	return pod(p, c[0], p.rateOf(c), runID, images, false)
}

func pod(pr *Params, config string, rate float64, runID string, images map[string]string, probe bool) experiment.PodSpec {
	cfg := pr.Config(config)
	l := pr.Limits
	h := pr.Hardening
	api := experiment.ContainerSpec{Role: "api", Image: pr.ImageID, Cmd: cfg.Cmd, Env: cfg.Env,
		NanoCPUs: experiment.NanoCPUs(l.APICPUs), MemoryBytes: l.APIMemoryBytes, LogDriver: pr.LogDriver, LogOpts: pr.LogOpts, MountPath: pr.LogFile}
	if len(h.Relaxed) > 0 {
		api.Relax = &experiment.Relax{WritableRoot: !h.ReadOnlyRoot, ImageUser: h.User == "", CapAdd: h.CapAdd, NewPrivileges: !h.NoNewPrivileges}
	}
	// The helper counts the processes of the kit's default engine kind (Docker's).
	helper, engineURL := experiment.PodCPUHelper("enginecpu", LoadImage, contract.EngineDocker, helperPort, images)
	load := contract.DefaultQPSLoadArgs()
	load.Foreign, load.URL = pr.Load, fmt.Sprintf("http://127.0.0.1:%d%s", pr.Port, pr.Path)
	load.Duration, load.Warmup, load.ReadyTimeout = contract.Seconds(pr.DurationS), contract.Seconds(pr.WarmupS), contract.Seconds(pr.ReadyTimeoutS)
	load.CPULimit, load.Result = l.LoadgenCPUs, resultPath
	load.EngineCPUURL = engineURL
	load.Connections = pr.Connections // 0: an earlier kit's open loop, a connection per request
	if pr.Load == contract.LoadClosed {
		load.Pipelining = pr.Pipelining
	} else {
		load.Rate, load.Arrivals = rate, cmp.Or(pr.Arrivals, DefaultArrivals)
	}
	if pr.LogFile != "" {
		load.LogDir = RunDir
	}
	load.ProbeOnly = probe
	gen := experiment.ContainerSpec{Role: "loadgen", Image: images[LoadImage], NanoCPUs: experiment.NanoCPUs(l.LoadgenCPUs), MemoryBytes: l.LoadgenMemoryBytes, Cmd: load.Args()}
	spec := experiment.PodSpec{RunID: experiment.VolumeSafe(runID), Conductor: "loadgen", MountPath: RunDir, ResultPath: resultPath, User: User,
		PidsLimit: l.PidsLimit, Containers: []experiment.ContainerSpec{api, helper, gen}, StopAfter: experiment.WithGrace(contract.Seconds(pr.maxRunTimeS()))}
	if pr.LogDriver != "none" && !probe {
		spec.CollectLogs = []string{"api"}
	}
	return spec
}

// Prepare starts the service once, in the first configuration, before the matrix and
// asks its path until it answers: an image that does not start, a port nothing listens
// on, a path that does not answer 2xx, or a log driver the engine refuses are bad input,
// said in one line before anything is measured.
func prepare(ctx context.Context, pr *Params, pods experiment.Pods, images map[string]string, _ time.Duration, out io.Writer) error {
	config := pr.Configs[0].Name
	fmt.Fprintf(out, "trying %s (%s) on port %d, GET %s\n", pr.Image, config, pr.Port, pr.Path)
	spec := pod(pr, config, pr.RateRPS, experiment.NewTryID(), images, true)
	res, err := pods.RunPod(ctx, spec, io.Discard)
	if err != nil {
		if experiment.Refused(ctx, err, "api") {
			return usagef("--image %s: the engine refuses the service's container: %v", pr.Image, err)
		}
		return err
	}
	var r contract.ForeignResult
	answered := res.Result != nil && res.Decode(&r) == ""
	if answered && r.Ready.OK {
		fmt.Fprintf(out, "  answered 2xx after %.2f s\n", r.Ready.AfterS)
		return nil
	}
	// A service that exited says the most, whether the conductor got to ask it or not
	// (one that dies at once may end before the conductor can join its network).
	for _, x := range res.Exits {
		if x.Role == "api" && !x.Running {
			return usagef("--image %s --port %d --path %s: the container exited (code %d) before answering%s", pr.Image, pr.Port, pr.Path, x.ExitCode, experiment.LastLine(x.LogTail))
		}
	}
	if !answered {
		why := experiment.EngineFailure(spec, res)
		if why == "" {
			why = "the conductor left no result"
		}
		return usagef("--image %s: %s", pr.Image, why)
	}
	return usagef("--image %s --port %d --path %s: %s", pr.Image, pr.Port, pr.Path, r.Failure)
}
