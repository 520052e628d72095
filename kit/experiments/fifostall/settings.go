package fifostall

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/experiments/fifostall/schema"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
)

// The API implementations: Go (net/http) and the article's Python 3.11 asyncio API.
const (
	GoAPI     = "go"
	PythonAPI = "python"
)

// APIs lists the implementations.
var APIs = []string{GoAPI, PythonAPI}

// ImageOf names the image that serves api.
func ImageOf(api string) string {
	if api == PythonAPI {
		return "api-python"
	}
	return "api"
}

// ParseAPIs turns "go", "python" or "all" into implementations.
func ParseAPIs(s string) ([]string, error) {
	switch s {
	case "all":
		return APIs, nil
	case GoAPI, PythonAPI:
		return []string{s}, nil
	}
	return nil, fmt.Errorf("unknown API %q (known: go, python, all)", s)
}

// The two readers of the experiment.
const (
	FastReader = "fast"
	SlowReader = "slow"
)

// Readers lists the reader kinds in published order.
var Readers = []string{FastReader, SlowReader}

// ReaderRate is the pacing bound of a reader kind in bytes per second (0: none).
func ReaderRate(kind string) (int64, error) {
	switch kind {
	case FastReader:
		return 0, nil
	case SlowReader:
		return contract.SlowReaderBytesPerSec, nil
	}
	return 0, fmt.Errorf("unknown reader %q (known: %s)", kind, strings.Join(Readers, ", "))
}

// ReaderBounds maps every reader kind to its bound, for the manifest.
func ReaderBounds() map[string]int64 {
	bounds := map[string]int64{}
	for _, kind := range Readers {
		bounds[kind], _ = ReaderRate(kind)
	}
	return bounds
}

// Settings are shared by every run. They follow from the parameters a manifest records
// (SettingsOf), so that what runs is what the manifest says ran.
type Settings struct {
	Protocol    contract.RunParams
	Limits      schema.Limits
	MaxLogBytes int64
	// MaxSendLagP99 flags runs whose load generator was later than this against its
	// schedule (p99).
	MaxSendLagP99 time.Duration
	// ClientTopology is SharedClient or SplitClient.
	ClientTopology string
	// ReaderBounds are each reader's bound in bytes per second (0: none).
	ReaderBounds map[string]int64
}

// SettingsOf turns recorded parameters into run settings.
func SettingsOf(p schema.Params) Settings {
	maxRun := time.Duration(p.MaxRunTimeS * float64(time.Second))
	s := Settings{
		Protocol: contract.RunParams{
			Rate:           p.RateRPS,
			Duration:       time.Duration(p.DurationS * float64(time.Second)),
			WarmupCount:    p.WarmupRequests,
			RequestTimeout: maxRun,
			MaxRunTime:     maxRun,
		},
		Limits:         p.Limits,
		MaxLogBytes:    p.MaxLogBytes,
		MaxSendLagP99:  time.Duration(p.MaxSendLagP99Ms * 1e6),
		ClientTopology: TopologyOf(p),
		ReaderBounds:   p.ReaderBounds,
	}
	if s.ReaderBounds == nil { // parameters made by hand, not read from a manifest
		s.ReaderBounds = ReaderBounds()
	}
	return s
}

var usagef = experiment.Usagef

// DeclareRunFlags declares the flags of every command that performs runs of this
// experiment; defaultAPI is the command's own.
func DeclareRunFlags(fs *flag.FlagSet, defaultAPI string) {
	fs.String("api", defaultAPI, "API implementation: go (net/http), python (the article's asyncio API) or all")
	fs.Float64("rate", 20, "offered load, requests per second")
	fs.Duration("duration", 8*time.Second, "measured load per run")
	fs.Int("warmup-requests", 2, "warm-up requests before each run's measurement, not measured")
	fs.Float64("api-cpus", 0.25, "CPU limit of the API container, in CPUs (0.01 to 1024)")
	fs.String("api-memory", "128MiB", "memory limit of the API container (no swap)")
	fs.Float64("reader-cpus", 0.25, "CPU limit of the reader container, in CPUs (0.01 to 1024)")
	fs.String("reader-memory", "256MiB", "memory limit of the reader container (no swap)")
	fs.Float64("loadgen-cpus", 0.25, "CPU limit of the load generator container, in CPUs (0.01 to 1024)")
	fs.String("loadgen-memory", "256MiB", "memory limit of the load generator container (no swap)")
	fs.Int64("pids-limit", 128, "process/thread limit of each container")
	fs.Duration("max-run-time", 2*time.Minute, "stop condition: longest a run may take")
	fs.String("max-log-bytes", "256MiB", "stop condition: most log bytes a run may generate")
	fs.Duration("max-send-lag", time.Millisecond, "flag a run as not trustworthy when its send-lag p99 exceeds this (at most 10ms)")
	fs.String("client-topology", SharedClient, "shared: the reader and the load generator in one client container with one budget (--loadgen-cpus, --loadgen-memory), as published; split: a container each, with its own limits")
}

// The client topologies: where the reader and the load generator run.
const (
	// SharedClient is the published setup: both programs in one client container,
	// two processes under one CPU and memory budget (the loadgen image runs the reader
	// as its child).
	SharedClient = "shared"
	// SplitClient gives each its own container and limits.
	SplitClient = "split"
)

// TopologyOf reads a manifest's client topology; a bundle written before the kit
// offered the shared one has none, and ran split.
func TopologyOf(p schema.Params) string {
	if p.ClientTopology == "" {
		return SplitClient
	}
	return p.ClientTopology
}

// ParamsFrom validates the run flags, all before anything starts, into the parameters
// the manifest records; SettingsOf gives the settings that run.
func ParamsFrom(c *experiment.Flags) (schema.Params, error) {
	d := c.Duration
	protocol := contract.RunParams{
		Rate:        c.Float64("rate"),
		Duration:    d("duration"),
		WarmupCount: c.Int("warmup-requests"),
		MaxRunTime:  d("max-run-time"),
	}
	apis, err := ParseAPIs(c.String("api"))
	if err != nil {
		return schema.Params{}, usagef("--api: %v", err)
	}
	switch {
	case !(protocol.Rate > 0 && protocol.Rate <= 10000):
		return schema.Params{}, usagef("--rate %v: want more than 0 and at most 10000 requests per second", protocol.Rate)
	case protocol.Duration <= 0 || protocol.Duration > time.Hour:
		return schema.Params{}, usagef("--duration %v: want more than 0 and at most 1h", protocol.Duration)
	case protocol.Count() < 1:
		return schema.Params{}, usagef("--rate x --duration gives no request")
	case protocol.WarmupCount < 0 || protocol.WarmupCount > 1000:
		return schema.Params{}, usagef("--warmup-requests %d: want 0 to 1000", protocol.WarmupCount)
	case protocol.MaxRunTime < protocol.Duration+5*time.Second:
		return schema.Params{}, usagef("--max-run-time %v: want at least --duration + 5s", protocol.MaxRunTime)
	}
	var l schema.Limits
	if l.APICPUs, err = c.CPUs("api-cpus"); err != nil {
		return schema.Params{}, err
	}
	if l.ReaderCPUs, err = c.CPUs("reader-cpus"); err != nil {
		return schema.Params{}, err
	}
	if l.LoadgenCPUs, err = c.CPUs("loadgen-cpus"); err != nil {
		return schema.Params{}, err
	}
	for flag, dst := range map[string]*int64{"api-memory": &l.APIMemoryBytes, "reader-memory": &l.ReaderMemoryBytes, "loadgen-memory": &l.LoadgenMemoryBytes} {
		if *dst, err = c.Size(flag, experiment.MinMemory); err != nil {
			return schema.Params{}, err
		}
	}
	if l.PidsLimit, err = c.Pids("pids-limit"); err != nil {
		return schema.Params{}, err
	}
	maxLogBytes, err := c.Size("max-log-bytes", 1<<20)
	if err != nil {
		return schema.Params{}, err
	}
	maxLag := c.Duration("max-send-lag")
	if maxLag <= 0 || float64(maxLag)/1e6 > schema.MaxSendLagBoundMs {
		return schema.Params{}, usagef("--max-send-lag %v: want more than 0 and at most %gms", maxLag, schema.MaxSendLagBoundMs)
	}
	topology := c.String("client-topology")
	if topology != SharedClient && topology != SplitClient {
		return schema.Params{}, usagef("--client-topology %q: want shared or split", topology)
	}
	return schema.Params{
		APIs:           apis,
		Rounds:         1,
		RateRPS:        protocol.Rate,
		DurationS:      protocol.Duration.Seconds(),
		WarmupRequests: protocol.WarmupCount,
		ReaderBounds:   ReaderBounds(),
		ReadBytes:      contract.ReaderReadBytes,
		QueueCapacity:  contract.QueueCapacity,
		MaxRunTimeS:    protocol.MaxRunTime.Seconds(),
		MaxLogBytes:    maxLogBytes,
		// The bound is written to the manifest and read back by --resume and verify.
		MaxSendLagP99Ms: float64(maxLag) / 1e6,
		ClientTopology:  topology,
		Limits:          l,
	}, nil
}
