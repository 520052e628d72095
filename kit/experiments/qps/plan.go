package qps

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
)

// Where every image has the mount point of the run's shared volume, and the
// unprivileged uid:gid every container runs as (the Dockerfiles say both too).
const (
	resultPath = contract.RunDir + "/result.json"
	// enginePort is where the engine CPU helper answers on the pod's loopback.
	enginePort = 9003
	logDir     = contract.RunDir + "/logs"
)

// EngineHelper says what the engine CPU helper is, for the manifest.
const EngineHelper = "a container of the qpsload image in the host's PID namespace (read-only root, no capabilities, no new privileges, uid 65532, 0.1 CPU, 64 MiB) " +
	"reads /proc/<pid>/stat of the engine's processes (Docker: dockerd, containerd and containerd-shim; Podman: conmon and podman system service) before and after the measured interval and answers on the pod's loopback only"

// Cond is a condition of this experiment: one API and access-log configuration.
type Cond struct{ API, Config string }

func (c Cond) String() string { return c.API + "/" + c.Config }

// cross is every API x configuration, the API varying slowest.
func cross(apis, configs []string) []experiment.Condition {
	var out []experiment.Condition
	for _, a := range apis {
		for _, c := range configs {
			out = append(out, Cond{a, c})
		}
	}
	return out
}

// Plan is a matrix of this experiment and the bundle it fills.
type Plan struct {
	conds  []experiment.Condition
	bundle *Bundle
	// pods counts the pods made per condition, for the order of wrk's phase.
	pods map[string]int
}

var _ experiment.Plan = (*Plan)(nil)

// NewPlan is a fresh matrix of p's APIs x configurations x rounds.
func NewPlan(p Params) *Plan {
	b := &Bundle{M: Manifest{Parameters: p}}
	b.M.Experiment = Name
	if !p.EngineCPU {
		b.M.Unmeasured = []string{"engine_cpu_cores: the engine's own CPU was not measured (--engine-cpu=false)"}
	}
	if p.Wrk {
		b.M.Parameters.WrkCommand = strings.Join(WrkArgs(p), " ")
		b.M.Parameters.WrkConfigs = slices.Clone(p.Configs)
		b.M.Parameters.WrkOrder = WrkAlternate
	} else {
		why := "--wrk=false"
		if p.Pipelining > 1 {
			why = "--pipelining over 1, which wrk does not offer"
		}
		b.M.Unmeasured = append(b.M.Unmeasured, "wrk_requests_per_s: the kit's load was not checked against wrk ("+why+")")
	}
	return &Plan{conds: cross(p.APIs, p.Configs), bundle: b, pods: map[string]int{}}
}

func (p *Plan) Conditions() []experiment.Condition { return p.conds }
func (p *Plan) Rounds() int                        { return p.bundle.M.Parameters.Rounds }
func (p *Plan) SetRounds(n int)                    { p.bundle.M.Parameters.Rounds = n }
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
	if p.bundle.M.Parameters.Wrk {
		names = append(names, "wrk")
	}
	return names
}

// Target records the platform and refuses a log driver the engine does not offer.
func (p *Plan) Target(env experiment.Env) error {
	params := &p.bundle.M.Parameters
	params.Platform = env.Platform
	if params.LogDriver == "" {
		params.LogDriver, params.LogDriverChosenBy = experiment.DefaultLogDriver(env.Engine)
	} else if params.LogDriverChosenBy == "" {
		params.LogDriverChosenBy = "--log-driver"
	}
	p.targetEngineCPU(env.Engine)
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
	c := cond.(Cond)
	api, config := c.API, c.Config
	l := pr.Limits
	load := contract.DefaultQPSLoadArgs()
	load.Connections, load.Pipelining = pr.Connections, pr.Pipelining
	load.Duration, load.Warmup = contract.Seconds(pr.DurationS), contract.Seconds(pr.WarmupS)
	load.CPULimit, load.Result = l.LoadgenCPUs, resultPath
	spec := experiment.PodSpec{
		RunID:      experiment.VolumeSafe(runID),
		Conductor:  "loadgen",
		MountPath:  contract.RunDir,
		ResultPath: resultPath,
		User:       contract.User,
		PidsLimit:  l.PidsLimit,
		NoFile:     contract.NoFileFor(pr.Connections),
		Containers: []experiment.ContainerSpec{
			{Role: "api", Image: images[ImageOf(api)], NanoCPUs: experiment.NanoCPUs(l.APICPUs), MemoryBytes: l.APIMemoryBytes,
				Entrypoint: apiEntrypoint(api), Cmd: apiArgs(api, config), LogDriver: pr.LogDriver, LogOpts: pr.LogOpts},
			{Role: "loadgen", Image: images["qpsload"], NanoCPUs: experiment.NanoCPUs(l.LoadgenCPUs), MemoryBytes: l.LoadgenMemoryBytes,
				Cmd: nil}, // load's, once every part of it is known
		},
	}
	if pr.EngineCPU {
		serve := contract.DefaultQPSLoadArgs()
		serve.EngineCPUServer, serve.EngineKind = fmt.Sprintf("127.0.0.1:%d", enginePort), pr.EngineKind
		helper := experiment.ContainerSpec{Role: "enginecpu", Image: images["qpsload"], NanoCPUs: experiment.NanoCPUs(0.1), MemoryBytes: 64 << 20, HostPIDs: true,
			Cmd: serve.Args()}
		// Started before the conductor, which asks it once the load begins.
		spec.Containers = []experiment.ContainerSpec{spec.Containers[0], helper, spec.Containers[1]}
		load.EngineCPUURL = fmt.Sprintf("http://127.0.0.1:%d/sample", enginePort)
	}
	if wrkRuns(pr, config) {
		// Between the API and the conductor, in the pod's network namespace like the
		// generator: it waits on the volume for the conductor's signal, with the
		// generator's limits, and outlives the run (max_run_time_s).
		w := experiment.ContainerSpec{Role: "wrk", Image: images["wrk"], NanoCPUs: experiment.NanoCPUs(l.LoadgenCPUs), MemoryBytes: l.LoadgenMemoryBytes,
			Entrypoint: []string{"/bin/sh", "-c", wrkScript, "wrk-phase", strconv.Itoa(int(math.Ceil(pr.MaxRunTimeS)))}, Cmd: WrkArgs(pr)}
		n := len(spec.Containers)
		spec.Containers = append(spec.Containers[:n-1:n-1], w, spec.Containers[n-1])
		load.WrkDir, load.WrkTimeout = contract.RunDir, time.Duration(wrkSeconds(pr.DurationS)+60)*time.Second
		p.pods[c.String()]++
		load.WrkAfter = p.pods[c.String()]%2 == 0
	}
	// The conductor is the pod's last container.
	spec.Containers[len(spec.Containers)-1].Cmd = load.Args()
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
