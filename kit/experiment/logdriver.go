package experiment

import (
	"maps"
	"slices"
	"strings"

	"github.com/logbench/logbench/kit/contract"
)

// LogDriver is the engine's logging driver a container's stdout goes through, as an
// experiment's --log-driver and --log-opt chose it: "" is the engine's own default,
// settled once the engine is known (DefaultLogDriver).
type LogDriver struct {
	Driver      string
	Opts        map[string]string
	NonBlocking bool // mode=non-blocking: the driver may drop lines
}

// LogDriverUsage is --log-driver's usage, the same in every experiment that has it.
const LogDriverUsage = "the API container's logging driver (json-file, local, k8s-file, journald, none, ...; default: the engine's own default, or k8s-file on Podman, which names none)"

// LogOptUsage is --log-opt's.
const LogOptUsage = "a logging driver option key=value (mode=non-blocking, max-buffer-size=1m)"

// ParseLogDriver reads --log-driver and --log-opt, refusing what no engine takes.
func ParseLogDriver(fs *Flags) (LogDriver, error) {
	l := LogDriver{Driver: strings.TrimSpace(fs.String("log-driver"))}
	if l.Driver == "" && fs.IsSet("log-driver") {
		return l, Usagef("--log-driver: want a driver name, such as json-file")
	}
	for _, kv := range fs.StringSlice("log-opt") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return l, Usagef("--log-opt %q: want key=value, such as mode=non-blocking", kv)
		}
		if l.Opts == nil {
			l.Opts = map[string]string{}
		}
		l.Opts[k] = v
	}
	if m, ok := l.Opts["mode"]; ok && m != "blocking" && m != "non-blocking" {
		return l, Usagef("--log-opt mode=%s: want blocking or non-blocking", m)
	}
	l.NonBlocking = l.Opts["mode"] == "non-blocking"
	if l.Driver == "none" && len(l.Opts) > 0 {
		return l, Usagef("--log-opt: the none log driver takes no options")
	}
	return l, nil
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

// DefaultLogDriver is the engine's own default logging driver, and why: the one it
// names, or k8s-file on Podman, which names none (its file driver, and its default
// without systemd's journal), or json-file, the Engine API's.
func DefaultLogDriver(e contract.EngineFacts) (driver, why string) {
	switch {
	case e.DefaultLogDriver != "":
		return e.DefaultLogDriver, "the engine's default (Info.LoggingDriver)"
	case e.Kind == contract.EnginePodman && (len(e.LogDrivers) == 0 || slices.Contains(e.LogDrivers, "k8s-file")):
		return "k8s-file", "the engine (Podman) names no default: k8s-file, its file driver and its default without systemd's journal"
	}
	return "json-file", "the engine names no default: json-file, the Engine API's"
}
