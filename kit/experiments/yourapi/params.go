package yourapi

import (
	"cmp"
	"flag"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
)

// DefaultParams are your-api's parameters before any flag: the qps experiment's closed
// loop, the kit's hardening, and no image, port or configuration (those are the user's).
func DefaultParams() *Params {
	return &Params{Path: "/", Load: contract.LoadClosed, Arrivals: DefaultArrivals, Connections: 10, Pipelining: 1, RateRPS: 100, MaxSendLagP99Ms: 1, Retries: 2,
		DurationS: 5, WarmupS: 1, ReadyTimeoutS: 30,
		Limits:    Limits{APICPUs: 1, APIMemoryBytes: 512 << 20, LoadgenCPUs: 1, LoadgenMemoryBytes: 256 << 20, PidsLimit: 256},
		Hardening: Hardening{ReadOnlyRoot: true, User: User, CapDrop: "ALL", NoNewPrivileges: true}}
}

// flags are your-api's flags, each bound to the field the manifest records it in, with
// its rule, in the usage's order. The rules read p as Check shapes it (shaped).
func (p *Params) flags() experiment.Flags {
	open := p.Load == contract.LoadOpen
	// The other shape's counts are 0 in a manifest (an open loop of an earlier kit
	// opened a connection per request: 0), the closed loop's at least 1.
	least := 1
	if open {
		least = 0
	}
	return slices.Concat(experiment.Flags{
		experiment.StringFlag(&p.Image, "image", "the service's image, one the engine already has (a name:tag or an ID); the kit does not pull", func() error {
			return experiment.UsageIf(strings.TrimSpace(p.Image) == "", "--image: name the service's image (one the engine already has)")
		}),
		experiment.IntFlagSaying(&p.Port, "port", 1, 65535, " (the service's TCP port)", "the TCP port the service listens on inside its container (it must listen on 127.0.0.1 or all addresses)"),
		experiment.StringFlag(&p.Path, "path", "the path loaded, answered with a 2xx status (GET)", func() error {
			return experiment.UsageIf(!strings.HasPrefix(p.Path, "/") || strings.ContainsAny(p.Path, " \t\r\n"), "--path %q: want an absolute path without spaces, such as /health", p.Path)
		}),
		{Bind: func(fs *flag.FlagSet) {
			fs.Var(experiment.Repeated(&p.Configs, addConfig, func(c Config) string { return c.Name }, ","), "config", "one logging configuration NAME:ENV=VALUE[,ENV=VALUE] (NAME alone: the image's defaults); at least one")
		}, Check: p.checkConfigs},
		// Each --config-cmd is applied to its configuration once the flags are checked.
		{Bind: func(fs *flag.FlagSet) {
			fs.Var(experiment.Repeated(&p.commands, func(l []string, s string) []string { return append(l, s) }, func(s string) string { return s }, " "), "config-cmd", "NAME:ARGS replaces the image's command (its CMD, after its entrypoint) in configuration NAME, ARGS split at spaces, for images configured by flags")
		}, Check: func() error { _, err := p.withCommands(); return err }},
		experiment.StringFlag(&p.Baseline, "baseline", "the configuration every other one's cost is set against (default: the first --config)", func() error {
			return experiment.UsageIf(p.Baseline != "" && !slices.Contains(p.ConfigNames(), p.Baseline), "--baseline %s: not one of the configurations (%s)", p.Baseline, strings.Join(p.ConfigNames(), ", "))
		}),
		experiment.StringFlag(&p.LogFile, "log-file", "a directory in the container where the service writes its log file: the run's volume is mounted there and every file in it is counted after the run", func() error {
			dir := p.LogFile
			return experiment.UsageIf(dir != "" && (!path.IsAbs(dir) || path.Clean(dir) == "/"), "--log-file %q: want the absolute directory the service writes its log file in, such as /var/log/app", dir)
		}),
		experiment.Flag{Bind: func(fs *flag.FlagSet) {
			fs.StringVar(&p.Load, "load", p.Load, "load shape: closed (the qps experiment's keep-alive connections, as autocannon) or open (fifo-stall's fixed rate, latency from the scheduled send)")
		}, Check: func() error {
			return experiment.UsageIf(p.Load != contract.LoadClosed && !open, "--load %q: want closed or open", p.Load)
		}}.Tracking(&p.given.load),
		experiment.IntFlag(&p.Connections, "connections", least, experiment.MaxConnections, "keep-alive connections of the load: the closed loop's, or the open loop's, each with its own share of the schedule as wrk2 does (a request whose connection is busy leaves when the previous one ends)"),
		experiment.IntFlag(&p.Pipelining, "pipelining", least, experiment.MaxPipelining, "requests in flight per connection (with --load closed)").Tracking(&p.given.pipelining),
		experiment.Flag{Bind: func(fs *flag.FlagSet) {
			fs.Float64Var(&p.RateRPS, "rate", p.RateRPS, "offered load, requests per second (with --load open)")
		}, Check: func() error {
			return experiment.UsageIf(open && !(p.RateRPS >= 1 && p.RateRPS <= 100000), "--rate %v: want 1 to 100000 requests per second", p.RateRPS)
		}}.Tracking(&p.given.rate),
		experiment.Flag{Bind: func(fs *flag.FlagSet) {
			fs.Var(experiment.Milliseconds(&p.MaxSendLagP99Ms), "max-send-lag", "flag a run as not trustworthy when its send-lag p99 exceeds this (with --load open)")
		}, Check: func() error {
			// More than 0: a bound of 0 would refuse every run.
			return experiment.UsageIf(open && !(p.MaxSendLagP99Ms > 0 && p.MaxSendLagP99Ms <= 60000), "--max-send-lag %s: want more than 0 and at most 1m", experiment.FormatSeconds(p.MaxSendLagP99Ms/1e3))
		}}.Tracking(&p.given.maxSendLag),
		experiment.IntFlag(&p.Retries, "retries", 0, 10, "perform a run again, up to this many times, while its send-lag p99 is over --max-send-lag (every attempt is kept in the bundle; with --load open)").Tracking(&p.given.retries),
		// A flag of the other load shape would do nothing: it is refused given.
		{Check: func() error {
			for _, f := range p.shapeFlags() {
				if *f.given && f.load != p.Load {
					return usagef("--%s does nothing with --load %s", f.name, p.Load)
				}
			}
			return nil
		}},
		experiment.SecondsFlag(&p.DurationS, "duration", 0.5, 3600, "measured load per run"),
		experiment.SecondsFlag(&p.WarmupS, "warmup-time", 0, 600, "load before each run's measurement, not counted"),
		experiment.SecondsFlag(&p.ReadyTimeoutS, "ready-timeout", 1, 600, "longest wait for the service to answer --path with a 2xx status"),
		experiment.LogDriverFlags(&p.LogDriver, &p.LogOpts),
	}, p.Limits.Flags("the service's"), experiment.Flags{
		{Bind: func(fs *flag.FlagSet) {
			fs.Var(experiment.Negated(&p.Hardening.ReadOnlyRoot), "writable-root", "relax the hardening: the service's root file system is writable (recorded in the manifest)")
			fs.Var(experiment.SwitchTo(&p.Hardening.User, "", User), "keep-user", "relax the hardening: run the service as its image's user, not the kit's uid 65532 (recorded)")
			fs.Var(experiment.Repeated(&p.Hardening.CapAdd, addCaps, func(c string) string { return c }, ","), "cap-add", "relax the hardening: give the service this capability back after dropping all, such as DAC_OVERRIDE for a root user (--keep-user) writing to the volume; a non-root user gets none (recorded)")
			fs.Var(experiment.Negated(&p.Hardening.NoNewPrivileges), "new-privileges", "relax the hardening: let setuid binaries and file capabilities take effect in the service (recorded)")
		}, Check: p.checkCapAdd},
		{Bind: p.bindCapacity, Check: func() error {
			// An arrival process only for the open load (a manifest of the closed load, or
			// written before the flag, has none).
			return cmp.Or(p.checkCapacity(), p.capacity.CheckArrivals(p.Arrivals, open, "with --load "+p.Load))
		}},
	})
}

// Bind declares your-api's flags.
func (p *Params) Bind(fs *flag.FlagSet) { p.flags().Bind(fs) }

// Check refuses parameters no plan of your-api can have, flag or manifest alike, in
// the order of the flags' usage.
func (p Params) Check() error {
	p = p.shaped()
	return p.flags().Check()
}

// shapeFlag is a flag of one load shape only, the manifest's field it sets and its
// value there, and whether it was given.
type shapeFlag struct {
	name, field, load string
	v                 float64
	given             *bool
}

// shapeFlags are the flags of one load shape, in the order Check names them.
func (p *Params) shapeFlags() []shapeFlag {
	return []shapeFlag{
		{"pipelining", "pipelining", contract.LoadClosed, float64(p.Pipelining), &p.given.pipelining},
		{"rate", "rate_rps", contract.LoadOpen, p.RateRPS, &p.given.rate}, {"max-send-lag", "max_send_lag_p99_ms", contract.LoadOpen, p.MaxSendLagP99Ms, &p.given.maxSendLag},
		{"retries", "retries", contract.LoadOpen, float64(p.Retries), &p.given.retries},
	}
}

var (
	configName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.+-]{0,39}$`)
	envName    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	capName    = regexp.MustCompile(`^[A-Z_]+$`)
)

// checkCapAdd: at most MaxListValues capabilities, each named.
func (p Params) checkCapAdd() error {
	if len(p.Hardening.CapAdd) > experiment.MaxListValues {
		return usagef("--cap-add: %d capabilities, at most %d", len(p.Hardening.CapAdd), experiment.MaxListValues)
	}
	for _, c := range p.Hardening.CapAdd {
		if !capName.MatchString(c) || c == "ALL" {
			return usagef("--cap-add %q: want one capability's name, such as DAC_OVERRIDE", c)
		}
	}
	return nil
}

// checkConfigs: at least one configuration, each named once and assigning variables
// by name, each once.
func (p Params) checkConfigs() error {
	switch {
	case len(p.Configs) == 0:
		return usagef("--config: give at least one logging configuration, such as --config none:LOG_LEVEL=off")
	case len(p.Configs) > experiment.MaxListValues:
		return usagef("--config: %d configurations, at most %d", len(p.Configs), experiment.MaxListValues)
	}
	for i, c := range p.Configs {
		if !configName.MatchString(c.Name) {
			return usagef("--config %q: want NAME:ENV=VALUE[,ENV=VALUE], NAME of letters, digits, _ . + - (at most 40)", c.Name)
		}
		if len(c.Env) > experiment.MaxListValues || len(c.Cmd) > experiment.MaxListValues {
			return usagef("--config %s: more than %d variables or arguments", c.Name, experiment.MaxListValues)
		}
		var seen []string
		for _, a := range c.Env {
			k, _, ok := strings.Cut(a, "=")
			switch {
			case !ok:
				return usagef("--config %s: %q is not an assignment ENV=VALUE", c.Name, a)
			case !envName.MatchString(k):
				return usagef("--config %s: %q is not a variable name", c.Name, k)
			case slices.Contains(seen, k):
				return usagef("--config %s: %s is assigned twice", c.Name, k)
			}
			seen = append(seen, k)
		}
		if slices.ContainsFunc(p.Configs[:i], func(have Config) bool { return have.Name == c.Name }) {
			return usagef("--config %s: the name is given twice", c.Name)
		}
	}
	return nil
}

// withCommands is the configurations with each --config-cmd applied, or the first that
// names no configuration, names one twice or gives no command.
func (p Params) withCommands() ([]Config, error) {
	configs := slices.Clone(p.Configs)
	for _, s := range p.commands {
		name, args, ok := strings.Cut(s, ":")
		i := slices.IndexFunc(configs, func(have Config) bool { return have.Name == name })
		switch {
		case !ok || strings.TrimSpace(args) == "":
			return nil, usagef("--config-cmd %q: want NAME:ARGS, such as 'verbose:--log-level debug'", s)
		case i < 0:
			return nil, usagef("--config-cmd %s: no --config of that name", name)
		case configs[i].Cmd != nil: // a manifest's, or an earlier --config-cmd's
			return nil, usagef("--config-cmd %s: given twice", name)
		}
		configs[i].Cmd = strings.Fields(args)
	}
	return configs, nil
}

// settle is the parameters a plan of rounds records, p checked: what follows from its
// flags filled in (the baseline, the commands, the other load shape's fields zero, the
// relaxed hardening named, how CPU is measured).
func (p Params) settle(rounds int) Params {
	p = p.shaped()
	p.Rounds = rounds
	if p.capacity.On() {
		p.Rounds = 1
	}
	p.Image = strings.TrimSpace(p.Image)
	if p.LogFile != "" {
		p.LogFile = path.Clean(p.LogFile)
	}
	p.Configs, _ = p.withCommands() // checked
	p.commands = nil
	p.Baseline = cmp.Or(p.Baseline, p.Configs[0].Name)
	p.settleCapacity(rounds)
	p.MaxRunTimeS = p.maxRunTimeS()
	if p.Load == contract.LoadClosed {
		p.RateRPS, p.MaxSendLagP99Ms, p.Retries, p.Arrivals = 0, 0, 0, ""
	} else {
		p.Pipelining = 0
	}
	p.NonBlocking = experiment.IsNonBlocking(p.LogOpts)
	p.Hardening.CapAdd = slices.Clone(p.Hardening.CapAdd)
	p.Hardening.Relaxed, _ = p.Hardening.relaxations()
	p.CPUHow = CPUHow
	return p
}

// shaped is p with the load --capacity implies unless --load is given: a search offers
// fixed rates, the open load, each step one run.
func (p Params) shaped() Params {
	if p.capacity.On() && !p.given.load {
		p.Load = contract.LoadOpen
	}
	return p
}

// maxRunTimeS is the longest a run may take, as the plan records it: the wait for the
// service, its warm-up and load, and two minutes for the rest.
func (p Params) maxRunTimeS() float64 { return p.ReadyTimeoutS + p.DurationS + p.WarmupS + 120 }

// CheckSettled refuses a manifest whose fields no flag sets are not what its plan
// recorded (experiment.Settled): max_run_time_s, and the other load shape's fields,
// which mean nothing under this one, zero.
func (p Params) CheckSettled() error {
	if want := p.maxRunTimeS(); p.MaxRunTimeS != want {
		return usagef("max_run_time_s %v: the plan records --ready-timeout + --duration + --warmup-time + 2m, %v s", p.MaxRunTimeS, want)
	}
	for _, z := range p.shapeFlags() {
		if z.load != p.Load && z.v != 0 {
			return usagef("%s %v: a parameter of --load %s only, 0 under --load %s", z.field, z.v, z.load, p.Load)
		}
	}
	return nil
}

// relaxations are what the service was allowed beyond the kit's hardening, each named
// as the manifest records it and as the command line that grants it (its flags).
func (h Hardening) relaxations() (named, flags []string) {
	grant := func(on bool, what, flag string) {
		if on {
			named, flags = append(named, what+" ("+strings.Fields(flag)[0]+")"), append(flags, flag)
		}
	}
	grant(!h.ReadOnlyRoot, "writable root file system", "--writable-root")
	grant(h.User == "", "the image's own user", "--keep-user")
	for _, c := range h.CapAdd {
		grant(true, "capability "+c, "--cap-add "+c)
	}
	grant(!h.NoNewPrivileges, "new privileges", "--new-privileges")
	return named, flags
}

// addConfig reads one use of --config, NAME:ENV=VALUE[,ENV=VALUE], its commas its own;
// Check holds each to its rules.
func addConfig(list []Config, s string) []Config {
	name, assigns, _ := strings.Cut(s, ":")
	cfg := Config{Name: strings.TrimSpace(name)}
	if strings.TrimSpace(assigns) != "" {
		cfg.Env = strings.Split(assigns, ",")
	}
	return append(list, cfg)
}

// addCaps reads one use of --cap-add, one or more capabilities, comma-separated, in the
// kernel's spelling (net_bind_service and CAP_NET_BIND_SERVICE are NET_BIND_SERVICE),
// each once.
func addCaps(list []string, s string) []string {
	for _, cp := range strings.Split(s, ",") {
		cp = strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(cp)), "CAP_")
		if !slices.Contains(list, cp) {
			list = append(list, cp)
		}
	}
	return list
}

// CPULimits are the containers' CPU limits (experiment.CPULimited).
func (p Params) CPULimits() []experiment.CPULimit { return p.Limits.CPULimits() }
