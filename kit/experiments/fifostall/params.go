package fifostall

import (
	"cmp"
	"flag"
	"slices"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
)

// The names a manifest's parameters take (package fifostall runs them).
const (
	// The API implementations: Go (net/http) and the article's Python 3.11 asyncio API.
	GoAPI     = "go"
	PythonAPI = "python"
	// The two readers: unpaced, and paced at contract.SlowReaderBytesPerSec.
	FastReader = "fast"
	SlowReader = "slow"
	// The client topologies: the reader and the load generator in one client container
	// with one budget, as published (shared), or a container each (split).
	SharedClient = "shared"
	SplitClient  = "split"
)

var (
	// APIs lists the implementations.
	APIs = []string{GoAPI, PythonAPI}
	// Readers lists the reader kinds in published order.
	Readers = []string{FastReader, SlowReader}
)

// The flags of fifo-stall's own limits and stop condition, beside the limits every
// experiment shares (experiment.APICPUsFlag...).
var (
	readerCPUsFlag   = experiment.CPUsFlag{Name: "reader-cpus", Usage: "CPU limit of the reader container, in CPUs (0.01 to 1024)"}
	readerMemoryFlag = experiment.SizeFlag{Name: "reader-memory", Usage: "memory limit of the reader container (no swap)", Least: experiment.MinMemory}
	maxLogBytesFlag  = experiment.SizeFlag{Name: "max-log-bytes", Usage: "stop condition: most log bytes a run may generate", Least: 1 << 20}
)

// flags are reproduce's flags, each bound to the field the manifest records it in,
// with its rule, in the usage's order: the matrix's modes and readers, the calibration
// and the retries, then the flags of every run (runFlags). The rules no flag owns come
// first (--reps, the kit's) and last (what no flag sets).
func (p *Params) flags() experiment.Flags {
	return slices.Concat(experiment.Flags{
		experiment.Rule(func() error { return experiment.CheckRounds(p.Rounds) }),
		experiment.NamesFlag(&p.Modes, "modes", contract.LogModeNames(), "logging modes, comma-separated"),
		experiment.NamesFlag(&p.Readers, "readers", Readers, "readers, comma-separated"),
		experiment.BoolFlag(&p.Calibrate, "calibrate", "measure the instrument first and record it in the manifest (--calibrate=false to skip)"),
		experiment.IntFlag(&p.Retries, "retries", 0, 10, "perform a run again, up to this many times, while its send-lag p99 is over --max-send-lag (every attempt is kept in the bundle)"),
	}, p.runFlags(APIsUsage), experiment.Flags{
		// The reader's read and json-queue's queue are the kit's, as published, and
		// verify holds the backlog to them.
		experiment.Rule(func() error {
			return cmp.Or(experiment.UsageIf(p.ReadBytes != contract.ReaderReadBytes, "read_bytes %d: the reader reads %d bytes at a time, as published (no flag sets it)", p.ReadBytes, contract.ReaderReadBytes),
				experiment.UsageIf(p.QueueCapacity != contract.QueueCapacity, "queue_capacity_records %d: json-queue's queue holds %d records (no flag sets it)", p.QueueCapacity, contract.QueueCapacity))
		}),
	})
}

// Bind declares reproduce's flags.
func (p *Params) Bind(fs *flag.FlagSet) { p.flags().Bind(fs) }

// Check refuses parameters no plan can have, flag or manifest alike, in the order of
// the flags' usage.
func (p Params) Check() error { return p.flags().Check() }

// The usages of --api: reproduce's runs all the APIs it names, run's one.
const (
	APIsUsage = "API implementation: go (net/http), python (the article's asyncio API) or all"
	APIUsage  = "API implementation: go (net/http) or python (the article's asyncio API); reproduce runs several"
)

// BindRun declares the flags of every command that performs runs of this experiment,
// --api with its command's usage.
func (p *Params) BindRun(fs *flag.FlagSet, apiUsage string) { p.runFlags(apiUsage).Bind(fs) }

// runFlags are the flags of every command that performs runs, with their rules; a rule
// of two flags is checked at the later one.
func (p *Params) runFlags(apiUsage string) experiment.Flags {
	l := &p.Limits
	return slices.Concat(experiment.Flags{
		{Bind: func(fs *flag.FlagSet) { fs.Var(experiment.OneOrAll(&p.APIs, APIs), "api", apiUsage) }, Check: func() error {
			return experiment.UsageIf(experiment.CheckList("api", p.APIs, APIs) != nil, "--api %q: want go, python or all", strings.Join(p.APIs, ","))
		}},
		{Bind: func(fs *flag.FlagSet) {
			fs.Float64Var(&p.RateRPS, "rate", p.RateRPS, "offered load, requests per second")
		}, Check: func() error {
			return experiment.UsageIf(!(p.RateRPS > 0 && p.RateRPS <= 10000), "--rate %v: want more than 0 and at most 10000 requests per second", p.RateRPS)
		}},
		{Bind: func(fs *flag.FlagSet) { fs.Var(experiment.Seconds(&p.DurationS), "duration", "measured load per run") }, Check: func() error {
			protocol := contract.RunParams{Rate: p.RateRPS, Duration: time.Duration(p.DurationS * float64(time.Second))}
			return cmp.Or(experiment.UsageIf(!(p.DurationS > 0 && p.DurationS <= 3600), "--duration %s: want more than 0 and at most 1h", experiment.FormatSeconds(p.DurationS)),
				experiment.UsageIf(protocol.Count() < 1, "--rate x --duration gives no request"))
		}},
		experiment.IntFlag(&p.WarmupRequests, "warmup-requests", 0, 1000, "warm-up requests before each run's measurement, not measured"),
	}, l.Flags("", readerCPUsFlag.Of(&l.ReaderCPUs), readerMemoryFlag.Of(&l.ReaderMemoryBytes)), experiment.Flags{
		{Bind: func(fs *flag.FlagSet) {
			fs.Var(experiment.Seconds(&p.MaxRunTimeS), "max-run-time", "stop condition: longest a run may take")
		}, Check: func() error {
			return experiment.UsageIf(!(p.MaxRunTimeS >= p.DurationS+5 && p.MaxRunTimeS <= p.DurationS+3600), "--max-run-time %s: want at least --duration + 5s, at most --duration + 1h", experiment.FormatSeconds(p.MaxRunTimeS))
		}},
		maxLogBytesFlag.Of(&p.MaxLogBytes),
		// The send-lag bound's rule is checked at --client-topology: a manifest of an
		// earlier kit records neither a topology (never a flag's: empty) nor a bound (0),
		// and is read as split, with the default bound.
		{Bind: func(fs *flag.FlagSet) {
			fs.Var(experiment.Milliseconds(&p.MaxSendLagP99Ms), "max-send-lag", "flag a run as not trustworthy when its send-lag p99 exceeds this (at most 10ms)")
		}},
		{Bind: func(fs *flag.FlagSet) {
			fs.Var(experiment.OneOf(&p.ClientTopology, SharedClient, SplitClient), "client-topology", "shared: the reader and the load generator in one client container with one budget (--loadgen-cpus, --loadgen-memory), as published; split: a container each, with its own limits")
		}, Check: func() error {
			t, lag := p.ClientTopology, p.MaxSendLagP99Ms
			return cmp.Or(experiment.UsageIf(!(lag > 0 && lag <= MaxSendLagBoundMs) && !(lag == 0 && t == ""), "--max-send-lag %s: want more than 0 and at most %gms", experiment.FormatSeconds(lag/1e3), MaxSendLagBoundMs),
				experiment.UsageIf(t != "" && t != SharedClient && t != SplitClient, "--client-topology %q: want shared or split", t))
		}},
	})
}

// CPULimits are the containers' CPU limits (experiment.CPULimited).
func (p Params) CPULimits() []experiment.CPULimit {
	return p.Limits.CPULimits(experiment.CPULimit{Field: "parameters.limits.reader_cpus", CPUs: p.Limits.ReaderCPUs})
}
