// Package qps is the kit's second experiment: how much an access log costs an API at
// saturation (reference/qps-experiment.md). The Node.js API of images/api-node (Express
// and morgan, the published formats) in four configurations, none, console, file and
// console+file, under closed-loop load as autocannon -c 10 -d 5 -p 1 offers it; every
// log line the API wrote is read back, from the engine's log driver (console) and from
// the shared volume (file), and verified by count, bytes and SHA-256.
package qps

import (
	"flag"
	"slices"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
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

// Defaults where this experiment's flag shares its name with another experiment's,
// which declares it first (reproduce declares each name once): these apply when the
// flag is not given.
const (
	DefaultAPI       = NodeAPI
	DefaultDuration  = 5 * time.Second
	DefaultAPICPUs   = 1.0
	DefaultAPIMemory = "512MiB"
	DefaultGenCPUs   = 1.0
	DefaultGenMemory = "256MiB"
	DefaultPids      = 256
)

// Experiment is the qps experiment as a plug-in.
type Experiment struct{}

var _ experiment.Experiment = Experiment{}

func (Experiment) Name() string { return Name }

func (Experiment) Summary() string {
	return "requests/s of an Express API with morgan access logs: none, console (the engine's log driver), file, console+file; closed-loop load, every line read back"
}

func (Experiment) Source() string {
	pub, err := LoadPublished()
	if err != nil {
		return "seed 004"
	}
	return pub.Source
}

// DeclareFlags declares qps's own parameters, each with qps's default.
func (Experiment) DeclareFlags(fs *flag.FlagSet) {
	fs.String("api", DefaultAPI, "API implementation: node (Express and morgan, as published), go, python or all")
	fs.String("configs", strings.Join(Configs, ","), "access-log configurations, comma-separated (none, console, file, console+file)")
	fs.Int("connections", 10, "keep-alive connections of the closed-loop load")
	fs.Int("pipelining", 1, "requests in flight per connection")
	fs.Duration("duration", DefaultDuration, "measured load per run")
	fs.Duration("warmup-time", time.Second, "load before each run's measurement, not counted")
	fs.String("log-driver", "", experiment.LogDriverUsage)
	fs.Var(new(experiment.Strings), "log-opt", experiment.LogOptUsage)
	fs.Bool("engine-cpu", true, "measure the engine's own CPU (Docker: dockerd, containerd, shims; Podman: conmon and the service) with a helper container in the host's PID namespace, read-only, no capabilities (--engine-cpu=false: not measured)")
	fs.Bool("wrk", true, "in every run, right before the kit's measured load in a condition's odd runs and right after it in its even ones, load the same API from the pod's network namespace with Debian's wrk (same connections, duration and CPU) and record whether the two rates agree within 5%: a rate wrk does not confirm stays data and is marked NOT CONFIRMED (--wrk=false: not checked)")
	fs.Float64("api-cpus", DefaultAPICPUs, "CPU limit of the API container, in CPUs (0.01 to 1024)")
	fs.String("api-memory", DefaultAPIMemory, "memory limit of the API container (no swap)")
	fs.Float64("loadgen-cpus", DefaultGenCPUs, "CPU limit of the load generator container, in CPUs (0.01 to 1024)")
	fs.String("loadgen-memory", DefaultGenMemory, "memory limit of the load generator container (no swap)")
	fs.Int64("pids-limit", DefaultPids, "process/thread limit of each container")
}

var usagef = experiment.Usagef

// Plan validates reproduce's flags into the matrix api x config.
func (Experiment) Plan(c *experiment.Flags, rounds int) (experiment.Plan, error) {
	p, err := ParamsFrom(c, rounds)
	if err != nil {
		return nil, err
	}
	return NewPlan(p), nil
}

// ParamsFrom validates the flags, all before anything starts.
func ParamsFrom(c *experiment.Flags, rounds int) (Params, error) {
	p := Params{Rounds: rounds, Connections: c.Int("connections"), Pipelining: c.Int("pipelining")}
	switch api := c.String("api"); api {
	case NodeAPI, GoAPI, PyAPI:
		p.APIs = []string{api}
	case "all":
		p.APIs = APIs
	default:
		return p, usagef("--api %q: want node, go, python or all", c.String("api"))
	}
	for _, f := range strings.Split(c.String("configs"), ",") {
		f = strings.TrimSpace(f)
		if f == "" || slices.Contains(p.Configs, f) {
			continue
		}
		if !slices.Contains(Configs, f) {
			return p, usagef("--configs: unknown configuration %q (known: %s)", f, strings.Join(Configs, ", "))
		}
		p.Configs = append(p.Configs, f)
	}
	if len(p.Configs) == 0 {
		return p, usagef("--configs: need at least one of %s", strings.Join(Configs, ", "))
	}
	duration := c.Duration("duration")
	warmup := c.Duration("warmup-time")
	switch {
	case p.Connections < 1 || p.Connections > 10000:
		return p, usagef("--connections %d: want 1 to 10000", p.Connections)
	case p.Pipelining < 1 || p.Pipelining > 1000:
		return p, usagef("--pipelining %d: want 1 to 1000", p.Pipelining)
	case duration < 500*time.Millisecond || duration > time.Hour:
		return p, usagef("--duration %v: want 500ms to 1h", duration)
	case warmup < 0 || warmup > 10*time.Minute:
		return p, usagef("--warmup-time %v: want 0 to 10m", warmup)
	}
	p.DurationS, p.WarmupS = duration.Seconds(), warmup.Seconds()
	p.MaxRunTimeS = (duration + warmup + 2*time.Minute).Seconds()

	ld, err := experiment.ParseLogDriver(c)
	if err != nil {
		return p, err
	}
	p.LogDriver, p.LogOpts, p.NonBlocking = ld.Driver, ld.Opts, ld.NonBlocking

	if c.Bool("engine-cpu") {
		p.EngineCPU = true
		p.EngineCPUHow = EngineHelper
	}

	// wrk pipelines only through a Lua script: with more than one request in flight per
	// connection its load would not be the kit's.
	p.Wrk = c.Bool("wrk")
	if p.Wrk && p.Pipelining > 1 {
		if c.IsSet("wrk") {
			return p, usagef("--wrk: wrk sends one request at a time per connection; with --pipelining %d it would not offer the kit's load (--wrk=false)", p.Pipelining)
		}
		p.Wrk = false
	}

	lim, err := c.Limits()
	if err != nil {
		return p, err
	}
	p.Limits = Limits(lim)
	return p, nil
}

// Resume reads the plan back from the bundle in dir, which must verify.
func (e Experiment) Resume(dir string) (experiment.Plan, error) {
	files, err := bundle.ReadFolder(dir)
	if err != nil {
		return nil, usagef("--resume %s: %v", dir, err)
	}
	res, b := verifyFiles(files)
	if !res.OK() {
		return nil, usagef("--resume %s: the bundle does not verify (%d problems, the first: %s); see logbench verify %s",
			dir, len(res.Problems), res.Problems[0], dir)
	}
	if b.M.Command != "reproduce" {
		return nil, usagef("--resume %s: a bundle of %q, not of reproduce", dir, b.M.Command)
	}
	return &Plan{conds: cross(b.M.Parameters.APIs, b.M.Parameters.Configs), bundle: b, pods: map[string]int{}}, nil
}

var _ experiment.Imager = Experiment{}

// ImagesFor names the images of api's runs ("" or "all": every API's), with the load
// generator and wrk, which checks every configuration's rate by default.
func (Experiment) ImagesFor(api string) ([]string, error) {
	apis := APIs
	switch api {
	case "", "all":
	case NodeAPI, GoAPI, PyAPI:
		apis = []string{api}
	default:
		return nil, usagef("--api %q: want node, go, python or all", api)
	}
	return NewPlan(Params{APIs: apis, Wrk: true}).Images(), nil
}
