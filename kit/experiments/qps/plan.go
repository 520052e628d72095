package qps

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/experiment"
)

// Where every image has the mount point of the run's shared volume, and the
// unprivileged uid:gid every container runs as (the Dockerfiles say both too).
const (
	RunDir     = "/run/logbench"
	User       = "65532:65532"
	resultPath = RunDir + "/result.json"
	// enginePort is where the engine CPU helper answers on the pod's loopback.
	enginePort = 9003
	logDir     = RunDir + "/logs"
)

// EngineHelper says what the engine CPU helper is, for the manifest.
const EngineHelper = "a container of the qpsload image in the host's PID namespace (read-only root, no capabilities, no new privileges, uid 65532, 0.1 CPU, 64 MiB) " +
	"reads /proc/<pid>/stat of dockerd, containerd and containerd-shim before and after the measured interval and answers on the pod's loopback only"

// Plan is a matrix of this experiment and the bundle it fills.
type Plan struct {
	conds  []experiment.Condition
	bundle *Bundle
}

var _ experiment.Plan = (*Plan)(nil)

// NewPlan is a fresh matrix of p's APIs x configurations x rounds.
func NewPlan(p Params) *Plan {
	b := &Bundle{M: Manifest{Parameters: p}}
	b.M.Experiment = Name
	if !p.EngineCPU {
		b.M.Unmeasured = []string{"cpu_engine_cores: the engine's own CPU (dockerd, containerd, the shims) was not measured (--engine-cpu=false)"}
	}
	if p.Wrk {
		b.M.Parameters.WrkCommand = strings.Join(WrkArgs(p), " ")
	} else if slices.Contains(p.Configs, NoLog) {
		why := "--wrk=false"
		if p.Pipelining > 1 {
			why = "--pipelining over 1, which wrk does not offer"
		}
		b.M.Unmeasured = append(b.M.Unmeasured, "wrk_requests_per_s: the kit's load was not checked against wrk ("+why+")")
	}
	return &Plan{conds: experiment.Cross(p.APIs, p.Configs), bundle: b}
}

func (p *Plan) Conditions() []experiment.Condition { return p.conds }
func (p *Plan) Rounds() int                        { return p.bundle.M.Parameters.Rounds }
func (p *Plan) Bundle() experiment.Bundle          { return p.bundle }

// QPS returns the plan's bundle as this experiment's.
func (p *Plan) QPS() *Bundle { return p.bundle }

// Images are the API images and the load generator.
func (p *Plan) Images() []string {
	var names []string
	for _, api := range p.bundle.M.Parameters.APIs {
		if n := ImageOf(api); !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	names = append(names, "qpsload")
	if p.bundle.M.Parameters.Wrk && slices.Contains(p.bundle.M.Parameters.Configs, NoLog) {
		names = append(names, "wrk")
	}
	return names
}

// Target records the platform and refuses a log driver the engine does not offer.
func (p *Plan) Target(env experiment.Env) error {
	params := &p.bundle.M.Parameters
	params.Platform = env.Platform
	if drivers := env.Engine.LogDrivers; len(drivers) > 0 && !slices.Contains(drivers, params.LogDriver) {
		return usagef("--log-driver %s: this engine offers %v", params.LogDriver, drivers)
	}
	return nil
}

// Pod is one run's two containers: the API owns the network namespace and the load
// generator (the conductor) joins it; the API's stdout goes through the chosen logging
// driver and is read back after the run when its configuration writes to it.
func (p *Plan) Pod(cond experiment.Condition, runID string, images map[string]string) experiment.PodSpec {
	pr := p.bundle.M.Parameters
	api, config := cond[0], cond[1]
	l := pr.Limits
	spec := experiment.PodSpec{
		RunID:      volumeSafe(runID),
		Conductor:  "loadgen",
		MountPath:  RunDir,
		ResultPath: resultPath,
		User:       User,
		PidsLimit:  l.PidsLimit,
		Containers: []experiment.ContainerSpec{
			{Role: "api", Image: images[ImageOf(api)], NanoCPUs: nanoCPUs(l.APICPUs), MemoryBytes: l.APIMemoryBytes,
				Entrypoint: apiEntrypoint(api), Cmd: apiArgs(api, config), LogDriver: pr.LogDriver, LogOpts: pr.LogOpts},
			{Role: "loadgen", Image: images["qpsload"], NanoCPUs: nanoCPUs(l.LoadgenCPUs), MemoryBytes: l.LoadgenMemoryBytes,
				Cmd: []string{"-connections", strconv.Itoa(pr.Connections), "-pipelining", strconv.Itoa(pr.Pipelining),
					"-duration", fmt.Sprintf("%gs", pr.DurationS), "-warmup", fmt.Sprintf("%gs", pr.WarmupS),
					"-cpu-limit", fmt.Sprint(l.LoadgenCPUs), "-result", resultPath}},
		},
	}
	if pr.EngineCPU {
		helper := experiment.ContainerSpec{Role: "enginecpu", Image: images["qpsload"], NanoCPUs: nanoCPUs(0.1), MemoryBytes: 64 << 20, HostPIDs: true,
			Cmd: []string{"-engine-cpu-server", fmt.Sprintf("127.0.0.1:%d", enginePort)}}
		// Started before the conductor, which asks it once the load begins.
		spec.Containers = []experiment.ContainerSpec{spec.Containers[0], helper, spec.Containers[1]}
		gen := &spec.Containers[2]
		gen.Cmd = append(gen.Cmd, "-engine-cpu-url", fmt.Sprintf("http://127.0.0.1:%d/sample", enginePort))
	}
	if wrkRuns(pr, config) {
		// Between the API and the conductor: it waits on the volume for the conductor's
		// signal, with the generator's limits, and outlives the run (max_run_time_s).
		w := experiment.ContainerSpec{Role: "wrk", Image: images["wrk"], NanoCPUs: nanoCPUs(l.LoadgenCPUs), MemoryBytes: l.LoadgenMemoryBytes,
			Entrypoint: []string{"/bin/sh", "-c", wrkScript, "wrk-phase", strconv.Itoa(int(math.Ceil(pr.MaxRunTimeS)))}, Cmd: WrkArgs(pr)}
		n := len(spec.Containers)
		spec.Containers = append(spec.Containers[:n-1:n-1], w, spec.Containers[n-1])
		gen := &spec.Containers[n]
		gen.Cmd = append(gen.Cmd, "-wrk-dir", RunDir, "-wrk-timeout", fmt.Sprintf("%ds", wrkSeconds(pr.DurationS)+60))
	}
	if hasConsole(config) && pr.LogDriver != "none" {
		spec.CollectLogs = []string{"api"}
	}
	return spec
}

// apiArgs are the API's arguments for config: the Go API serves the access-log
// configurations under -access-log (cmd/incontainer/api).
func apiArgs(api, config string) []string {
	if api == GoAPI {
		return []string{"-access-log", config, "-log-dir", logDir}
	}
	return []string{"-config", config, "-log-dir", logDir}
}

// apiEntrypoint runs the Python image's qps module in place of its fifo-stall API.
func apiEntrypoint(api string) []string {
	if api == PyAPI {
		return []string{"/usr/bin/python3", "/app/logbench_qps.py"}
	}
	return nil
}

// volumeSafe makes a run ID fit the engine's names of volumes and containers
// ([a-zA-Z0-9][a-zA-Z0-9_.-]*): "console+file" becomes "console_file".
func volumeSafe(id string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.' || r == '-' {
			return r
		}
		return '_'
	}, id)
}

func nanoCPUs(cpus float64) int64 { return int64(math.Round(cpus * 1e9)) }
