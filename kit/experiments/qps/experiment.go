// Package qps is the kit's second experiment: how much an access log costs an API at
// saturation (reference/qps-experiment.md). The Node.js API of images/api-node (Express
// and morgan, the published formats) in four configurations, none, console, file and
// console+file, under closed-loop load as autocannon -c 10 -d 5 -p 1 offers it; every
// log line the API wrote is read back, from the engine's log driver (console) and from
// the shared volume (file), and verified by count, bytes and SHA-256.
package qps

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/docker/go-units"
	"github.com/urfave/cli/v2"

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

func (Experiment) Axes() []string { return []string{"api", "config"} }

// Flags are qps's own; --api, --duration, --api-cpus, --api-memory, --loadgen-cpus,
// --loadgen-memory and --pids-limit are shared with fifo-stall by name, and read with
// this experiment's defaults when they are not given.
func (Experiment) Flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "configs", Value: strings.Join(Configs, ","), Usage: "qps: access-log configurations, comma-separated (none, console, file, console+file)"},
		&cli.IntFlag{Name: "connections", Value: 10, Usage: "qps: keep-alive connections of the closed-loop load"},
		&cli.IntFlag{Name: "pipelining", Value: 1, Usage: "qps: requests in flight per connection"},
		&cli.DurationFlag{Name: "warmup-time", Value: time.Second, Usage: "qps: load before each run's measurement, not counted"},
		&cli.StringFlag{Name: "log-driver", Value: "json-file", Usage: "qps: the API container's logging driver (json-file, local, none, ...)"},
		&cli.BoolFlag{Name: "engine-cpu", Value: true, Usage: "qps: measure the engine's own CPU (dockerd, containerd, shims) with a helper container in the host's PID namespace, read-only, no capabilities (--engine-cpu=false: not measured)"},
		&cli.BoolFlag{Name: "wrk", Value: true, Usage: "qps: after the kit's load in each run of none, load the same API with Debian's wrk (same connections and duration) and fail the run unless the two rates agree within 5% (--wrk=false: not checked)"},
		&cli.StringSliceFlag{Name: "log-opt", Usage: "qps: a logging driver option key=value, repeatable (mode=non-blocking, max-buffer-size=1m)"},
		&cli.StringFlag{Name: "api", Value: DefaultAPI, Usage: "API implementation (qps: node, the default, go, python or all)"},
		&cli.DurationFlag{Name: "duration", Value: DefaultDuration, Usage: "measured load per run (qps: 5s by default)"},
		&cli.Float64Flag{Name: "api-cpus", Value: DefaultAPICPUs, Usage: "CPU limit of the API container (qps: 1 by default, 0 for none)"},
		&cli.StringFlag{Name: "api-memory", Value: DefaultAPIMemory, Usage: "memory limit of the API container (qps: 512MiB by default)"},
		&cli.Float64Flag{Name: "loadgen-cpus", Value: DefaultGenCPUs, Usage: "CPU limit of the load generator (qps: 1 by default, 0 for none)"},
		&cli.StringFlag{Name: "loadgen-memory", Value: DefaultGenMemory, Usage: "memory limit of the load generator (qps: 256MiB by default)"},
		&cli.Int64Flag{Name: "pids-limit", Value: DefaultPids, Usage: "process/thread limit of each container (qps: 256 by default)"},
	}
}

var usagef = experiment.Usagef

// Plan validates reproduce's flags into the matrix api x config.
func (Experiment) Plan(c *cli.Context) (experiment.Plan, error) {
	p, err := ParamsFrom(c)
	if err != nil {
		return nil, err
	}
	return NewPlan(p), nil
}

// ParamsFrom validates the flags, all before anything starts.
func ParamsFrom(c *cli.Context) (Params, error) {
	p := Params{Rounds: c.Int("reps"), Connections: c.Int("connections"), Pipelining: c.Int("pipelining")}
	if p.Rounds == 0 {
		p.Rounds = 3
	}
	api := DefaultAPI
	if c.IsSet("api") {
		api = c.String("api")
	}
	switch api {
	case NodeAPI, GoAPI, PyAPI:
		p.APIs = []string{api}
	case "all":
		p.APIs = APIs
	default:
		return p, usagef("--api %q: want node, go, python or all", api)
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
	duration := DefaultDuration
	if c.IsSet("duration") {
		duration = c.Duration("duration")
	}
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

	p.LogDriver = strings.TrimSpace(c.String("log-driver"))
	if p.LogDriver == "" {
		return p, usagef("--log-driver: want a driver name, such as json-file")
	}
	for _, kv := range c.StringSlice("log-opt") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return p, usagef("--log-opt %q: want key=value, such as mode=non-blocking", kv)
		}
		if p.LogOpts == nil {
			p.LogOpts = map[string]string{}
		}
		p.LogOpts[k] = v
	}
	if m, ok := p.LogOpts["mode"]; ok && m != "blocking" && m != "non-blocking" {
		return p, usagef("--log-opt mode=%s: want blocking or non-blocking", m)
	}
	p.NonBlocking = p.LogOpts["mode"] == "non-blocking"
	if p.LogDriver == "none" && len(p.LogOpts) > 0 {
		return p, usagef("--log-opt: the none log driver takes no options")
	}

	if c.Bool("engine-cpu") || !c.IsSet("engine-cpu") {
		p.EngineCPU = true
		p.EngineCPUHow = EngineHelper
	}

	// wrk pipelines only through a Lua script: with more than one request in flight per
	// connection its load would not be the kit's.
	p.Wrk = c.Bool("wrk") || !c.IsSet("wrk")
	if p.Wrk && p.Pipelining > 1 {
		if c.IsSet("wrk") {
			return p, usagef("--wrk: wrk sends one request at a time per connection; with --pipelining %d it would not offer the kit's load (--wrk=false)", p.Pipelining)
		}
		p.Wrk = false
	}

	var err error
	l := &p.Limits
	if l.APICPUs, err = cpusFlag(c, "api-cpus", DefaultAPICPUs); err != nil {
		return p, err
	}
	if l.LoadgenCPUs, err = cpusFlag(c, "loadgen-cpus", DefaultGenCPUs); err != nil {
		return p, err
	}
	if l.APIMemoryBytes, err = bytesFlag(c, "api-memory", DefaultAPIMemory); err != nil {
		return p, err
	}
	if l.LoadgenMemoryBytes, err = bytesFlag(c, "loadgen-memory", DefaultGenMemory); err != nil {
		return p, err
	}
	l.PidsLimit = DefaultPids
	if c.IsSet("pids-limit") {
		l.PidsLimit = c.Int64("pids-limit")
	}
	if l.PidsLimit < 16 {
		return p, usagef("--pids-limit %d: want at least 16", l.PidsLimit)
	}
	return p, nil
}

// cpusFlag reads a CPU limit: this experiment's default when not given, 0 for none.
func cpusFlag(c *cli.Context, flag string, def float64) (float64, error) {
	if !c.IsSet(flag) {
		return def, nil
	}
	v := c.Float64(flag)
	if v != 0 && !(v >= 0.01 && v <= 1024) {
		return 0, usagef("--%s %v: want 0 (no limit) or 0.01 to 1024 CPUs", flag, v)
	}
	return v, nil
}

func bytesFlag(c *cli.Context, flag, def string) (int64, error) {
	s := def
	if c.IsSet(flag) {
		s = c.String(flag)
	}
	v, err := units.RAMInBytes(s)
	if err != nil || v < 6<<20 { // the engine refuses less
		return 0, usagef("--%s %q: want a size of at least 6MiB, such as 512MiB", flag, s)
	}
	return v, nil
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
	return &Plan{conds: experiment.Cross(b.M.Parameters.APIs, b.M.Parameters.Configs), bundle: b}, nil
}

func fmtOpts(opts map[string]string) string {
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%s", k, opts[k]))
	}
	return strings.Join(parts, ",")
}
