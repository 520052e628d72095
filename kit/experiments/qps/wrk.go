package qps

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
)

// The independent check of the kit's load generator: in every run of every
// configuration, Debian's wrk loads the same API container from the same network
// namespace (the pod's) with the same connections for the same duration, alone, next
// to the kit's own measured load (right before it or right after it, WrkAlternate), so
// that a bundle's loads interleave and the host's drift falls on both alike. The two
// rates must agree.

// WrkTolerance is how far the kit's rate may be from wrk's, as a share of wrk's: the
// issue's "must agree within 5%". A run past it is not data: an instrument that an
// independent one contradicts cannot vouch for its figure.
const WrkTolerance = 0.05

// WrkAgrees says the kit's rate over wrk's, agreement, is within WrkTolerance.
func WrkAgrees(agreement float64) bool { return math.Abs(agreement-1) <= WrkTolerance }

// WrkArgs is wrk's command line for p: one thread, p's connections, p's duration in
// whole seconds (wrk takes no fraction; at least 1), latency percentiles, the API's
// workload port on the pod's loopback.
func WrkArgs(p Params) []string {
	return []string{"wrk", "-t1", "-c", strconv.Itoa(p.Connections), "-d", fmt.Sprintf("%ds", wrkSeconds(p.DurationS)), "--latency",
		fmt.Sprintf("http://127.0.0.1:%d/", contract.WorkloadPort)}
}

func wrkSeconds(d float64) int { return max(1, int(math.Round(d))) }

// WrkAlternate is the order of a run's two loads since wrk checks every configuration:
// a condition's odd runs (its 1st, 3rd, ... pod) have the kit's warm-up, wrk, then the
// kit's measured load; its even runs the kit's warm-up, the kit's measured load, then
// wrk. So neither instrument always loads the API first (warmer or colder, before or
// after the other's log lines), and runs.csv's wrk_after_kit says which run had which.
// A manifest without an order (a bundle of an earlier kit) had wrk after the kit's
// load, in none only.
const WrkAlternate = "alternate: warmup,wrk,kit in a condition's odd runs; warmup,kit,wrk in its even runs"

// wrkRuns says whether a run of config has the wrk phase: every configuration's, or
// none's only in a bundle of an earlier kit (no wrk_configs in its manifest).
func wrkRuns(p Params, config string) bool {
	if !p.Wrk {
		return false
	}
	if p.WrkConfigs == nil {
		return config == NoLog
	}
	return slices.Contains(p.WrkConfigs, config)
}

// Where the run's log files go on the shared volume, and where the engine CPU helper
// answers on the pod's loopback.
const (
	resultPath = contract.RunDir + "/result.json"
	enginePort = 9003
	logDir     = contract.RunDir + "/logs"
)

// pod is one run's containers: the API owns the network namespace and the load
// generator (the conductor, last) joins it, with the engine CPU helper and wrk between;
// the API's stdout goes through the chosen logging driver and is read back after the
// run when its configuration writes to it.
func pod(p *Params, c tabular.Cell, runID string, images map[string]string) experiment.PodSpec {
	api, config, l := c[0], c[1], p.Limits
	load := contract.DefaultQPSLoadArgs()
	load.Connections, load.Pipelining = p.Connections, p.Pipelining
	load.Duration, load.Warmup = contract.Seconds(p.DurationS), contract.Seconds(p.WarmupS)
	load.CPULimit, load.Result = l.LoadgenCPUs, resultPath
	if rate := p.openRate(c); rate > 0 {
		load.Open, load.Rate, load.Arrivals, load.Vegeta = true, rate, p.Arrivals, p.Vegeta
	}
	args, entry := []string{"-config", config, "-log-dir", logDir}, []string(nil)
	switch api {
	case GoAPI: // the Go API serves the configurations under -access-log (cmd/incontainer/api)
		args[0] = "-access-log"
	case PyAPI: // the Python image's qps module in place of its fifo-stall API
		entry = []string{"/usr/bin/python3", "/app/logbench_qps.py"}
	}
	spec := experiment.PodSpec{RunID: experiment.VolumeSafe(runID), Conductor: "loadgen", MountPath: contract.RunDir, ResultPath: resultPath,
		User: contract.User, PidsLimit: l.PidsLimit, NoFile: contract.NoFileFor(p.Connections), StopAfter: experiment.WithGrace(contract.Seconds(p.maxRunTimeS())),
		Containers: []experiment.ContainerSpec{{Role: "api", Image: images[ImageOf(api)], NanoCPUs: experiment.NanoCPUs(l.APICPUs), MemoryBytes: l.APIMemoryBytes,
			Entrypoint: entry, Cmd: args, LogDriver: p.LogDriver, LogOpts: p.LogOpts}}}
	if p.EngineCPU {
		// Started before the conductor, which asks it once the load begins.
		helper, url := experiment.EngineHelper("enginecpu", "qpsload", p.EngineKind, enginePort, images)
		spec.Containers, load.EngineCPUURL = append(spec.Containers, helper), url
	}
	if wrkRuns(*p, config) {
		// In the pod's network namespace like the generator: it waits on the volume for
		// the conductor's signal, with the generator's limits, and outlives the run
		// (max_run_time_s). A condition's odd pods run it before the kit's load, its
		// even ones after.
		spec.Containers = append(spec.Containers, experiment.ContainerSpec{Role: "wrk", Image: images["wrk"], NanoCPUs: experiment.NanoCPUs(l.LoadgenCPUs),
			MemoryBytes: l.LoadgenMemoryBytes, Entrypoint: []string{"/bin/sh", "-c", contract.WrkScript, "wrk-phase", strconv.Itoa(int(math.Ceil(p.MaxRunTimeS)))}, Cmd: WrkArgs(*p)})
		load.WrkDir, load.WrkTimeout = contract.RunDir, time.Duration(wrkSeconds(p.DurationS)+60)*time.Second
		spec.StopAfter += load.WrkTimeout // the kit's load and wrk's, one after the other
		spec.MeasureUsage = append(spec.MeasureUsage, "wrk")
		if p.pods == nil {
			p.pods = map[string]int{}
		}
		p.pods[c.String()]++
		load.WrkAfter = p.pods[c.String()]%2 == 0
	}
	spec.Containers = append(spec.Containers, experiment.ContainerSpec{Role: "loadgen", Image: images["qpsload"], NanoCPUs: experiment.NanoCPUs(l.LoadgenCPUs),
		MemoryBytes: l.LoadgenMemoryBytes, Cmd: load.Args()})
	if hasConsole(config) && p.LogDriver != "none" {
		spec.CollectLogs = []string{"api"}
	}
	return spec
}
