package qps

import (
	"flag"
	"slices"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
)

// DefaultParams are qps's parameters before any flag: the article's load (autocannon
// -c 10 -d 5 -p 1) on its Node.js API, every configuration.
func DefaultParams() *Params {
	return &Params{APIs: []string{NodeAPI}, Configs: slices.Clone(Configs), Connections: 10, Pipelining: 1, DurationS: 5, WarmupS: 1,
		EngineCPU: true, Wrk: true, Arrivals: contract.ArrivalsConstant, MaxSendLagP99Ms: DefaultMaxSendLagP99Ms,
		Limits: Limits{APICPUs: 1, APIMemoryBytes: 512 << 20, LoadgenCPUs: 1, LoadgenMemoryBytes: 256 << 20, PidsLimit: 256}}
}

// flags are qps's flags, each bound to the field the manifest records it in, with its
// rule, in the usage's order.
func (p *Params) flags() experiment.Flags {
	return slices.Concat(experiment.Flags{
		{Bind: func(fs *flag.FlagSet) {
			fs.Var(experiment.OneOrAll(&p.APIs, APIs), "api", "API implementation: node (Express and morgan, as published), go, python or all")
		}, Check: func() error { return experiment.CheckList("api", p.APIs, APIs) }},
		experiment.NamesFlag(&p.Configs, "configs", Configs, "access-log configurations, comma-separated (none, console, file, console+file)"),
		experiment.IntFlag(&p.Connections, "connections", 1, experiment.MaxConnections, "keep-alive connections of the load: the closed loop's, or the open loop's, each with its own share of the schedule as wrk2 does (a request whose connection is busy leaves when the previous one ends)"),
		experiment.IntFlag(&p.Pipelining, "pipelining", 1, experiment.MaxPipelining, "requests in flight per connection").Tracking(&p.given.pipelining),
		experiment.SecondsFlag(&p.DurationS, "duration", 0.5, 3600, "measured load per run"),
		experiment.SecondsFlag(&p.WarmupS, "warmup-time", 0, 600, "load before each run's measurement, not counted"),
		experiment.LogDriverFlags(&p.LogDriver, &p.LogOpts),
		experiment.BoolFlag(&p.EngineCPU, "engine-cpu", "measure the engine's own CPU (Docker: dockerd, containerd, shims; Podman: conmon and the service) with a helper container in the host's PID namespace, read-only, no capabilities (--engine-cpu=false: not measured)"),
		// wrk pipelines only through a Lua script: with more than one request in flight
		// per connection its load would not be the kit's. Left on by default, it is
		// turned off (settled); asked for, it is refused.
		experiment.Flag{Bind: func(fs *flag.FlagSet) {
			fs.BoolVar(&p.Wrk, "wrk", p.Wrk, "in every run, right before the kit's measured load in a condition's odd runs and right after it in its even ones, load the same API from the pod's network namespace with Debian's wrk (same connections, duration and CPU) and record whether the two rates agree within 5%: a rate wrk does not confirm stays data and is marked NOT CONFIRMED (--wrk=false: not checked)")
		}, Check: func() error {
			if p.wrkGiven && p.Wrk && p.Pipelining > 1 {
				return experiment.Usagef("--wrk: wrk sends one request at a time per connection; with --pipelining %d it would not offer the kit's load (--wrk=false)", p.Pipelining)
			}
			return nil
		}}.Tracking(&p.wrkGiven),
	}, p.Limits.Flags(""), experiment.Flags{
		{Bind: p.bindCapacity, Check: func() error { return p.checkCapacity() }},
	})
}

// Bind declares qps's flags.
func (p *Params) Bind(fs *flag.FlagSet) { p.flags().Bind(fs) }

// Check refuses parameters no plan of qps can have, flag or manifest alike, in the
// order of the flags' usage.
func (p Params) Check() error { return p.flags().Check() }

// settled are the parameters a plan records: what follows from its flags filled in.
func (p Params) settled() Params {
	p.APIs, p.Configs = slices.Clone(p.APIs), slices.Clone(p.Configs)
	p.MaxRunTimeS = p.maxRunTimeS()
	p.NonBlocking = experiment.IsNonBlocking(p.LogOpts)
	if p.EngineCPU {
		p.EngineCPUHow = EngineHelper
	}
	if p.Wrk && p.Pipelining > 1 {
		p.Wrk = false
	}
	p.settleCapacity()
	return p
}

// maxRunTimeS is the longest a run may take, as the plan records it: its warm-up and
// load, and two minutes for the rest.
func (p Params) maxRunTimeS() float64 { return p.DurationS + p.WarmupS + 120 }

// CheckSettled refuses a manifest whose max_run_time_s is not the one its plan
// recorded (experiment.Settled): no flag sets it.
func (p Params) CheckSettled() error {
	if want := p.maxRunTimeS(); p.MaxRunTimeS != want {
		return experiment.Usagef("max_run_time_s %v: the plan records --duration + --warmup-time + 2m, %v s", p.MaxRunTimeS, want)
	}
	if !p.Capacity.On() && (p.MaxSendLagP99Ms != 0 || p.Arrivals != "") {
		return experiment.Usagef("max_send_lag_p99_ms %v, arrivals %q: parameters of --capacity only, empty without a search", p.MaxSendLagP99Ms, p.Arrivals)
	}
	if p.Capacity.On() && p.Wrk {
		return experiment.Usagef("wrk true: a search's steps are open-loop, which wrk does not offer")
	}
	return nil
}

// CPULimits are the containers' CPU limits (experiment.CPULimited).
func (p Params) CPULimits() []experiment.CPULimit { return p.Limits.CPULimits() }
