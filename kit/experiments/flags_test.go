package experiments

import (
	"encoding/json"
	"flag"
	"slices"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// other are a valid value other than the default for every flag of every experiment:
// a flag without one here fails TestEveryFlagChangesThePlan, so that no experiment can
// declare a flag that its plan ignores.
var other = map[string]map[string]string{
	"fifo-stall": {
		"modes": "json-sync", "readers": "slow", "calibrate": "false", "retries": "0", "api": "go", "rate": "10",
		"duration": "4s", "warmup-requests": "5", "api-cpus": "0.5", "api-memory": "256MiB", "reader-cpus": "0.5",
		"reader-memory": "128MiB", "loadgen-cpus": "0.5", "loadgen-memory": "128MiB", "pids-limit": "64",
		"max-run-time": "3m", "max-log-bytes": "64MiB", "max-send-lag": "2ms", "client-topology": "split",
	},
	"qps": {
		"api": "go", "configs": "none,console", "connections": "20", "pipelining": "2", "duration": "3s",
		"warmup-time": "2s", "log-driver": "local", "log-opt": "mode=non-blocking", "engine-cpu": "false", "wrk": "false",
		"api-cpus": "2", "api-memory": "256MiB", "loadgen-cpus": "0.5", "loadgen-memory": "128MiB", "pids-limit": "64",
		"arrivals": "poisson", "capacity": "true", "slo-p99": "20ms", "capacity-start": "200", "capacity-resolution": "5%", "capacity-max-steps": "6",
		"max-send-lag": "2ms", "vegeta": "true", "retries": "3",
	},
	"your-api": {
		"image": "myorg/api:2", "port": "9090", "path": "/health", "config": "file:LOG_TARGET=file", "config-cmd": "none:--quiet",
		"baseline": "console", "log-file": "/var/log/app", "load": "open", "connections": "20", "pipelining": "2", "rate": "50",
		"max-send-lag": "2ms", "retries": "0", "duration": "3s", "warmup-time": "2s", "ready-timeout": "10s", "log-driver": "local",
		"log-opt": "mode=non-blocking", "api-cpus": "2", "api-memory": "256MiB", "loadgen-cpus": "0.5", "loadgen-memory": "128MiB",
		"pids-limit": "64", "writable-root": "true", "keep-user": "true", "cap-add": "DAC_OVERRIDE", "new-privileges": "true",
		"arrivals": "poisson", "capacity": "true", "slo-p99": "20ms", "capacity-start": "200", "capacity-resolution": "5%", "capacity-max-steps": "6",
	},
	"log-driver": {
		"apis": "python,node", "drivers": "local,syslog-udp", "driver-modes": "non-blocking", "buffer-sizes": "64k", "consumers": "slow", "receivers": "syslog-ng",
		"rates": "200,400", "consumer-rate": "32k", "line-bytes": "4096", "queue-messages": "50", "duration": "4s", "quiet": "1s", "request-timeout": "10s",
		"api-cpus": "1", "api-memory": "256MiB", "consumer-cpus": "0.25", "consumer-memory": "64MiB", "loadgen-cpus": "1",
		"loadgen-memory": "256MiB", "pids-limit": "64",
	},
	"line-cost": {
		"languages": "go", "ways": "format,fsync", "lines": "5000", "fsync-lines": "2000", "trials": "3",
		"warmup-trials": "2", "line-rate": "500", "queue-full": "drop", "queue-size": "64", "volume": "mine",
		"cpus": "0.5", "memory": "256MiB", "libraries": "zap,structlog,winston", "line": "json",
	},
}

// required are the flags an experiment cannot plan without, given in every plan here.
var required = map[string][]string{"your-api": {"--image", "myorg/api:1.4", "--port", "8080", "--config", "none:LOG_LEVEL=off", "--config", "console:LOG_TARGET=stdout"}}

// alongside are the flags a flag acts only beside, given with it and with its default.
var alongside = map[string]map[string][]string{"your-api": {
	"rate": {"--load=open"}, "max-send-lag": {"--load=open"}, "retries": {"--load=open"},
	"arrivals": {"--load=open"}, "slo-p99": {"--capacity"}, "capacity-start": {"--capacity"}, "capacity-resolution": {"--capacity"}, "capacity-max-steps": {"--capacity"},
}, "qps": {
	"arrivals": {"--capacity"}, "max-send-lag": {"--capacity"}, "slo-p99": {"--capacity"}, "capacity-start": {"--capacity"}, "capacity-resolution": {"--capacity"},
	"capacity-max-steps": {"--capacity"}, "vegeta": {"--capacity"}, "retries": {"--capacity"},
}}

// fingerprint is everything a plan decides: its exported settings, conditions, rounds,
// images, every pod and the manifest it starts its bundle with.
func fingerprint(t *testing.T, p experiment.Plan) string {
	t.Helper()
	ids := map[string]string{}
	for _, name := range p.Images() {
		ids[name] = "id-of-" + name
	}
	var pods []experiment.PodSpec
	for _, c := range p.Conditions() {
		pods = append(pods, p.Pod(c, "run", ids))
	}
	files, err := p.Bundle().Files()
	if err != nil {
		t.Fatal(err)
	}
	// A flag whose effect the plan can only say (what it leaves out) changes its notes.
	var notes []string
	if n, ok := p.(experiment.Noter); ok {
		notes = n.Notes()
	}
	body, err := json.Marshal(struct {
		Plan       experiment.Plan
		Notes      []string
		Conditions []experiment.Condition
		Rounds     int
		Images     []string
		Pods       []experiment.PodSpec
		Manifest   string
	}{p, notes, p.Conditions(), p.Rounds(), p.Images(), pods, string(files[bundle.ManifestFile])})
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}

// flagsOf are e's flags, bound to fresh parameters.
func flagsOf(e experiment.Experiment) *flag.FlagSet {
	return experiment.FlagSet(e.Info().Name, e.Params())
}

// planWith is the fingerprint of e's plan with args on its own flags.
func planWith(t *testing.T, e experiment.Experiment, args ...string) string {
	t.Helper()
	return fingerprint(t, planOf(t, e, 2, args...))
}

// planOf plans e over rounds with args on its own flags (and those it requires), as
// reproduce would after parsing them.
func planOf(t *testing.T, e experiment.Experiment, rounds int, args ...string) experiment.Plan {
	t.Helper()
	params := e.Params()
	if err := experiment.FlagSet(e.Info().Name, params).Parse(append(slices.Clone(required[e.Info().Name]), args...)); err != nil {
		t.Fatalf("%s %v: %v", e.Info().Name, args, err)
	}
	p, err := e.Plan(params, rounds)
	if err != nil {
		t.Fatalf("%s %v: %v", e.Info().Name, args, err)
	}
	return p
}

// TestEveryDefaultShownIsTheOneUsed: each flag given its default (as --help shows it)
// plans exactly what the flag left out plans.
func TestEveryDefaultShownIsTheOneUsed(t *testing.T) {
	for _, e := range All {
		flagsOf(e).VisitAll(func(f *flag.Flag) {
			if f.DefValue == "" || slices.Contains(required[e.Info().Name], "--"+f.Name) {
				return // nothing shown, or a value always given: no default is used
			}
			with := alongside[e.Info().Name][f.Name]
			if have := planWith(t, e, append(slices.Clone(with), "--"+f.Name+"="+f.DefValue)...); have != planWith(t, e, with...) {
				t.Errorf("%s --%s=%s (the default shown) plans otherwise than no --%s", e.Info().Name, f.Name, f.DefValue, f.Name)
			}
		})
	}
}

// TestEveryFlagChangesThePlan: no experiment declares a flag its plan ignores.
func TestEveryFlagChangesThePlan(t *testing.T) {
	for _, e := range All {
		flagsOf(e).VisitAll(func(f *flag.Flag) {
			v, ok := other[e.Info().Name][f.Name]
			if !ok {
				t.Errorf("%s --%s: no other value to try in this test's table", e.Info().Name, f.Name)
				return
			}
			with := alongside[e.Info().Name][f.Name]
			if planWith(t, e, append(slices.Clone(with), "--"+f.Name+"="+v)...) == planWith(t, e, with...) {
				t.Errorf("%s --%s=%s plans the same as its default %q: the flag does nothing", e.Info().Name, f.Name, v, f.DefValue)
			}
		})
	}
}

// TestEveryFlagSaysWhatItIs: a usage for every flag, and a unit where it takes a number
// or a size.
func TestEveryFlagSaysWhatItIs(t *testing.T) {
	for _, e := range All {
		flagsOf(e).VisitAll(func(f *flag.Flag) {
			if len(f.Usage) < 12 {
				t.Errorf("%s --%s: usage %q says too little", e.Info().Name, f.Name, f.Usage)
			}
		})
	}
}

// TestSharedNamesMeanOneThing: a flag two experiments share has one usage in both, but
// for the values they offer (their defaults may differ; their meaning and unit may not).
func TestSharedNamesMeanOneThing(t *testing.T) {
	usage := map[string]map[string]string{} // name -> experiment -> usage
	for _, e := range All {
		flagsOf(e).VisitAll(func(f *flag.Flag) {
			if usage[f.Name] == nil {
				usage[f.Name] = map[string]string{}
			}
			usage[f.Name][e.Info().Name] = f.Usage
		})
	}
	// The values an API flag offers are the experiment's own; what precedes them is not.
	// A qualifier in parentheses (its range, when it applies) is the experiment's too.
	stem := func(u string) string {
		s, _, _ := strings.Cut(u, ":")
		s, _, _ = strings.Cut(s, " (")
		return s
	}
	for name, by := range usage {
		var stems []string
		for _, u := range by {
			if !slices.Contains(stems, stem(u)) {
				stems = append(stems, stem(u))
			}
		}
		if len(stems) > 1 {
			t.Errorf("--%s means different things: %q", name, by)
		}
	}
}
