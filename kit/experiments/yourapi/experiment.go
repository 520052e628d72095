// Package yourapi is the experiment "your-api": the seeds' question asked of a service
// the kit did not write. Any image the engine already has runs under exact CPU and
// memory limits and the kit's hardening, once per logging configuration (environment
// variables, or a command override); the qps experiment's closed loop or fifo-stall's
// open loop loads one of its URLs; its console is read back through the engine's log
// driver and its log directory from the run's volume, and their lines are counted, not
// verified: the kit cannot know what a foreign service meant to write. CPU is
// measured inside the container (its processes) and in the engine's processes, and
// each configuration's cost per request is set against a baseline configuration's.
package yourapi

import (
	"flag"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// Name is the experiment's name.
const Name = "your-api"

// Experiment is your-api as a plug-in.
type Experiment struct{}

var _ experiment.Experiment = Experiment{}

func (Experiment) Name() string { return Name }

func (Experiment) Summary() string {
	return "your own image: requests/s, latency and CPU inside and outside the container in each logging configuration you give (--config NAME:ENV=VALUE), lines counted, not verified"
}

func (Experiment) Source() string {
	return "nothing: it measures your own service, against its baseline configuration"
}

var usagef = experiment.Usagef

// DeclareFlags declares your-api's parameters.
func (Experiment) DeclareFlags(fs *flag.FlagSet) {
	fs.String("image", "", "the service's image, one the engine already has (a name:tag or an ID); the kit does not pull")
	fs.Int("port", 0, "the TCP port the service listens on inside its container (it must listen on 127.0.0.1 or all addresses)")
	fs.String("path", "/", "the path loaded, answered with a 2xx status (GET)")
	fs.Var(new(experiment.Whole), "config", "one logging configuration NAME:ENV=VALUE[,ENV=VALUE] (NAME alone: the image's defaults); at least one")
	fs.Var(new(experiment.Whole), "config-cmd", "NAME:ARGS replaces the image's command (its CMD, after its entrypoint) in configuration NAME, ARGS split at spaces, for images configured by flags")
	fs.String("baseline", "", "the configuration every other one's cost is set against (default: the first --config)")
	fs.String("log-file", "", "a directory in the container where the service writes its log file: the run's volume is mounted there and every file in it is counted after the run")
	fs.String("load", contract.LoadClosed, "load shape: closed (the qps experiment's keep-alive connections, as autocannon) or open (fifo-stall's fixed rate, latency from the scheduled send)")
	fs.Int("connections", 10, "keep-alive connections of the closed-loop load (with --load closed)")
	fs.Int("pipelining", 1, "requests in flight per connection (with --load closed)")
	fs.Float64("rate", 100, "offered load, requests per second (with --load open)")
	fs.Duration("max-send-lag", time.Millisecond, "flag a run as not trustworthy when its send-lag p99 exceeds this (with --load open)")
	fs.Int("retries", 2, "perform a run again, up to this many times, while its send-lag p99 is over --max-send-lag (every attempt is kept in the bundle; with --load open)")
	fs.Duration("duration", 5*time.Second, "measured load per run")
	fs.Duration("warmup-time", time.Second, "load before each run's measurement, not counted")
	fs.Duration("ready-timeout", 30*time.Second, "longest wait for the service to answer --path with a 2xx status")
	fs.String("log-driver", "", experiment.LogDriverUsage)
	fs.Var(new(experiment.Strings), "log-opt", experiment.LogOptUsage)
	fs.Float64("api-cpus", 1, "CPU limit of the API container, in CPUs (0.01 to 1024): the service's")
	fs.String("api-memory", "512MiB", "memory limit of the API container (no swap): the service's")
	fs.Float64("loadgen-cpus", 1, "CPU limit of the load generator container, in CPUs (0.01 to 1024)")
	fs.String("loadgen-memory", "256MiB", "memory limit of the load generator container (no swap)")
	fs.Int64("pids-limit", 256, "process/thread limit of each container")
	fs.Bool("writable-root", false, "relax the hardening: the service's root file system is writable (recorded in the manifest)")
	fs.Bool("keep-user", false, "relax the hardening: run the service as its image's user, not the kit's uid 65532 (recorded)")
	fs.Var(new(experiment.Strings), "cap-add", "relax the hardening: give the service this capability back after dropping all, such as DAC_OVERRIDE for a root user (--keep-user) writing to the volume; a non-root user gets none (recorded)")
	fs.Bool("new-privileges", false, "relax the hardening: let setuid binaries and file capabilities take effect in the service (recorded)")
}

// Plan validates the flags into a matrix of configurations.
func (Experiment) Plan(c *experiment.Flags, rounds int) (experiment.Plan, error) {
	p, err := ParamsFrom(c, rounds)
	if err != nil {
		return nil, err
	}
	return NewPlan(p), nil
}

var configName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.+-]{0,39}$`)
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ParseConfig reads one --config NAME:ENV=VALUE[,ENV=VALUE].
func ParseConfig(s string) (Config, error) {
	name, assigns, _ := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	if !configName.MatchString(name) {
		return Config{}, usagef("--config %q: want NAME:ENV=VALUE[,ENV=VALUE], NAME of letters, digits, _ . + - (at most 40)", s)
	}
	c := Config{Name: name}
	if strings.TrimSpace(assigns) == "" {
		return c, nil
	}
	seen := map[string]bool{}
	for _, a := range strings.Split(assigns, ",") {
		k, _, ok := strings.Cut(a, "=")
		if !ok {
			return Config{}, usagef("--config %s: %q is not an assignment ENV=VALUE", name, a)
		}
		if !envName.MatchString(k) {
			return Config{}, usagef("--config %s: %q is not a variable name", name, k)
		}
		if seen[k] {
			return Config{}, usagef("--config %s: %s is assigned twice", name, k)
		}
		seen[k] = true
		c.Env = append(c.Env, a)
	}
	return c, nil
}

// ParamsFrom validates the flags, all before anything starts.
func ParamsFrom(c *experiment.Flags, rounds int) (Params, error) {
	p := Params{Rounds: rounds, Image: strings.TrimSpace(c.String("image")), Port: c.Int("port"), Path: c.String("path"),
		Load: c.String("load"), Connections: c.Int("connections"), Pipelining: c.Int("pipelining"), RateRPS: c.Float64("rate"),
		Retries: c.Int("retries")}
	if p.Image == "" {
		return p, usagef("--image: name the service's image (one the engine already has)")
	}
	if p.Port < 1 || p.Port > 65535 {
		return p, usagef("--port %d: want the service's TCP port, 1 to 65535", p.Port)
	}
	if !strings.HasPrefix(p.Path, "/") || strings.ContainsAny(p.Path, " \t\r\n") {
		return p, usagef("--path %q: want an absolute path without spaces, such as /health", p.Path)
	}
	for _, s := range c.StringSlice("config") {
		cfg, err := ParseConfig(s)
		if err != nil {
			return p, err
		}
		if slices.ContainsFunc(p.Configs, func(have Config) bool { return have.Name == cfg.Name }) {
			return p, usagef("--config %s: the name is given twice", cfg.Name)
		}
		p.Configs = append(p.Configs, cfg)
	}
	if len(p.Configs) == 0 {
		return p, usagef("--config: give at least one logging configuration, such as --config none:LOG_LEVEL=off")
	}
	for _, s := range c.StringSlice("config-cmd") {
		name, args, ok := strings.Cut(s, ":")
		i := slices.IndexFunc(p.Configs, func(have Config) bool { return have.Name == name })
		switch {
		case !ok || strings.TrimSpace(args) == "":
			return p, usagef("--config-cmd %q: want NAME:ARGS, such as 'verbose:--log-level debug'", s)
		case i < 0:
			return p, usagef("--config-cmd %s: no --config of that name", name)
		case p.Configs[i].Cmd != nil:
			return p, usagef("--config-cmd %s: given twice", name)
		}
		p.Configs[i].Cmd = strings.Fields(args)
	}
	p.Baseline = c.String("baseline")
	if p.Baseline == "" {
		p.Baseline = p.Configs[0].Name
	} else if !slices.Contains(p.ConfigNames(), p.Baseline) {
		return p, usagef("--baseline %s: not one of the configurations (%s)", p.Baseline, strings.Join(p.ConfigNames(), ", "))
	}
	if dir := c.String("log-file"); dir != "" {
		if !path.IsAbs(dir) || path.Clean(dir) == "/" {
			return p, usagef("--log-file %q: want the absolute directory the service writes its log file in, such as /var/log/app", dir)
		}
		p.LogFile = path.Clean(dir)
	}

	duration, warmup, ready := c.Duration("duration"), c.Duration("warmup-time"), c.Duration("ready-timeout")
	switch {
	case p.Load != contract.LoadClosed && p.Load != contract.LoadOpen:
		return p, usagef("--load %q: want closed or open", p.Load)
	case p.Connections < 1 || p.Connections > 10000:
		return p, usagef("--connections %d: want 1 to 10000", p.Connections)
	case p.Pipelining < 1 || p.Pipelining > 1000:
		return p, usagef("--pipelining %d: want 1 to 1000", p.Pipelining)
	case !(p.RateRPS >= 1 && p.RateRPS <= 100000):
		return p, usagef("--rate %v: want 1 to 100000 requests per second", p.RateRPS)
	case p.Retries < 0 || p.Retries > 10:
		return p, usagef("--retries %d: want 0 to 10", p.Retries)
	case duration < 500*time.Millisecond || duration > time.Hour:
		return p, usagef("--duration %v: want 500ms to 1h", duration)
	case warmup < 0 || warmup > 10*time.Minute:
		return p, usagef("--warmup-time %v: want 0 to 10m", warmup)
	case ready < time.Second || ready > 10*time.Minute:
		return p, usagef("--ready-timeout %v: want 1s to 10m", ready)
	case c.Duration("max-send-lag") <= 0:
		return p, usagef("--max-send-lag %v: want more than 0", c.Duration("max-send-lag"))
	}
	// A flag of the other load shape would do nothing: it is refused, not ignored.
	for _, f := range map[string][]string{contract.LoadClosed: {"rate", "max-send-lag", "retries"}, contract.LoadOpen: {"connections", "pipelining"}}[p.Load] {
		if c.IsSet(f) {
			return p, usagef("--%s does nothing with --load %s", f, p.Load)
		}
	}
	p.DurationS, p.WarmupS, p.ReadyTimeoutS = duration.Seconds(), warmup.Seconds(), ready.Seconds()
	p.MaxSendLagP99Ms = float64(c.Duration("max-send-lag")) / 1e6
	p.MaxRunTimeS = (ready + duration + warmup + 2*time.Minute).Seconds()
	if p.Load == contract.LoadClosed {
		p.RateRPS, p.MaxSendLagP99Ms, p.Retries = 0, 0, 0
	} else {
		p.Connections, p.Pipelining = 0, 0
	}

	ld, err := experiment.ParseLogDriver(c)
	if err != nil {
		return p, err
	}
	p.LogDriver, p.LogOpts, p.NonBlocking = ld.Driver, ld.Opts, ld.NonBlocking

	lim, err := c.Limits()
	if err != nil {
		return p, err
	}
	p.Limits = Limits(lim)

	if p.Hardening, err = hardeningFrom(c); err != nil {
		return p, err
	}
	return p, nil
}

// relaxed names what the service was allowed beyond the kit's hardening.
func (h Hardening) relaxed() []string {
	var out []string
	if !h.ReadOnlyRoot {
		out = append(out, "writable root file system (--writable-root)")
	}
	if h.User == "" {
		out = append(out, "the image's own user (--keep-user)")
	}
	for _, c := range h.CapAdd {
		out = append(out, "capability "+c+" (--cap-add)")
	}
	if !h.NoNewPrivileges {
		out = append(out, "new privileges (--new-privileges)")
	}
	return out
}

// Resume reads the plan back from the bundle in dir, which must verify.
func (Experiment) Resume(dir string) (experiment.Plan, error) {
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
	// Target runs the image only if the engine's image of that name is still this one.
	if b.M.Parameters.ImageID == "" {
		return nil, usagef("--resume %s: the bundle records no image ID for %s, so the image it ran cannot be told from another of that name", dir, b.M.Parameters.Image)
	}
	return &Plan{bundle: b}, nil
}
