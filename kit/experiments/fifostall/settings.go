package fifostall

import (
	"fmt"
	"strings"
	"time"

	"github.com/docker/go-units"
	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/incontainer/fiforeader"
	"github.com/logbench/logbench/kit/incontainer/logmode"
	"github.com/logbench/logbench/kit/offline/bundle"
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
		return fiforeader.SlowRateBytesPerSec, nil
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
	Limits      bundle.Limits
	MaxLogBytes int64
	// MaxSendLagP99 flags runs whose load generator was later than this against its
	// schedule (p99).
	MaxSendLagP99 time.Duration
	// ClientTopology is SharedClient or SplitClient.
	ClientTopology string
}

// SettingsOf turns recorded parameters into run settings.
func SettingsOf(p bundle.Params) Settings {
	maxRun := time.Duration(p.MaxRunTimeS * float64(time.Second))
	return Settings{
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
	}
}

var usagef = experiment.Usagef

// RunFlags are the flags of every command that performs runs of this experiment;
// defaultAPI is the command's own.
func RunFlags(defaultAPI string) []cli.Flag {
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
		&cli.StringFlag{Name: "client-topology", Value: SharedClient, Usage: "shared: the reader and the load generator in one client container with one budget (--loadgen-cpus, --loadgen-memory), as published; split: a container each, with its own limits"},
	}
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
func TopologyOf(p bundle.Params) string {
	if p.ClientTopology == "" {
		return SplitClient
	}
	return p.ClientTopology
}

// ParamsFrom validates the run flags, all before anything starts, into the parameters
// the manifest records; SettingsOf gives the settings that run.
func ParamsFrom(c *cli.Context) (bundle.Params, error) {
	d := c.Duration
	protocol := contract.RunParams{
		Rate:        c.Float64("rate"),
		Duration:    d("duration"),
		WarmupCount: c.Int("warmup"),
		MaxRunTime:  d("max-run-time"),
	}
	apis, err := ParseAPIs(c.String("api"))
	if err != nil {
		return bundle.Params{}, usagef("--api: %v", err)
	}
	switch {
	case !(protocol.Rate > 0 && protocol.Rate <= 10000):
		return bundle.Params{}, usagef("--rate %v: want more than 0 and at most 10000 requests per second", protocol.Rate)
	case protocol.Duration <= 0 || protocol.Duration > time.Hour:
		return bundle.Params{}, usagef("--duration %v: want more than 0 and at most 1h", protocol.Duration)
	case protocol.Count() < 1:
		return bundle.Params{}, usagef("--rate x --duration gives no request")
	case protocol.WarmupCount < 0 || protocol.WarmupCount > 1000:
		return bundle.Params{}, usagef("--warmup %d: want 0 to 1000", protocol.WarmupCount)
	case protocol.MaxRunTime < protocol.Duration+5*time.Second:
		return bundle.Params{}, usagef("--max-run-time %v: want at least --duration + 5s", protocol.MaxRunTime)
	}
	var l bundle.Limits
	if l.APICPUs, err = cpus(c, "api-cpus"); err != nil {
		return bundle.Params{}, err
	}
	if l.ReaderCPUs, err = cpus(c, "reader-cpus"); err != nil {
		return bundle.Params{}, err
	}
	if l.LoadgenCPUs, err = cpus(c, "loadgen-cpus"); err != nil {
		return bundle.Params{}, err
	}
	for flag, dst := range map[string]*int64{"api-memory": &l.APIMemoryBytes, "reader-memory": &l.ReaderMemoryBytes, "loadgen-memory": &l.LoadgenMemoryBytes} {
		if *dst, err = bytesFlag(c, flag, 6<<20); err != nil { // the engine refuses less
			return bundle.Params{}, err
		}
	}
	if l.PidsLimit = c.Int64("pids-limit"); l.PidsLimit < 16 {
		return bundle.Params{}, usagef("--pids-limit %d: want at least 16", l.PidsLimit)
	}
	maxLogBytes, err := bytesFlag(c, "max-log-bytes", 1<<20)
	if err != nil {
		return bundle.Params{}, err
	}
	maxLag := c.Duration("max-send-lag")
	if maxLag <= 0 {
		return bundle.Params{}, usagef("--max-send-lag %v: want more than 0", maxLag)
	}
	topology := c.String("client-topology")
	if topology != SharedClient && topology != SplitClient {
		return bundle.Params{}, usagef("--client-topology %q: want shared or split", topology)
	}
	return bundle.Params{
		APIs:           apis,
		Rounds:         1,
		RateRPS:        protocol.Rate,
		DurationS:      protocol.Duration.Seconds(),
		WarmupRequests: protocol.WarmupCount,
		ReaderBounds:   ReaderBounds(),
		ReadBytes:      fiforeader.ReadBytes,
		QueueCapacity:  logmode.QueueCapacity,
		MaxRunTimeS:    protocol.MaxRunTime.Seconds(),
		MaxLogBytes:    maxLogBytes,
		// The bound is written to the manifest and read back by --resume and verify.
		MaxSendLagP99Ms: float64(maxLag) / 1e6,
		ClientTopology:  topology,
		Limits:          l,
	}, nil
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
