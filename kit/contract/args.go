package contract

import (
	"flag"
	"math"
	"strconv"
	"strings"
	"time"
)

// The in-container Go programs' command lines, declared once: the host writes a
// program's arguments with Args, the program reads them with Bind on its own flag set,
// and args_test.go sees every one come back as it went. Every flag is written, the
// defaults too, so that a pod's command says all it runs with.

// argsOf writes every flag bind declares, with its value, as "-name=value".
func argsOf(bind func(*flag.FlagSet)) []string {
	fs := flag.NewFlagSet("args", flag.ContinueOnError)
	bind(fs)
	var out []string
	fs.VisitAll(func(f *flag.Flag) { out = append(out, "-"+f.Name+"="+f.Value.String()) })
	return out
}

// LogToStdout, as the API's FIFO, has the Go API write its log to its standard output,
// where the container engine's log driver takes it, and make no FIFO.
const LogToStdout = "-"

// APIArgs are the Go API's flags (cmd/incontainer/api).
type APIArgs struct {
	Mode        string // the logging mode
	FIFO        string // the log FIFO, or LogToStdout
	MaxLogBytes int64  // output-volume stop condition (0: none)
	// AccessLog serves the qps experiment's API instead, with this access-log
	// configuration: none, console, file or console+file ("": the fifo-stall API).
	AccessLog string
	LogDir    string // with AccessLog: the directory of the date-named log file
	// LineBytes is the numbered mode's line length, newline included
	// (NumberedLineOf).
	LineBytes int
}

// DefaultAPIArgs are the API's defaults.
func DefaultAPIArgs() APIArgs {
	return APIArgs{Mode: "none", FIFO: RunDir + "/log.fifo", LogDir: RunDir + "/logs", LineBytes: NumberedLineBytes}
}

// Bind declares the flags on fs, each defaulting to a's value and setting it.
func (a *APIArgs) Bind(fs *flag.FlagSet) {
	fs.StringVar(&a.Mode, "mode", a.Mode, "logging mode")
	fs.StringVar(&a.FIFO, "fifo", a.FIFO, "log FIFO (-: standard output, no FIFO)")
	fs.Int64Var(&a.MaxLogBytes, "max-log-bytes", a.MaxLogBytes, "output-volume stop condition (0: none)")
	fs.StringVar(&a.AccessLog, "access-log", a.AccessLog, "serve the qps experiment's API instead, with this access-log configuration: none, console, file or console+file")
	fs.StringVar(&a.LogDir, "log-dir", a.LogDir, "with -access-log: directory of the date-named log file")
	fs.IntVar(&a.LineBytes, "line-bytes", a.LineBytes, "numbered mode: each line's length, newline included (128 to 65536)")
}

// Args are a's command line.
func (a APIArgs) Args() []string { return argsOf(a.Bind) }

// FIFOArgs are the fifo-stall API's command line alone, which the Go, the Python and the
// Node.js API all take (images/api-python reads the same three flags; images/api-node's
// program hands them to its numbered API, which serves the modes none and numbered with
// the FIFO "-"): -mode, -fifo and -max-log-bytes, and -line-bytes when the lines are
// not of NumberedLineBytes (all three take it).
func (a APIArgs) FIFOArgs() []string {
	out := []string{"-mode=" + a.Mode, "-fifo=" + a.FIFO, "-max-log-bytes=" + strconv.FormatInt(a.MaxLogBytes, 10)}
	if a.LineBytes != 0 && a.LineBytes != NumberedLineBytes {
		out = append(out, "-line-bytes="+strconv.Itoa(a.LineBytes))
	}
	return out
}

// ReaderReadBytes is the size of the FIFO reader's every read, as published.
const ReaderReadBytes = 4096

// SlowReaderBytesPerSec is the slow reader's bound (ReaderArgs.RateBytes): 4,096 bytes,
// then a wait, 64 times a second.
const SlowReaderBytesPerSec = 256 * 1024

// ReaderArgs are the FIFO reader's flags (cmd/incontainer/reader).
type ReaderArgs struct {
	FIFO      string
	RateBytes int64 // upper bound on bytes read per second (0: unlimited)
	// Account runs every line read through an Accountant (ReaderStatus.Account): the
	// log-driver experiment's numbered lines.
	Account bool
	// LineBytes is the length of the lines Account takes (NumberedLineOf).
	LineBytes int
}

// DefaultReaderArgs are the reader's defaults.
func DefaultReaderArgs() ReaderArgs {
	return ReaderArgs{FIFO: RunDir + "/log.fifo", LineBytes: NumberedLineBytes}
}

// Bind declares the flags on fs, each defaulting to a's value and setting it.
func (a *ReaderArgs) Bind(fs *flag.FlagSet) {
	fs.StringVar(&a.FIFO, "fifo", a.FIFO, "log FIFO")
	fs.Int64Var(&a.RateBytes, "rate-bytes", a.RateBytes, "upper bound on bytes read per second (0: unlimited)")
	fs.BoolVar(&a.Account, "account", a.Account, "account every line read as a numbered line")
	fs.IntVar(&a.LineBytes, "line-bytes", a.LineBytes, "with -account: each line's length, newline included (128 to 65536)")
}

// Args are a's command line.
func (a ReaderArgs) Args() []string { return argsOf(a.Bind) }

// LoadgenArgs are the open-loop load generator's flags (cmd/incontainer/loadgen): a run,
// or a capacity sweep; with WithReader it also runs the FIFO reader as its child (the
// shared client topology), which it starts as itself with AsReader.
type LoadgenArgs struct {
	Run RunParams
	// Sweep, when not empty, finds the capacity instead of a run: comma-separated
	// rising rates in requests per second, each loaded for SweepStep.
	Sweep       string
	SweepStep   time.Duration
	SweepMaxLag time.Duration // the send-lag p99 a sweep rate must keep
	SweepTrials int           // trials at each rate; most must hold it
	GOMAXPROCS  int           // 0: Go's default for the container's CPU limit
	Result      string        // where to write the result
	WithReader  bool
	ReaderFIFO  string
	ReaderRate  int64 // the reader's bound in bytes per second (0: none)
	AsReader    bool
	// NoReader conducts a run with no reader at all: the engine's log driver is the
	// log's consumer, and the host reads the lines back.
	NoReader bool
	// EngineCPUURL is the engine helper's /sample (QPSLoadArgs.EngineCPUServer), read
	// from the reset to the end of the drain ("": the engine is not measured).
	EngineCPUURL string
}

// DefaultLoadgenArgs are the load generator's defaults.
func DefaultLoadgenArgs() LoadgenArgs {
	return LoadgenArgs{
		Run:       RunParams{Rate: 20, Duration: 8 * time.Second, WarmupCount: 2, RequestTimeout: time.Minute, MaxRunTime: 5 * time.Minute},
		SweepStep: 2 * time.Second, SweepMaxLag: time.Millisecond, SweepTrials: 3,
		Result: RunDir + "/result.json", ReaderFIFO: RunDir + "/log.fifo",
	}
}

// Bind declares the flags on fs, each defaulting to a's value and setting it.
func (a *LoadgenArgs) Bind(fs *flag.FlagSet) {
	p := &a.Run
	fs.Float64Var(&p.Rate, "rate", p.Rate, "requests per second")
	fs.DurationVar(&p.Duration, "duration", p.Duration, "load duration")
	fs.IntVar(&p.WarmupCount, "warmup", p.WarmupCount, "warm-up requests")
	fs.DurationVar(&p.RequestTimeout, "request-timeout", p.RequestTimeout, "timeout of one request")
	fs.DurationVar(&p.MaxRunTime, "max-run-time", p.MaxRunTime, "stop condition on the whole run")
	fs.BoolVar(&p.MeasureTimer, "measure-timer", p.MeasureTimer, "measure the clock and timers before the warm-up")
	fs.BoolVar(&p.LossAllowed, "loss-allowed", p.LossAllowed, "lines may be lost: a drain also ends when the reader has read nothing for -quiet-period, and lines missing are no failure")
	fs.DurationVar(&p.QuietPeriod, "quiet-period", p.QuietPeriod, "with -loss-allowed: how long the reader reads nothing before the drain ends")
	fs.StringVar(&a.Sweep, "sweep", a.Sweep, "instead of a run, find the capacity: comma-separated rising rates (req/s)")
	fs.DurationVar(&a.SweepStep, "sweep-step", a.SweepStep, "load per sweep rate")
	fs.DurationVar(&a.SweepMaxLag, "sweep-max-lag", a.SweepMaxLag, "send-lag p99 a sweep rate must keep")
	fs.IntVar(&a.SweepTrials, "sweep-trials", a.SweepTrials, "trials at each sweep rate; most must hold it")
	fs.IntVar(&a.GOMAXPROCS, "gomaxprocs", a.GOMAXPROCS, "Go's GOMAXPROCS (0: Go's default for the container's CPU limit)")
	fs.StringVar(&a.Result, "result", a.Result, "where to write the result")
	fs.BoolVar(&a.WithReader, "with-reader", a.WithReader, "run the FIFO reader as a child process in this container (the shared client topology)")
	fs.StringVar(&a.ReaderFIFO, "reader-fifo", a.ReaderFIFO, "with -with-reader: the log FIFO")
	fs.Int64Var(&a.ReaderRate, "reader-rate-bytes", a.ReaderRate, "with -with-reader: the reader's bound in bytes per second (0: none)")
	fs.BoolVar(&a.AsReader, "as-reader", a.AsReader, "be the FIFO reader (how -with-reader starts its child)")
	fs.BoolVar(&a.NoReader, "no-reader", a.NoReader, "conduct the run with no reader: neither wait for one nor read it, and wait for no drain")
	fs.StringVar(&a.EngineCPUURL, "engine-cpu-url", a.EngineCPUURL, "the engine helper's /sample, read right after the reset, about once a second through the load and the drain, and at the drain's end (empty: the engine is not measured)")
}

// Args are a's command line.
func (a LoadgenArgs) Args() []string { return argsOf(a.Bind) }

// SweepRequestTimeout is how long a sweep's request may take before it counts as an
// error.
const SweepRequestTimeout = 10 * time.Second

// Longest is the longest the load generator runs with a's flags: a run's own cap, and
// for a sweep, beyond the wait for the API, each of its steps (a warm-up, then every
// rate's trials), each ended by its last request's timeout.
func (a LoadgenArgs) Longest() time.Duration {
	d := a.Run.MaxRunTime
	if a.Sweep != "" {
		steps := (strings.Count(a.Sweep, ",") + 2) * max(1, a.SweepTrials)
		d += time.Duration(steps) * (a.SweepStep + SweepRequestTimeout)
	}
	return d
}

// ProbeArgs are the speed probe's flags (cmd/incontainer/probe, in the api image).
type ProbeArgs struct {
	Rounds   int    // passes of the probe's 1 MiB buffer
	Requests int    // timed requests of the loopback request loop (0: not run)
	Syscalls int    // timed calls of the system-call loop (0: not run)
	Result   string // where to write the ProbeResult
}

// ProbeKernel names the speed probe's fixed work, for a manifest.
const ProbeKernel = "sha256, 1 MiB buffer (byte i = i mod 251), 32 passes, one thread"

// RequestPathKernel names the request-path probe's fixed work, for a manifest.
const RequestPathKernel = "HTTP/1.1 GET over one keep-alive 127.0.0.1 connection, net/http client and server in one process on one P, 64-byte body, " +
	"1000 requests after 100 untimed, process CPU; write(2) of 1 byte to /dev/null, 50000 calls, one thread's CPU"

// DefaultProbeArgs are the probe's defaults, fixed work bounded in time. 32 passes of
// the buffer make 32 MiB, some 15 to 100 ms of one core, long enough for a thread CPU
// clock to read well, short beside a run. 1000 loopback requests took 70-120 µs of CPU
// each on this kit's 2-core VM under load (0.07-0.12 s), and 50,000 one-byte writes
// 1.6-2.1 µs each there (0.08-0.10 s); a Raspberry Pi 5's core, with cheaper system
// calls than a VM's, should take no longer, a fraction of a second for the three. The
// 100 untimed requests before the timed ones open the connection and warm both ends.
func DefaultProbeArgs() ProbeArgs {
	return ProbeArgs{Rounds: 32, Requests: 1000, Syscalls: 50_000, Result: RunDir + "/probe.json"}
}

// Bind declares the flags on fs, each defaulting to a's value and setting it.
func (a *ProbeArgs) Bind(fs *flag.FlagSet) {
	fs.IntVar(&a.Rounds, "rounds", a.Rounds, "passes of the 1 MiB buffer")
	fs.IntVar(&a.Requests, "requests", a.Requests, "timed requests of the loopback request loop (0: not run)")
	fs.IntVar(&a.Syscalls, "syscalls", a.Syscalls, "timed one-byte writes to /dev/null (0: not run)")
	fs.StringVar(&a.Result, "result", a.Result, "where to write the result")
}

// Args are a's command line.
func (a ProbeArgs) Args() []string { return argsOf(a.Bind) }

// ClosedLoopTimeout is autocannon's request timeout, the closed loop's default: a
// response must be complete this long after its request was sent, or the request counts
// as a timeout.
const ClosedLoopTimeout = 10 * time.Second

// QPSLoadArgs are the qps experiment's conductor's flags (cmd/incontainer/qpsload), which
// your-api's runs use too: a closed-loop run against the kit's API, a run against a
// foreign service (Foreign), or the engine CPU helper (EngineCPUServer).
type QPSLoadArgs struct {
	URL          string        // the URL to load (plain http)
	Connections  int           // keep-alive connections
	Pipelining   int           // requests in flight per connection
	Duration     time.Duration // the measured interval
	Warmup       time.Duration // load before the API's counters are reset, not counted
	Timeout      time.Duration // per request, from its send
	CPULimit     float64       // cores the generator may use, for the saturation rule (0: GOMAXPROCS)
	ControlPort  int           // the API's control port on loopback
	ReadyTimeout time.Duration // longest wait for the API to say ready
	Result       string        // where to write the result
	// EngineCPUURL is the engine CPU helper's /sample, read before and after the
	// measured interval ("": not measured).
	EngineCPUURL string
	Proc         string // the proc file system of the host's load and the engine's processes
	// WrkDir, when not empty, has the wrk container waiting in this folder started after
	// the warm-up, before the measured load (after it and the API's report with
	// WrkAfter), and waited for up to WrkTimeout.
	WrkDir     string
	WrkAfter   bool
	WrkTimeout time.Duration
	// EngineCPUServer, when not empty, serves the engine's CPU at this address instead of
	// conducting a run (the helper, in the host's PID namespace); with PodCPU each sample
	// also holds the CPU of the container that owns the pod's network; EngineKind names
	// the engine whose processes to count (EngineDocker or EnginePodman).
	EngineCPUServer string
	PodCPU          bool
	EngineKind      string
	// Open has a run against the kit's API offer the open loop at Rate requests per
	// second, with Arrivals, in place of the closed loop (a qps capacity search's step).
	Open bool
	// Vegeta, with Open, has vegeta's attacker offer the same rate before the measured
	// load (a capacity step checked by an independent open loop).
	Vegeta bool
	// Foreign, when not empty, conducts a run against a service with no control port:
	// closed or open (kit/incontainer/foreign), at Rate requests per second when open;
	// LogDir is the service's log directory, counted Settle after the load; ProbeOnly
	// ends once the service answers 2xx.
	Foreign string
	Rate    float64
	// Arrivals is the open loop's arrival process: constant or poisson.
	Arrivals  string
	LogDir    string
	Settle    time.Duration
	ProbeOnly bool
}

// DefaultQPSLoadArgs are the conductor's defaults: autocannon's -c 10 -p 1 -d 5.
func DefaultQPSLoadArgs() QPSLoadArgs {
	return QPSLoadArgs{
		URL: "http://127.0.0.1:" + strconv.Itoa(WorkloadPort) + "/", Connections: 10, Pipelining: 1, Duration: 5 * time.Second,
		Warmup: time.Second, Timeout: ClosedLoopTimeout, ControlPort: APIControlPort, ReadyTimeout: time.Minute,
		Result: RunDir + "/result.json", Proc: "/proc", WrkTimeout: 2 * time.Minute, EngineKind: EngineDocker,
		Rate: 100, Arrivals: ArrivalsConstant, Settle: 500 * time.Millisecond,
	}
}

// Bind declares the flags on fs, each defaulting to a's value and setting it.
func (a *QPSLoadArgs) Bind(fs *flag.FlagSet) {
	fs.StringVar(&a.URL, "url", a.URL, "the URL to load (plain http)")
	fs.IntVar(&a.Connections, "connections", a.Connections, "keep-alive connections")
	fs.IntVar(&a.Pipelining, "pipelining", a.Pipelining, "requests in flight per connection")
	fs.DurationVar(&a.Duration, "duration", a.Duration, "measured interval")
	fs.DurationVar(&a.Warmup, "warmup", a.Warmup, "load before the API's counters are reset, not counted")
	fs.DurationVar(&a.Timeout, "timeout", a.Timeout, "per request, from its send")
	fs.Float64Var(&a.CPULimit, "cpu-limit", a.CPULimit, "cores the generator may use, for the saturation rule (0: GOMAXPROCS)")
	fs.IntVar(&a.ControlPort, "control-port", a.ControlPort, "the API's control port on loopback")
	fs.DurationVar(&a.ReadyTimeout, "ready-timeout", a.ReadyTimeout, "longest wait for the API to say ready")
	fs.StringVar(&a.Result, "result", a.Result, "where to write the result")
	fs.StringVar(&a.EngineCPUURL, "engine-cpu-url", a.EngineCPUURL, "the engine CPU helper's /sample, read before and after the measured interval (empty: not measured)")
	fs.StringVar(&a.Proc, "proc", a.Proc, "the proc file system of the host's load (and, with -engine-cpu-server, of the engine's processes)")
	fs.StringVar(&a.WrkDir, "wrk-dir", a.WrkDir, "after the warm-up and before the measured load, start the wrk container waiting in this folder and wait for it (empty: no wrk phase)")
	fs.BoolVar(&a.WrkAfter, "wrk-after", a.WrkAfter, "run the wrk phase after the measured load and the API's report in place of before it, then ask for the report and read the file back again")
	fs.DurationVar(&a.WrkTimeout, "wrk-timeout", a.WrkTimeout, "longest wait for the wrk phase")
	fs.StringVar(&a.EngineCPUServer, "engine-cpu-server", a.EngineCPUServer, "serve the engine's CPU at this address instead (the helper, in the host's PID namespace)")
	fs.BoolVar(&a.PodCPU, "pod-cpu", a.PodCPU, "with -engine-cpu-server: each sample also holds the CPU of the processes of the container that owns this pod's network (its ID is this container's host name)")
	fs.StringVar(&a.Foreign, "foreign", a.Foreign, "conduct a run against a service with no control port instead: closed or open (kit/incontainer/foreign)")
	fs.BoolVar(&a.Open, "open", a.Open, "offer the kit's API the open loop at -rate in place of the closed loop (latency from the scheduled send)")
	fs.BoolVar(&a.Vegeta, "vegeta", a.Vegeta, "with -open: before the measured load, vegeta's attacker offers the same rate for the same duration on as many connections")
	fs.Float64Var(&a.Rate, "rate", a.Rate, "with -open or -foreign open: requests per second")
	fs.StringVar(&a.Arrivals, "arrivals", a.Arrivals, "with -open or -foreign open: constant (every 1/rate) or poisson (exponential gaps of mean 1/rate, seeded)")
	fs.StringVar(&a.LogDir, "log-dir", a.LogDir, "with -foreign: the service's log directory, counted after the run")
	fs.DurationVar(&a.Settle, "settle", a.Settle, "with -foreign and -log-dir: wait after the load before counting the files")
	fs.BoolVar(&a.ProbeOnly, "probe-only", a.ProbeOnly, "with -foreign: end once the service answers 2xx")
	fs.StringVar(&a.EngineKind, "engine-kind", a.EngineKind, "with -engine-cpu-server, the engine whose processes to count: docker or podman")
}

// Args are a's command line.
func (a QPSLoadArgs) Args() []string { return argsOf(a.Bind) }

// LineCostArgs are the line-cost measurement's flags: the Go program's
// (cmd/incontainer/linecost), which the Python and Node.js programs take too
// (images/api-python/app/logbench_linecost.py, images/api-node/app/logbench_linecost.js).
// Their defaults are the measurement's own (kit/incontainer/linecost.DefaultArgs).
type LineCostArgs struct {
	Library   string // the library, as --libraries names it
	Line      string // the line's shape, or "default": the library's own
	Ways      string // comma-separated ways to measure
	Lines     int64  // lines per trial
	Trials    int    // trials per way, kept
	Warmup    int    // warm-up trials per way, run first and discarded
	Dir       string // directory for the log files (the run's volume)
	Out       string // file for the JSON document ("-": standard output)
	QueueSize int    // lines the queue way's queue holds
	QueueFull string // when the queue is full: block or drop
}

// Bind declares the flags on fs, each defaulting to a's value and setting it.
func (a *LineCostArgs) Bind(fs *flag.FlagSet) {
	fs.StringVar(&a.Library, "library", a.Library, "the library, as --libraries names it")
	fs.StringVar(&a.Line, "line", a.Line, "the line's shape: text, text-notime, json, json-notime, or default (the library's own)")
	fs.StringVar(&a.Ways, "ways", a.Ways, "comma-separated ways to measure")
	fs.Int64Var(&a.Lines, "lines", a.Lines, "lines per trial")
	fs.IntVar(&a.Trials, "trials", a.Trials, "trials per way, kept")
	fs.IntVar(&a.Warmup, "warmup", a.Warmup, "warm-up trials per way, run first and discarded")
	fs.StringVar(&a.Dir, "dir", a.Dir, "directory for the log files (the run's volume)")
	fs.StringVar(&a.Out, "out", a.Out, `file for the JSON document ("-": standard output)`)
	fs.IntVar(&a.QueueSize, "queue-size", a.QueueSize, "lines the queue way's queue holds")
	fs.StringVar(&a.QueueFull, "queue-full", a.QueueFull, "when the queue is full: block or drop")
}

// Args are a's command line.
func (a LineCostArgs) Args() []string { return argsOf(a.Bind) }

// Seconds is a duration given in seconds as a duration, to the nanosecond: what
// time.ParseDuration makes of the same figure written "%gs".
func Seconds(s float64) time.Duration { return time.Duration(math.Round(s * float64(time.Second))) }
