package schema

import (
	"flag"
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

// Bind declares reproduce's flags: the matrix's modes and readers, the calibration and
// the retries, and the flags of every run (BindRun), each bound to the field the
// manifest records it in.
func (p *Params) Bind(fs *flag.FlagSet) {
	fs.Var(experiment.List(&p.Modes), "modes", "logging modes, comma-separated")
	fs.Var(experiment.List(&p.Readers), "readers", "readers, comma-separated")
	fs.BoolVar(&p.Calibrate, "calibrate", p.Calibrate, "measure the instrument first and record it in the manifest (--calibrate=false to skip)")
	fs.IntVar(&p.Retries, "retries", p.Retries, "perform a run again, up to this many times, while its send-lag p99 is over --max-send-lag (every attempt is kept in the bundle)")
	p.BindRun(fs, APIsUsage)
}

// The usages of --api: reproduce's runs all the APIs it names, run's one.
const (
	APIsUsage = "API implementation: go (net/http), python (the article's asyncio API) or all"
	APIUsage  = "API implementation: go (net/http) or python (the article's asyncio API); reproduce runs several"
)

// BindRun declares the flags of every command that performs runs of this experiment,
// --api with its command's usage.
func (p *Params) BindRun(fs *flag.FlagSet, apiUsage string) {
	fs.Var(experiment.OneOrAll(&p.APIs, APIs), "api", apiUsage)
	fs.Float64Var(&p.RateRPS, "rate", p.RateRPS, "offered load, requests per second")
	fs.Var(experiment.Seconds(&p.DurationS), "duration", "measured load per run")
	fs.IntVar(&p.WarmupRequests, "warmup-requests", p.WarmupRequests, "warm-up requests before each run's measurement, not measured")
	l := &p.Limits
	experiment.APICPUsFlag.Bind(fs, &l.APICPUs)
	experiment.APIMemoryFlag.Bind(fs, &l.APIMemoryBytes)
	readerCPUsFlag.Bind(fs, &l.ReaderCPUs)
	readerMemoryFlag.Bind(fs, &l.ReaderMemoryBytes)
	experiment.LoadgenCPUsFlag.Bind(fs, &l.LoadgenCPUs)
	experiment.LoadgenMemoryFlag.Bind(fs, &l.LoadgenMemoryBytes)
	experiment.PidsLimitFlag.Bind(fs, &l.PidsLimit)
	fs.Var(experiment.Seconds(&p.MaxRunTimeS), "max-run-time", "stop condition: longest a run may take")
	maxLogBytesFlag.Bind(fs, &p.MaxLogBytes)
	fs.Var(experiment.Milliseconds(&p.MaxSendLagP99Ms), "max-send-lag", "flag a run as not trustworthy when its send-lag p99 exceeds this (at most 10ms)")
	// The empty topology is an earlier kit's manifest's, never a flag's.
	fs.Var(experiment.OneOf(&p.ClientTopology, SharedClient, SplitClient), "client-topology", "shared: the reader and the load generator in one client container with one budget (--loadgen-cpus, --loadgen-memory), as published; split: a container each, with its own limits")
}

// Check refuses parameters no plan can have, flag or manifest alike, in the order of
// the flags' usage. A bundle of an earlier kit records neither a client topology nor a
// send-lag bound (0): it is read as split, with the default bound.
func (p Params) Check() error {
	return experiment.FirstProblem(
		func() error { return experiment.CheckRounds(p.Rounds) },
		func() error { return experiment.CheckList("modes", p.Modes, contract.LogModeNames()) },
		func() error { return experiment.CheckList("readers", p.Readers, Readers) },
		func() error {
			if experiment.CheckList("api", p.APIs, APIs) != nil {
				return experiment.Usagef("--api %q: want go, python or all", strings.Join(p.APIs, ","))
			}
			return nil
		},
		func() error {
			protocol := contract.RunParams{Rate: p.RateRPS, Duration: time.Duration(p.DurationS * float64(time.Second))}
			switch {
			case !(p.RateRPS > 0 && p.RateRPS <= 10000):
				return experiment.Usagef("--rate %v: want more than 0 and at most 10000 requests per second", p.RateRPS)
			case !(p.DurationS > 0 && p.DurationS <= 3600):
				return experiment.Usagef("--duration %s: want more than 0 and at most 1h", experiment.FormatSeconds(p.DurationS))
			case protocol.Count() < 1:
				return experiment.Usagef("--rate x --duration gives no request")
			case p.WarmupRequests < 0 || p.WarmupRequests > 1000:
				return experiment.Usagef("--warmup-requests %d: want 0 to 1000", p.WarmupRequests)
			case !(p.MaxRunTimeS >= p.DurationS+5 && p.MaxRunTimeS <= p.DurationS+3600):
				return experiment.Usagef("--max-run-time %s: want at least --duration + 5s, at most --duration + 1h", experiment.FormatSeconds(p.MaxRunTimeS))
			}
			return nil
		},
		func() error { return experiment.APICPUsFlag.Check(p.Limits.APICPUs) },
		func() error { return readerCPUsFlag.Check(p.Limits.ReaderCPUs) },
		func() error { return experiment.LoadgenCPUsFlag.Check(p.Limits.LoadgenCPUs) },
		func() error { return experiment.APIMemoryFlag.Check(p.Limits.APIMemoryBytes) },
		func() error { return readerMemoryFlag.Check(p.Limits.ReaderMemoryBytes) },
		func() error { return experiment.LoadgenMemoryFlag.Check(p.Limits.LoadgenMemoryBytes) },
		func() error { return experiment.PidsLimitFlag.Check(p.Limits.PidsLimit) },
		func() error { return maxLogBytesFlag.Check(p.MaxLogBytes) },
		func() error {
			lag := p.MaxSendLagP99Ms
			switch {
			case lag == 0 && p.ClientTopology == "": // none recorded: an earlier kit's
			case !(lag > 0 && lag <= MaxSendLagBoundMs):
				return experiment.Usagef("--max-send-lag %s: want more than 0 and at most %gms", experiment.FormatSeconds(lag/1e3), MaxSendLagBoundMs)
			}
			if t := p.ClientTopology; t != "" && t != SharedClient && t != SplitClient {
				return experiment.Usagef("--client-topology %q: want shared or split", t)
			}
			return nil
		},
		func() error { return experiment.Within("retries", p.Retries, 0, 10, "") },
		// No flag sets them: the reader's read and json-queue's queue are the kit's,
		// as published, and verify holds the backlog to them.
		func() error {
			switch {
			case p.ReadBytes != contract.ReaderReadBytes:
				return experiment.Usagef("read_bytes %d: the reader reads %d bytes at a time, as published (no flag sets it)", p.ReadBytes, contract.ReaderReadBytes)
			case p.QueueCapacity != contract.QueueCapacity:
				return experiment.Usagef("queue_capacity_records %d: json-queue's queue holds %d records (no flag sets it)", p.QueueCapacity, contract.QueueCapacity)
			}
			return nil
		},
	)
}

// CPULimits are the containers' CPU limits (experiment.CPULimited).
func (p Params) CPULimits() []experiment.CPULimit {
	return []experiment.CPULimit{{Field: "parameters.limits.api_cpus", CPUs: p.Limits.APICPUs},
		{Field: "parameters.limits.reader_cpus", CPUs: p.Limits.ReaderCPUs}, {Field: "parameters.limits.loadgen_cpus", CPUs: p.Limits.LoadgenCPUs}}
}
