package logdriver

import (
	"cmp"
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/docker/go-units"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
)

// The drivers: the engine writes the console to a file (json-file, local; k8s-file on
// Podman), or sends it as syslog over TCP or UDP to a receiver of the pod's.
const (
	JSONFile  = "json-file"
	Local     = "local"
	K8sFile   = "k8s-file"
	SyslogTCP = "syslog-tcp"
	SyslogUDP = "syslog-udp"
)

// Drivers, modes, consumers and receivers the flags name.
var (
	Drivers   = []string{JSONFile, Local, K8sFile, SyslogTCP, SyslogUDP}
	Modes     = []string{"blocking", "non-blocking"}
	Consumers = []string{"fast", "slow"}
	Receivers = []string{"rsyslog", "syslog-ng"}
	APIs      = []string{"go", "python", "node"}
)

// imageOf is an API's image: each prints the same numbered lines (kit/contract).
var imageOf = map[string]string{"go": "api", "python": "api-python", "node": "api-node"}

// isSyslog says whether a driver sends to a receiver (and so has a consumer to slow).
func isSyslog(driver string) bool { return driver == SyslogTCP || driver == SyslogUDP }

// Params are the log-driver experiment's parameters: its flags, and its manifest's
// "parameters".
type Params struct {
	APIs    []string `json:"apis"`
	Drivers []string `json:"drivers"`
	Modes   []string `json:"modes"`
	// BufferSizes are the non-blocking driver's max-buffer-size values, in bytes: an
	// axis of the non-blocking runs only (a blocking driver has no ring buffer).
	BufferSizes []int64   `json:"buffer_sizes_bytes"`
	Consumers   []string  `json:"consumers"`
	Receivers   []string  `json:"receivers"`
	Rates       []float64 `json:"rates_rps"`
	// ConsumerRate is the slow consumer's bound, in bytes a second.
	ConsumerRate int64 `json:"consumer_rate_bytes_per_s"`
	// LineBytes is the length of the API's every line, newline included
	// (contract.NumberedLineOf); 0, in a manifest written before lines had a length,
	// is contract.NumberedLineBytes.
	LineBytes int `json:"line_bytes,omitempty"`
	// QueueMessages bounds the receiver's in-memory queue.
	QueueMessages int     `json:"queue_messages"`
	DurationS     float64 `json:"duration_s"`
	// QuietS ends a run's wait for the last line: that long without a byte read.
	QuietS         float64 `json:"quiet_s"`
	RequestTimeout float64 `json:"request_timeout_s"`
	Limits         Limits  `json:"limits"`
	// EngineKind is the engine whose processes the engine helper counts (docker:
	// dockerd, containerd and the shims; podman: conmon and the service), as the engine
	// reports itself: no flag sets it, the engine does (target). Empty when the kit
	// cannot identify that engine's processes: then no run measures them.
	EngineKind string `json:"engine_kind,omitempty"`
}

// Limits are every container's limits: the kit's, and the consumer's (the syslog
// receiver's and the reader's each).
type Limits struct {
	experiment.Limits
	ConsumerCPUs        float64 `json:"consumer_cpus"`
	ConsumerMemoryBytes int64   `json:"consumer_memory_bytes"`
}

// DefaultParams are the flags' defaults: a short matrix that shows both sides of the
// trade on a two-core machine in a few minutes.
func DefaultParams() *Params {
	return &Params{
		APIs:    []string{"go"},
		Drivers: []string{JSONFile, SyslogTCP, SyslogUDP}, Modes: []string{"blocking", "non-blocking"},
		BufferSizes: []int64{1 << 20}, Consumers: []string{"fast", "slow"}, Receivers: []string{"rsyslog"},
		Rates: []float64{500}, ConsumerRate: 16 << 10, LineBytes: contract.NumberedLineBytes, QueueMessages: 1000,
		DurationS: 8, QuietS: 2, RequestTimeout: 30,
		Limits: Limits{Limits: experiment.Limits{APICPUs: 0.5, APIMemoryBytes: 128 << 20, LoadgenCPUs: 0.5, LoadgenMemoryBytes: 128 << 20, PidsLimit: 256},
			ConsumerCPUs: 0.5, ConsumerMemoryBytes: 128 << 20},
	}
}

var consumerCPUsFlag = experiment.CPUsFlag{Name: "consumer-cpus", Usage: "CPU limit of the syslog receiver's and of the reader's container each, in CPUs (0.01 to 1024)"}
var consumerMemoryFlag = experiment.SizeFlag{Name: "consumer-memory", Usage: "memory limit of the syslog receiver's and of the reader's container each (no swap)", Least: experiment.MinMemory}

// flags are the parameters' flags, each with its rule, in the usage's order.
func (p *Params) flags() experiment.Flags {
	l := &p.Limits
	return slices.Concat(experiment.Flags{
		experiment.NamesFlag(&p.APIs, "apis", APIs, "the kit's APIs, each printing a numbered line a request to its console: go, python, node"),
		experiment.NamesFlag(&p.Drivers, "drivers", Drivers, "the engine's log drivers: json-file, local (Docker writes the file), k8s-file (Podman writes it), syslog-tcp, syslog-udp (Docker sends to a receiver)"),
		experiment.NamesFlag(&p.Modes, "driver-modes", Modes, "the drivers' modes: blocking (the API waits for the driver) or non-blocking (the driver drops what its buffer cannot hold)"),
		bufferSizesFlag.Of(&p.BufferSizes),
		experiment.NamesFlag(&p.Consumers, "consumers", Consumers, "the receiver's output read as fast as it comes (fast) or at --consumer-rate (slow); syslog drivers only"),
		experiment.NamesFlag(&p.Receivers, "receivers", Receivers, "the syslog receivers: rsyslog, syslog-ng (Debian's, in a container)"),
		ratesFlag.Of(&p.Rates),
		{Bind: func(fs *flag.FlagSet) {
			fs.IntVar(&p.LineBytes, "line-bytes", p.LineBytes, "the length of each numbered line the API prints, newline included: 128 to 65536 (syslog and local carry at most 16384 whole)")
		}, Check: p.checkLineBytes},
		{Bind: func(fs *flag.FlagSet) {
			fs.Var(experiment.Bytes(&p.ConsumerRate), "consumer-rate", "the slow consumer's bound, bytes a second (16k)")
		}, Check: p.checkConsumerRate},
		experiment.IntFlag(&p.QueueMessages, "queue-messages", 1, maxQueue, "the receiver's in-memory queue, in messages"),
		experiment.SecondsFlag(&p.DurationS, "duration", 1, maxDurationS, "measured load per run"),
		experiment.SecondsFlag(&p.QuietS, "quiet", 0.1, 600, "a run's wait for its last log line ends after this long without one"),
		experiment.SecondsFlag(&p.RequestTimeout, "request-timeout", 0.1, 600, "a request not answered in this long fails"),
	}, l.Flags("", consumerCPUsFlag.Of(&l.ConsumerCPUs), consumerMemoryFlag.Of(&l.ConsumerMemoryBytes)), experiment.Flags{
		experiment.Rule(func() error {
			if p.EngineKind != "" && contract.EngineProcessesOf(p.EngineKind) == "" {
				return experiment.Usagef("engine_kind %q: the kit cannot identify the processes of such an engine", p.EngineKind)
			}
			return nil
		}),
	})
}

// Bind declares the flags.
func (p *Params) Bind(fs *flag.FlagSet) { p.flags().Bind(fs) }

// Check refuses what no plan can have, in the flags' order.
func (p *Params) Check() error { return p.flags().Check() }

// The bounds of what a run may ask for.
const (
	maxRate      = 100_000
	maxDurationS = 3600
	maxQueue     = 10_000_000
)

// checkLineBytes refuses a line length the API cannot print, or one a driver of the
// plan would carry split.
func (p *Params) checkLineBytes() error {
	if p.LineBytes == 0 {
		return nil // a manifest's from before lines had a length: 128
	}
	if err := contract.CheckNumberedLineBytes(p.LineBytes); err != nil {
		return experiment.Usagef("--line-bytes %d: want %d to %d", p.LineBytes, contract.MinNumberedLineBytes, contract.MaxNumberedLineBytes)
	}
	for _, d := range p.Drivers {
		if most := wholeLineBytes(d); p.LineBytes > most {
			return experiment.Usagef("--line-bytes %d: the %s driver carries lines of at most %d bytes whole (longer ones arrive split, as damaged lines)", p.LineBytes, d, most)
		}
	}
	return nil
}

// checkConsumerRate: the slow consumer reads a line at least each second; a file
// driver has none.
func (p *Params) checkConsumerRate() error {
	line := int64(contract.NumberedLineBytes)
	if slices.ContainsFunc(p.Drivers, isSyslog) {
		line = int64(p.lineBytes())
	}
	if p.ConsumerRate < line || p.ConsumerRate > 1<<40 {
		return experiment.Usagef("--consumer-rate %d: want %d bytes (a line) to 1TiB a second", p.ConsumerRate, line)
	}
	return nil
}

// lineBytes is the length of the run's lines.
func (p *Params) lineBytes() int { return cmp.Or(p.LineBytes, contract.NumberedLineBytes) }

// engineSplitBytes is the longest line Docker's log copier hands a driver in one
// message (its buffer): a longer one goes as partial messages of that size.
const engineSplitBytes = 16 << 10

// wholeLineBytes is the longest line, newline included, that a driver carries whole.
// json-file marks a line's parts and the engine's log API joins them again (a 40,000-
// byte line read back whole on this kit's reference machine); local loses the newline
// after a line in parts (it came back joined to the next), and the syslog driver sends
// each part as a message of its own, which the receiver ends with a newline. Podman's
// conmon reads the console 8 KiB at a time; k8s-file's longer lines are not measured.
func wholeLineBytes(driver string) int {
	switch driver {
	case JSONFile:
		return contract.MaxNumberedLineBytes
	case K8sFile:
		return 8 << 10
	}
	return engineSplitBytes
}

// CPULimits are the containers' CPU limits, by manifest field, for verify.
func (p *Params) CPULimits() []experiment.CPULimit {
	return p.Limits.CPULimits(experiment.CPULimit{Field: "parameters.limits.consumer_cpus", CPUs: p.Limits.ConsumerCPUs})
}

// The axes that are not names: the non-blocking driver's buffer sizes and the offered
// loads.
var (
	bufferSizesFlag = experiment.ListFlag[int64]{Name: "buffer-sizes", Usage: "the non-blocking driver's max-buffer-size, comma-separated sizes (1m,64k)",
		Parse: units.RAMInBytes, Text: func(v int64) string { return units.BytesSize(float64(v)) }, Syntax: "want sizes such as 1m,64k",
		What: "sizes", In: func(v int64) bool { return v >= 1024 && v <= 1<<30 }, Range: "want 1KiB to 1GiB"}
	ratesFlag = experiment.ListFlag[float64]{Name: "rates", Usage: "offered loads, requests per second, comma-separated (each request logs one line of --line-bytes)",
		Parse: func(f string) (float64, error) { return strconv.ParseFloat(f, 64) }, Text: func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }, Syntax: "want requests per second such as 200,1000",
		What: "rates", In: func(v float64) bool { return v >= 1 && v <= maxRate && !math.IsNaN(v) }, Range: fmt.Sprintf("want 1 to %d requests per second", maxRate)}
)
