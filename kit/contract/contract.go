// Package contract is the one agreement between the programs inside a run's containers
// and the kit on the host: the JSON documents that cross the container boundary (the
// control documents, the conductor's result, cgroup and process snapshots, host samples)
// and what the engine says of a run's containers. It imports only the standard library,
// so the offline commands that read bundles never link the engine's client.
package contract

import (
	"net/http"
	"time"
)

// RunDir is where every image has the mount point of the run's shared volume, owned by
// the unprivileged user the containers run as, so that a fresh volume inherits it; User
// is that uid:gid. The images' Dockerfiles say both too.
const (
	RunDir = "/run/logbench"
	User   = "65532:65532"
)

// Loopback ports inside a run's network namespace.
const (
	WorkloadPort   = 8080 // the API's request path
	APIControlPort = 9001
	ReaderPort     = 9002
)

// Paths served on a control port.
const (
	PathStatus = "/status" // GET: counters and cgroup, cheap enough to poll
	PathReset  = "/reset"  // POST: start all counts again
	PathReport = "/report" // GET: everything, once at the end of a run
)

// SeqHeader carries the load generator's request number, so that the API's spans can
// be joined to the client's observations.
const SeqHeader = "X-Logbench-Seq"

// Exit statuses of the conductor's process, which the kit reads.
const (
	ExitVerified  = 0
	ExitNoResult  = 1
	ExitRunFailed = 3 // the result is written, and says why the run failed
)

// Counts are a byte stream as the experiment verifies it: bytes, newlines and SHA-256.
type Counts struct {
	Bytes  int64  `json:"bytes"`
	Lines  int64  `json:"lines"`
	SHA256 string `json:"sha256"`
}

// Sample is one point of a cumulative byte count over time.
type Sample struct {
	UnixNano int64 `json:"unix_ns"`
	Bytes    int64 `json:"bytes"`
}

// Counters are what a log sink has seen since its last reset.
type Counters struct {
	Generated   Counts `json:"generated"`
	Written     Counts `json:"written"`
	QueueDrops  int64  `json:"queue_drops"`
	WriteErrors int64  `json:"write_errors"`
	// Failure says why the sink can no longer be trusted ("" while it can).
	Failure string `json:"failure"`
}

// CgroupSnapshot is one reading of a process's own cgroup.
type CgroupSnapshot struct {
	UnixNano      int64 `json:"unix_ns"`
	CgroupVersion int   `json:"cgroup_version"`
	// Limits as read back; 0 means unlimited.
	CPULimitCores    float64 `json:"cpu_limit_cores"`
	MemoryLimitBytes int64   `json:"memory_limit_bytes"`
	// SwapLimitBytes is the swap a container may use beyond its memory limit; -1 when
	// the kernel does not account swap.
	SwapLimitBytes int64 `json:"swap_limit_bytes"`
	// Counters since the cgroup was created.
	CPUUsageNanos     int64 `json:"cpu_usage_ns"`
	CPUPeriods        int64 `json:"cpu_periods"`
	CPUThrottled      int64 `json:"cpu_throttled_periods"`
	CPUThrottledNanos int64 `json:"cpu_throttled_ns"`
	MemoryUsageBytes  int64 `json:"memory_usage_bytes"`
	MemoryPeakBytes   int64 `json:"memory_peak_bytes"`
}

// MeanCores is the CPU used between two snapshots, in cores.
func MeanCores(from, to CgroupSnapshot) float64 {
	wall := to.UnixNano - from.UnixNano
	if wall <= 0 {
		return 0
	}
	return float64(to.CPUUsageNanos-from.CPUUsageNanos) / float64(wall)
}

// ProcessFacts are one process's privileges as the kernel sees them. Present is false
// when they were not reported (an API implementation that does not report them).
type ProcessFacts struct {
	Present      bool   `json:"present"`
	UID          int    `json:"uid"`
	GID          int    `json:"gid"`
	CapEffective uint64 `json:"cap_effective"` // bitmap; 0 means no capability
	NoNewPrivs   bool   `json:"no_new_privs"`
	RootReadOnly bool   `json:"root_read_only"`
	// Limits are its process limits; absent from programs that did not read them.
	Limits *Rlimits `json:"limits,omitempty"`
}

// HostSample is one reading of the whole host. CPUBusyPct is the host's CPU utilisation
// since the previous sample, over all CPUs; StealPct the share of the CPU time the
// hypervisor gave to someone else (steal in /proc/stat) over the same interval.
// CPUPressure is the kernel's pressure stall information for CPUs
// (/proc/pressure/cpu, "some": at least one runnable task waited for a CPU), absent
// where the kernel has none.
type HostSample struct {
	UnixNano    int64        `json:"unix_ns"`
	CPUBusyPct  float64      `json:"cpu_busy_pct"`
	Load1       float64      `json:"load1"`
	StealPct    float64      `json:"steal_pct"`
	CPUPressure *PSISomeLine `json:"cpu_pressure,omitempty"`
}

// PSISomeLine is the "some" line of a pressure file: averages in percent of wall time,
// and the cumulative stall time in microseconds.
type PSISomeLine struct {
	Avg10   float64 `json:"avg10"`
	TotalUs uint64  `json:"total_us"`
}

// APIStatus is the API's answer to PathStatus.
type APIStatus struct {
	Implementation string         `json:"implementation"` // "go", "python", "node"
	Runtime        string         `json:"runtime"`        // e.g. "go1.26.8", "Python 3.11.2"
	Mode           string         `json:"mode"`
	Ready          bool           `json:"ready"` // the request path is open
	Counters       Counters       `json:"counters"`
	Cgroup         CgroupSnapshot `json:"cgroup"`
	Process        ProcessFacts   `json:"process"`
}

// Span is one request's internal timing inside the API.
type Span struct {
	Seq           int64  `json:"seq"`
	GenerateNanos int64  `json:"generate_ns"`
	LogCallNanos  int64  `json:"log_call_ns"`
	Error         string `json:"error,omitempty"`
}

// APIReport is the API's answer to PathReport.
type APIReport struct {
	APIStatus
	Spans []Span `json:"spans"`
	// Generated is the cumulative count of log bytes generated, one sample per record.
	Generated []Sample `json:"generated"`
}

// ReaderStatus is the reader's answer to PathStatus.
type ReaderStatus struct {
	Counts Counts         `json:"counts"`
	Cgroup CgroupSnapshot `json:"cgroup"`
	// RateBytesPerSec is the reader's pacing limit; 0 means none.
	RateBytesPerSec   int64        `json:"rate_bytes_per_s"`
	PipeCapacityBytes int64        `json:"pipe_capacity_bytes"`
	Process           ProcessFacts `json:"process"`
	Err               string       `json:"error,omitempty"`
	// Account is the lines read since the last reset, line by line; absent unless the
	// reader accounts lines (ReaderArgs.Account).
	Account *LineAccount `json:"account,omitempty"`
}

// ReaderReport is the reader's answer to PathReport.
type ReaderReport struct {
	ReaderStatus
	// Read is the cumulative count of bytes read, one sample per read call.
	Read []Sample `json:"read"`
}

// Observation is what the client saw of one request. Times are Unix nanoseconds; a
// phase that did not happen is 0.
type Observation struct {
	Seq       int64 `json:"seq"`
	Scheduled int64 `json:"scheduled_ns"`
	// Ready is when the request could leave, on a keep-alive connection that was still
	// busy with its previous request at the scheduled time: the end of that request. 0
	// when the connection was free (or new), as it always is with a connection per
	// request: then it is Scheduled.
	Ready     int64  `json:"ready_ns,omitempty"`
	Sent      int64  `json:"sent_ns"`
	Connected int64  `json:"connected_ns"`
	FirstByte int64  `json:"first_byte_ns"`
	Done      int64  `json:"done_ns"`
	Status    int    `json:"status"`
	Err       string `json:"error,omitempty"`
}

// Latency is from the scheduled send to the end of the response body.
func (o Observation) Latency() time.Duration { return time.Duration(o.Done - o.Scheduled) }

// SendLag is how late the generator sent the request once it could leave: against its
// schedule, or against the end of the previous request on its busy connection. It is the
// generator's lateness alone; a slow service shows in QueueWait and Latency instead.
func (o Observation) SendLag() time.Duration { return time.Duration(o.Sent - o.readyAt()) }

// QueueWait is how long the request waited for its keep-alive connection to finish the
// previous one, past its schedule: the service's slowness, counted in Latency.
func (o Observation) QueueWait() time.Duration { return time.Duration(o.readyAt() - o.Scheduled) }

func (o Observation) readyAt() int64 {
	if o.Ready == 0 {
		return o.Scheduled
	}
	return o.Ready
}

// OK reports whether the request succeeded.
func (o Observation) OK() bool { return RequestOK(o.Status, o.Err) }

// RequestOK is the one rule for a request that counts as an error: any status but 200,
// or a transport error. The conductor and verify both apply it.
func RequestOK(status int, err string) bool { return err == "" && status == http.StatusOK }

// TimerFacts are the load generator's clock and timers measured in its container.
type TimerFacts struct {
	ClockResolutionNs   int64   `json:"clock_resolution_ns"`
	SleepOvershootP50Us float64 `json:"sleep_overshoot_p50_us"`
	SleepOvershootP99Us float64 `json:"sleep_overshoot_p99_us"`
}

// RunParams are a run's protocol settings.
type RunParams struct {
	Rate           float64       `json:"rate_rps"`
	Duration       time.Duration `json:"duration_ns"`
	WarmupCount    int           `json:"warmup_requests"`
	RequestTimeout time.Duration `json:"request_timeout_ns"`
	// MaxRunTime is the stop condition on the whole run, from the first readiness
	// check to the end of the drain.
	MaxRunTime time.Duration `json:"max_run_time_ns"`
	// MeasureTimer has the conductor measure its clock and timers before the warm-up.
	MeasureTimer bool `json:"measure_timer"`
	// LossAllowed is for a log path that may lose lines, which the experiment counts
	// (the log-driver experiment): waiting for a drain also ends once the reader's byte
	// count has not grown for QuietPeriod, and bytes read short of those written are
	// not a failure. A corrupted line still is, so the reader must account lines
	// (ReaderArgs.Account).
	LossAllowed bool          `json:"loss_allowed,omitempty"`
	QuietPeriod time.Duration `json:"quiet_period_ns,omitempty"`
}

// Count is the number of measured requests.
func (p RunParams) Count() int { return int(p.Rate*p.Duration.Seconds() + 0.5) }

// Result is everything one run observed, as the conductor writes it. Times are Unix
// nanoseconds.
type Result struct {
	Params   RunParams     `json:"params"`
	Warmup   []Observation `json:"warmup"`
	Requests []Observation `json:"requests"`

	WarmupStart  int64 `json:"warmup_start_ns"`  // first warm-up send
	LoadStart    int64 `json:"load_start_ns"`    // first scheduled send
	LastResponse int64 `json:"last_response_ns"` // end of the last response body
	LogsRead     int64 `json:"logs_read_ns"`     // the reader's read that completed the log; 0 if never
	// LastRead is the reader's last read of the run: with lines lost, the log never
	// completes, and the drain ends here. 0 without a reader or a read.
	LastRead int64 `json:"last_read_ns,omitempty"`

	// Cgroup snapshots: after the reset that follows warm-up, and at the end of the
	// response observation interval (API) or of the run (reader, load generator).
	APIAtReset        CgroupSnapshot `json:"api_at_reset"`
	APIAtLastResponse CgroupSnapshot `json:"api_at_last_response"`
	ReaderAtReset     CgroupSnapshot `json:"reader_at_reset"`
	LoadgenAtReset    CgroupSnapshot `json:"loadgen_at_reset"`
	LoadgenAtEnd      CgroupSnapshot `json:"loadgen_at_end"`
	Loadgen           ProcessFacts   `json:"loadgen_process"`
	Timer             *TimerFacts    `json:"timer,omitempty"`
	// HostLoad samples the whole host about once a second from the reset to the end.
	HostLoad []HostSample `json:"host_load"`
	API      APIReport    `json:"api"`
	Reader   ReaderReport `json:"reader"`
	// Engine is the engine's own CPU from the reset to the end of the drain, as the
	// engine helper sampled it (nil: not asked for); a sample that failed is its
	// Failure, not the run's. EngineRSSPeakBytes is the engine daemon's largest resident
	// memory (EngineSample.DaemonRSSBytes: dockerd, where a log driver's buffers are)
	// over EngineSamples samples of that interval: its two ends and about one a second
	// between them.
	Engine             *EngineCPU `json:"engine,omitempty"`
	EngineRSSPeakBytes int64      `json:"engine_rss_peak_bytes,omitempty"`
	EngineSamples      int        `json:"engine_samples,omitempty"`
	// Failure says why the run cannot count as data ("" when it can); StopCondition
	// names the stop condition that ended it, if one did.
	Failure       string `json:"failure"`
	StopCondition string `json:"stop_condition"`
}

// ProbeResult is what the speed probe measured: Bytes hashed in CPUNanos of one
// thread's CPU time and WallNanos of wall time, and the digest, the same for the same
// work everywhere.
type ProbeResult struct {
	Bytes     int64  `json:"bytes"`
	CPUNanos  int64  `json:"cpu_ns"`
	WallNanos int64  `json:"wall_ns"`
	SHA256    string `json:"sha256"`
	// Requests and Syscalls are the request-path probe's two loops; absent when not
	// run or when the loop failed (Failure says why).
	Requests *RequestLoopResult `json:"requests,omitempty"`
	Syscalls *SyscallLoopResult `json:"syscalls,omitempty"`
	Failure  string             `json:"failure,omitempty"`
}

// RequestLoopResult is the loopback request loop: Requests timed HTTP/1.1 requests over
// Conns connections (1 when keep-alive held), in WallNanos of wall time and CPUNanos of
// the whole process's CPU time (client and server, user and system), and the SHA-256
// of every response body in order, the same for the same work everywhere.
type RequestLoopResult struct {
	Requests  int64  `json:"requests"`
	Conns     int64  `json:"conns"`
	BodyBytes int64  `json:"body_bytes"`
	CPUNanos  int64  `json:"cpu_ns"`
	WallNanos int64  `json:"wall_ns"`
	SHA256    string `json:"sha256"`
}

// SyscallLoopResult is the system-call loop: Calls one-byte writes to /dev/null on one
// thread, Bytes written in all (Calls when every write took its byte), in CPUNanos of
// the thread's CPU time and WallNanos of wall time.
type SyscallLoopResult struct {
	Calls     int64 `json:"calls"`
	Bytes     int64 `json:"bytes"`
	CPUNanos  int64 `json:"cpu_ns"`
	WallNanos int64 `json:"wall_ns"`
}
