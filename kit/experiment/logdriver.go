package experiment

import (
	"flag"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/logbench/logbench/kit/contract"
)

// LogDriverUsage is --log-driver's usage, the same in every experiment that has it.
const LogDriverUsage = "the API container's logging driver (json-file, local, k8s-file, journald, none, ...; default: the engine's own default, or k8s-file on Podman, which names none)"

// LogOptUsage is --log-opt's.
const LogOptUsage = "a logging driver option key=value (mode=non-blocking, max-buffer-size=1m)"

// BindLogDriver binds --log-driver to driver and --log-opt (repeatable, key=value) to
// opts: the fields of an experiment's parameters that record them.
func BindLogDriver(fs *flag.FlagSet, driver *string, opts *map[string]string) {
	fs.Var(logDriverValue{driver}, "log-driver", LogDriverUsage)
	fs.Var(logOptsValue{opts}, "log-opt", LogOptUsage)
}

// CheckLogDriver refuses what no engine takes: an option without a key, a mode other
// than blocking or non-blocking, options for the none driver, more than MaxListValues.
func CheckLogDriver(driver string, opts map[string]string) error {
	if len(opts) > MaxListValues {
		return Usagef("--log-opt: %d options, at most %d", len(opts), MaxListValues)
	}
	// In key order, so that the same options say the same problem first.
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		if k == "" {
			return Usagef("--log-opt %q: want key=value, such as mode=non-blocking", "="+opts[k])
		}
	}
	if m, ok := opts["mode"]; ok && m != "blocking" && m != "non-blocking" {
		return Usagef("--log-opt mode=%s: want blocking or non-blocking", m)
	}
	if driver == "none" && len(opts) > 0 {
		return Usagef("--log-opt: the none log driver takes no options")
	}
	return nil
}

// IsNonBlocking says whether the options have the driver drop lines rather than block
// (mode=non-blocking).
func IsNonBlocking(opts map[string]string) bool { return opts["mode"] == "non-blocking" }

type logDriverValue struct{ v *string }

func (l logDriverValue) String() string {
	if l.v == nil {
		return ""
	}
	return *l.v
}
func (l logDriverValue) Set(s string) error {
	if s = strings.TrimSpace(s); s == "" {
		return fmt.Errorf("want a driver name, such as json-file")
	}
	*l.v = s
	return nil
}

type logOptsValue struct{ v *map[string]string }

func (l logOptsValue) IsRepeatable() bool { return true }
func (l logOptsValue) String() string {
	if l.v == nil {
		return ""
	}
	return FormatLogOpts(*l.v)
}
func (l logOptsValue) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("want key=value, such as mode=non-blocking")
	}
	if *l.v == nil {
		*l.v = map[string]string{}
	}
	(*l.v)[k] = v
	return nil
}

// FormatLogOpts is log options as one --log-opt value spells them (key=value,...),
// sorted by key so that a message says them the same way every time.
func FormatLogOpts(opts map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		parts = append(parts, k+"="+opts[k])
	}
	return strings.Join(parts, ",")
}

// DefaultLogDriver is the engine's own default logging driver, and why: the CRI log on
// Kubernetes, the one the engine names, or k8s-file on Podman, which names none (its
// file driver, and its default without systemd's journal), or json-file, the Engine
// API's.
func DefaultLogDriver(e contract.EngineFacts) (driver, why string) {
	switch {
	case e.Kind == contract.EngineKubernetes:
		return contract.LogDriverCRI, "the node's one console path on Kubernetes: the container runtime's CRI log file, read through the Pod log API"
	case e.DefaultLogDriver != "":
		return e.DefaultLogDriver, "the engine's default (Info.LoggingDriver)"
	case e.Kind == contract.EnginePodman && (len(e.LogDrivers) == 0 || slices.Contains(e.LogDrivers, "k8s-file")):
		return "k8s-file", "the engine (Podman) names no default: k8s-file, its file driver and its default without systemd's journal"
	}
	return "json-file", "the engine names no default: json-file, the Engine API's"
}
