package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/docker/go-units"
	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/host/bench"
	"github.com/logbench/logbench/kit/incontainer/fiforeader"
	"github.com/logbench/logbench/kit/incontainer/logmode"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// Flags shared by every command that performs runs; defaultAPI is the command's own.
func runFlags(defaultAPI string) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "api", Value: defaultAPI, Usage: "API implementation: go (net/http), python (the article's asyncio API) or all"},
		&cli.Float64Flag{Name: "rate", Value: 20, Usage: "offered load, requests per second"},
		&cli.DurationFlag{Name: "duration", Value: 8 * time.Second, Usage: "measured load per run"},
		&cli.IntFlag{Name: "warmup", Value: 2, Usage: "warm-up requests before each run's measurement"},
		&cli.Float64Flag{Name: "api-cpus", Value: 0.25, Usage: "CPU limit of the API container"},
		&cli.StringFlag{Name: "api-memory", Value: "128MiB", Usage: "memory limit of the API container (no swap)"},
		&cli.Float64Flag{Name: "reader-cpus", Value: 0.25, Usage: "CPU limit of the reader container"},
		&cli.StringFlag{Name: "reader-memory", Value: "256MiB", Usage: "memory limit of the reader container (no swap)"},
		&cli.Float64Flag{Name: "loadgen-cpus", Value: 0.25, Usage: "CPU limit of the load generator container"},
		&cli.StringFlag{Name: "loadgen-memory", Value: "256MiB", Usage: "memory limit of the load generator container (no swap)"},
		&cli.Int64Flag{Name: "pids-limit", Value: 128, Usage: "process/thread limit of each container"},
		&cli.DurationFlag{Name: "max-run-time", Value: 2 * time.Minute, Usage: "stop condition: longest a run may take"},
		&cli.StringFlag{Name: "max-log-bytes", Value: "256MiB", Usage: "stop condition: most log bytes a run may generate"},
		&cli.DurationFlag{Name: "max-send-lag", Value: time.Millisecond, Usage: "flag a run as not trustworthy when its send-lag p99 exceeds this"},
		&cli.StringFlag{Name: "platform", Usage: "image platform, linux/amd64 or linux/arm64 (default: the engine's)"},
		&cli.StringFlag{Name: "out", Usage: "bundle folder, which must not exist (default: results/<time>-<host>)"},
		&cli.StringFlag{Name: "source", Usage: "the kit's source tree (default: found from the working directory)"},
	}
}

// settingsFrom validates the shared flags, all before anything starts.
func settingsFrom(c *cli.Context) (bench.Settings, bundle.Params, error) {
	var s bench.Settings
	p := c.Duration
	s.Protocol = contract.RunParams{
		Rate:           c.Float64("rate"),
		Duration:       p("duration"),
		WarmupCount:    c.Int("warmup"),
		RequestTimeout: p("max-run-time"),
		MaxRunTime:     p("max-run-time"),
	}
	apis, err := bench.ParseAPIs(c.String("api"))
	if err != nil {
		return s, bundle.Params{}, usagef("--api: %v", err)
	}
	switch {
	case !(s.Protocol.Rate > 0 && s.Protocol.Rate <= 10000):
		return s, bundle.Params{}, usagef("--rate %v: want more than 0 and at most 10000 requests per second", s.Protocol.Rate)
	case s.Protocol.Duration <= 0 || s.Protocol.Duration > time.Hour:
		return s, bundle.Params{}, usagef("--duration %v: want more than 0 and at most 1h", s.Protocol.Duration)
	case s.Protocol.Count() < 1:
		return s, bundle.Params{}, usagef("--rate x --duration gives no request")
	case s.Protocol.WarmupCount < 0 || s.Protocol.WarmupCount > 1000:
		return s, bundle.Params{}, usagef("--warmup %d: want 0 to 1000", s.Protocol.WarmupCount)
	case s.Protocol.MaxRunTime < s.Protocol.Duration+5*time.Second:
		return s, bundle.Params{}, usagef("--max-run-time %v: want at least --duration + 5s", s.Protocol.MaxRunTime)
	}
	l := &s.Limits
	if l.APICPUs, err = cpus(c, "api-cpus"); err != nil {
		return s, bundle.Params{}, err
	}
	if l.ReaderCPUs, err = cpus(c, "reader-cpus"); err != nil {
		return s, bundle.Params{}, err
	}
	if l.LoadgenCPUs, err = cpus(c, "loadgen-cpus"); err != nil {
		return s, bundle.Params{}, err
	}
	for flag, dst := range map[string]*int64{"api-memory": &l.APIMemoryBytes, "reader-memory": &l.ReaderMemoryBytes, "loadgen-memory": &l.LoadgenMemoryBytes} {
		if *dst, err = bytesFlag(c, flag, 6<<20); err != nil { // the engine refuses less
			return s, bundle.Params{}, err
		}
	}
	if l.PidsLimit = c.Int64("pids-limit"); l.PidsLimit < 16 {
		return s, bundle.Params{}, usagef("--pids-limit %d: want at least 16", l.PidsLimit)
	}
	if s.MaxLogBytes, err = bytesFlag(c, "max-log-bytes", 1<<20); err != nil {
		return s, bundle.Params{}, err
	}
	if s.MaxSendLagP99 = c.Duration("max-send-lag"); s.MaxSendLagP99 <= 0 {
		return s, bundle.Params{}, usagef("--max-send-lag %v: want more than 0", s.MaxSendLagP99)
	}
	params := bundle.Params{
		APIs:           apis,
		Rounds:         1,
		RateRPS:        s.Protocol.Rate,
		DurationS:      s.Protocol.Duration.Seconds(),
		WarmupRequests: s.Protocol.WarmupCount,
		ReaderBounds:   bench.ReaderBounds(),
		ReadBytes:      fiforeader.ReadBytes,
		QueueCapacity:  logmode.QueueCapacity,
		MaxRunTimeS:    s.Protocol.MaxRunTime.Seconds(),
		MaxLogBytes:    s.MaxLogBytes,
		// The bound is written to the manifest and read back by --resume and verify.
		MaxSendLagP99Ms: float64(s.MaxSendLagP99) / 1e6,
		Limits:          s.Limits,
	}
	// The run settings follow from the recorded parameters, so that what runs is what
	// the manifest says ran.
	return settingsOf(params), params, nil
}

// settingsOf turns a bundle's recorded parameters back into run settings, for resuming.
func settingsOf(p bundle.Params) bench.Settings {
	maxRun := time.Duration(p.MaxRunTimeS * float64(time.Second))
	return bench.Settings{
		Protocol: contract.RunParams{
			Rate:           p.RateRPS,
			Duration:       time.Duration(p.DurationS * float64(time.Second)),
			WarmupCount:    p.WarmupRequests,
			RequestTimeout: maxRun,
			MaxRunTime:     maxRun,
		},
		Limits:        p.Limits,
		MaxLogBytes:   p.MaxLogBytes,
		MaxSendLagP99: time.Duration(p.MaxSendLagP99Ms * 1e6),
	}
}

func cpus(c *cli.Context, flag string) (float64, error) {
	v := c.Float64(flag)
	if !(v >= 0.01 && v <= 1024) {
		return 0, usagef("--%s %v: want 0.01 to 1024 CPUs", flag, v)
	}
	return v, nil
}

func bytesFlag(c *cli.Context, flag string, least int64) (int64, error) {
	v, err := units.RAMInBytes(c.String(flag))
	if err != nil || v < least {
		return 0, usagef("--%s %q: want a size of at least %s, such as 128MiB", flag, c.String(flag), units.BytesSize(float64(least)))
	}
	return v, nil
}

// platformFlag validates --platform; empty means the engine's.
func platformFlag(c *cli.Context, enginePlatform string) (string, error) {
	p := c.String("platform")
	if p == "" {
		p = enginePlatform
	}
	if p != "linux/amd64" && p != "linux/arm64" {
		return "", usagef("--platform %q: want linux/amd64 or linux/arm64", p)
	}
	return p, nil
}

// outDir validates --out, or makes a fresh name under results/.
func outDir(c *cli.Context, source, host string, now time.Time) (string, error) {
	dir := c.String("out")
	if dir == "" {
		dir = filepath.Join(source, "results", now.UTC().Format("20060102T150405Z")+"-"+safeName(host))
	}
	if _, err := os.Stat(dir); err == nil {
		return "", usagef("--out %s: already exists; choose a new folder", dir)
	}
	return dir, nil
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, s)
}

// findSource walks up from the working directory to the kit's go.mod.
func findSource(c *cli.Context) (string, error) {
	if dir := c.String("source"); dir != "" {
		return dir, checkSource(dir)
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if checkSource(dir) == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", usagef("the kit's source tree was not found above the working directory: run logbench from its checkout, or pass --source")
		}
		dir = parent
	}
}

func checkSource(dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || !strings.Contains(string(b), "module github.com/logbench/logbench\n") {
		return usagef("--source %s: not the logbench source tree", dir)
	}
	return nil
}

func formatBytes(n int64) string { return fmt.Sprintf("%s (%d bytes)", units.BytesSize(float64(n)), n) }
