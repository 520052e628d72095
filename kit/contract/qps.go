package contract

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
)

// The qps experiment's documents: what its conductor (cmd/incontainer/qpsload, with
// kit/incontainer/closedloop) leaves in the run's volume, the API's /report it asks
// for, and the engine CPU helper's samples; the host decodes them into the bundle.

// SaturationShare is the closed loop's saturation rule: the generator counts as
// saturated (it may have been the bottleneck) when its own CPU time over the measured
// interval is at least this share of the cores it can use.
const SaturationShare = 0.9

// ClosedLoopResult is one closed-loop load's outcome (kit/incontainer/closedloop).
// Counts are of the measured interval unless a name says otherwise; a request belongs
// to the interval in which its response completed (or its failure was seen).
type ClosedLoopResult struct {
	URL         string  `json:"url"`
	Connections int     `json:"connections"`
	Pipelining  int     `json:"pipelining"`
	WarmupS     float64 `json:"warmup_s"`
	DurationS   float64 `json:"duration_s"`    // as asked
	StartUnixNs int64   `json:"start_unix_ns"` // start of the measured interval
	MeasuredS   float64 `json:"measured_s"`    // as it ran (shorter if interrupted)

	// Requests is the number of responses completed, whatever their status.
	Requests  int64 `json:"requests"`
	Status2xx int64 `json:"status_2xx"`
	Non2xx    int64 `json:"non_2xx"`
	// Errors are requests that got no response (a failed connection, a timeout, a
	// malformed response, a connection closed with requests in flight) plus failed
	// connects, one each. Timeouts are the part of them that timed out.
	Errors       int64  `json:"errors"`
	Timeouts     int64  `json:"timeouts"`
	WarmupErrors int64  `json:"warmup_errors"`
	ErrorSample  string `json:"error_sample,omitempty"` // the first error, any phase
	Connects     int64  `json:"connects"`               // successful dials, all phases
	BytesRead    int64  `json:"bytes_read"`             // response bytes, all phases

	// All phases: every request written, every response completed, and the requests
	// still unanswered when the load stopped (neither responses nor errors).
	SentTotal      int64 `json:"sent_total"`
	ResponsesTotal int64 `json:"responses_total"`
	InFlightAtEnd  int64 `json:"in_flight_at_end"`

	// RequestsPerSecond counts the responses completed in each second of the measured
	// interval; the last entry covers less than a second when the interval is not a
	// whole number of seconds. The entries sum to Requests.
	RequestsPerSecond []int64 `json:"requests_per_second"`
	// RequestsPerSMean is autocannon's requests/s: the mean of the whole seconds'
	// counts (the requests over the interval if it is shorter than a second).
	RequestsPerSMean  float64 `json:"requests_per_s_mean"`
	RequestsPerSStdev float64 `json:"requests_per_s_stdev"` // population, whole seconds
	// RequestsPerSInterval is Requests over MeasuredS.
	RequestsPerSInterval float64 `json:"requests_per_s_over_interval"`

	// Latency from a request's send to the last byte of its response, over the
	// responses of the measured interval; percentiles by the kit's nearest-rank rule.
	// All 0 when there was no response.
	LatencyMeanMs float64 `json:"latency_mean_ms"`
	LatencyP50Ms  float64 `json:"latency_p50_ms"`
	LatencyP90Ms  float64 `json:"latency_p90_ms"`
	LatencyP99Ms  float64 `json:"latency_p99_ms"`
	LatencyMaxMs  float64 `json:"latency_max_ms"`

	// The generator's own CPU (user + system, all its threads) over the measured
	// interval, and the saturation rule: GeneratorSaturated when GeneratorCPUCores is
	// at least SaturationShare of GeneratorCPULimitCores, the cores it can use:
	// CPULimitCores or GOMAXPROCS, and no more than Connections (one goroutine each).
	GeneratorCPUS            float64 `json:"generator_cpu_s"`
	GeneratorCPUCores        float64 `json:"generator_cpu_cores"`
	GeneratorCPULimitCores   float64 `json:"generator_cpu_limit_cores"`
	GeneratorCPUNsPerRequest float64 `json:"generator_cpu_ns_per_request"`
	GeneratorSaturated       bool    `json:"generator_saturated"`
	GOMAXPROCS               int     `json:"gomaxprocs"`
}

// StreamCount is lines, bytes and SHA-256 of a byte stream.
type StreamCount struct {
	Lines  int64  `json:"lines"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// CountStream counts b.
func CountStream(b []byte) StreamCount {
	sum := sha256.Sum256(b)
	var lines int64
	for _, c := range b {
		if c == '\n' {
			lines++
		}
	}
	return StreamCount{Lines: lines, Bytes: int64(len(b)), SHA256: hex.EncodeToString(sum[:])}
}

// AccessLogSink is one access-log sink as the API counted it: since the reset after the
// warm-up, and in Total since the process started.
type AccessLogSink struct {
	StreamCount
	WriteErrors int64       `json:"write_errors"`
	Failure     string      `json:"failure"`
	Total       StreamCount `json:"total"`
	// The file sink only: the file, where the counted bytes begin in it, bytes handed
	// over but not yet written when reported, and the date changes since the reset.
	Path             string `json:"path,omitempty"`
	StartOffsetBytes int64  `json:"start_offset_bytes,omitempty"`
	PendingBytes     int64  `json:"pending_bytes,omitempty"`
	Rotations        int    `json:"rotations,omitempty"`
}

// AccessLogReport is the API's /report document (images/api-node, and the Go and
// Python APIs in their access-log configurations).
type AccessLogReport struct {
	Implementation string                   `json:"implementation"`
	Runtime        string                   `json:"runtime"`
	Versions       map[string]string        `json:"versions"`
	Config         string                   `json:"config"`
	Requests       int64                    `json:"requests"` // answered since the reset
	Sinks          map[string]AccessLogSink `json:"sinks"`
	Usage          struct {
		SinceResetMs float64 `json:"since_reset_ms"`
		CPUUserUs    int64   `json:"cpu_user_us"`
		CPUSystemUs  int64   `json:"cpu_system_us"`
		RSSBytes     int64   `json:"rss_bytes"`
	} `json:"usage"`
}

// FileReadback is the log file as the conductor read it from the shared volume: the
// whole file, and its bytes from the sink's start offset (the measured interval's).
type FileReadback struct {
	Path       string      `json:"path"`
	Whole      StreamCount `json:"whole"`
	FromOffset StreamCount `json:"from_offset"`
	Failure    string      `json:"failure,omitempty"`
}

// QPSResult is a qps run's result file.
type QPSResult struct {
	Warmup ClosedLoopResult `json:"warmup"`
	Load   ClosedLoopResult `json:"load"`
	// Open is the measured load of an open-loop run (QPSLoadArgs.Open), whose Warmup
	// and Load are then empty but for the requests the warm-up sent.
	Open *OpenLoopResult  `json:"open,omitempty"`
	API  *AccessLogReport `json:"api,omitempty"`
	File *FileReadback    `json:"file,omitempty"`
	// Engine is the engine's own CPU over the measured interval (nil: not asked for).
	Engine *EngineCPU `json:"engine,omitempty"`
	// Host is how busy the whole host was over the measured interval, and its CPUs.
	Host     *HostSample `json:"host,omitempty"`
	HostCPUs int         `json:"host_cpus"`
	// Vegeta is the vegeta phase of a capacity step, between the warm-up and the measured
	// load (nil: not asked for): vegeta's own attacker and the kit's open loop at once,
	// each at half the step's rate on half its connections, so that the two measure the
	// same seconds of the same API; VegetaKit is the kit's half.
	Vegeta    *VegetaRun      `json:"vegeta,omitempty"`
	VegetaKit *OpenLoopResult `json:"vegeta_kit,omitempty"`
	// Wrk is the wrk phase between the warm-up and the measured load (nil: not asked
	// for), and WrkHost how busy the whole host was over it.
	Wrk     *WrkRun     `json:"wrk,omitempty"`
	WrkHost *HostSample `json:"wrk_host,omitempty"`
	// WrkAfterKit says wrk ran after the kit's measured load (ConductParams.WrkAfter);
	// then APIAfterWrk is the API's report and FileAfterWrk the file read back once wrk
	// ended, whose totals include wrk's lines.
	WrkAfterKit  bool             `json:"wrk_after_kit,omitempty"`
	APIAfterWrk  *AccessLogReport `json:"api_after_wrk,omitempty"`
	FileAfterWrk *FileReadback    `json:"file_after_wrk,omitempty"`
	// ReadyAfterS is how long the API took to say ready.
	ReadyAfterS float64 `json:"ready_after_s"`
	// Failure says why the run is not data ("" when nothing went wrong here).
	Failure string `json:"failure,omitempty"`
}

// Files of the wrk phase in the shared volume.
const (
	WrkStartFIFO = "wrk.start"
	WrkOutput    = "wrk.out"
	WrkExit      = "wrk.exit" // written last: its presence says wrk ended
)

// WrkRun is what the wrk phase left: wrk's whole output (stdout and stderr), its exit
// status, and when it ran.
type WrkRun struct {
	Output   string  `json:"output"`
	ExitCode int     `json:"exit_code"`
	WallS    float64 `json:"wall_s"` // from the conductor's start signal to wrk's exit file
	Failure  string  `json:"failure,omitempty"`
}

// EngineProcess is one of the engine's processes, its CPU time so far and its resident
// memory at the sample.
type EngineProcess struct {
	PID  int     `json:"pid"`
	Comm string  `json:"comm"`
	CPUS float64 `json:"cpu_s"` // user + system since the process started
	// RSSBytes is the process's resident set (/proc/<pid>/stat's rss times the page
	// size); absent in samples taken before the kit read it.
	RSSBytes int64 `json:"rss_bytes,omitempty"`
}

// EngineSample is every engine process at one moment.
type EngineSample struct {
	UnixNano  int64           `json:"unix_ns"`
	Processes []EngineProcess `json:"processes"`
	// Pod are the processes of one container of the pod (the foreign API's), when the
	// helper was asked for them (EngineHandlerWithPod).
	Pod []EngineProcess `json:"pod,omitempty"`
}

// EngineDaemons are the processes of a sample that are an engine's daemon, the one
// that holds a log driver's buffers: Docker's dockerd, Podman's service (a sample holds
// no other podman process; see EngineProcessesOf).
var EngineDaemons = []string{"dockerd", "podman"}

// DaemonRSSBytes is the resident memory of a sample's daemon processes (EngineDaemons),
// summed.
func (s EngineSample) DaemonRSSBytes() int64 {
	var sum int64
	for _, p := range s.Processes {
		if slices.Contains(EngineDaemons, p.Comm) {
			sum += p.RSSBytes
		}
	}
	return sum
}

// EngineProcessesOf says which processes are the engine's, by kind: for Docker
// dockerd, containerd and the shims (containerd-shim, containerd-shim-runc-v2, both
// "containerd-shim" as comm); for Podman each container's conmon (which carries its
// stdout to the log driver) and the API service (podman system service), not other
// podman commands. "" for a kind it does not know.
func EngineProcessesOf(kind string) string {
	switch kind {
	case EngineDocker:
		return "dockerd, containerd and the shims (containerd-shim*)"
	case EnginePodman:
		return "conmon and the service (podman system service)"
	}
	return ""
}

// EngineCPU is the engine's CPU over the measured interval.
type EngineCPU struct {
	IntervalS float64 `json:"interval_s"`
	// CPUS is the CPU time the engine's processes used between the two samples, summed
	// over the processes present in both.
	CPUS float64 `json:"cpu_s"`
	// ByComm splits CPUS by process name.
	ByComm map[string]float64 `json:"by_comm"`
	// PodCPUS is the CPU time the sampled container's processes used between the two
	// samples: those present in both, and those started in between whole.
	PodCPUS float64      `json:"pod_cpu_s,omitempty"`
	Before  EngineSample `json:"before"`
	After   EngineSample `json:"after"`
	Failure string       `json:"failure,omitempty"`
}

// VegetaRun is what vegeta (github.com/tsenart/vegeta, its attacker and its metrics)
// measured of the API at a capacity step's rate, as an independent open loop beside the
// kit's: its latencies count from its own send, its quantiles are its own estimates.
type VegetaRun struct {
	RateRPS     float64 `json:"rate_rps"`
	DurationS   float64 `json:"duration_s"`
	Connections int     `json:"connections"`
	Requests    uint64  `json:"requests"`
	// Success is the share of requests answered 2xx (vegeta's success ratio, 0 to 1).
	Success       float64 `json:"success"`
	ThroughputRPS float64 `json:"throughput_rps"`
	P50Ms         float64 `json:"p50_ms"`
	P90Ms         float64 `json:"p90_ms"`
	P99Ms         float64 `json:"p99_ms"`
	MaxMs         float64 `json:"max_ms"`
	ErrorSample   string  `json:"error_sample,omitempty"`
	Failure       string  `json:"failure,omitempty"`
}
