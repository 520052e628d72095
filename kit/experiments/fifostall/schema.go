package fifostall

// The fifo-stall experiment's bundle: its files and their columns, how each figure is
// derived from what a run observed (derive.go, figures.go, conditions.go), and its
// declaration on the kit's table-driven bundle (declaration.go), which writes it and
// verifies it, every figure recomputed from the rows, then holds it to fifo-stall's
// rules (verify_*.go).

import (
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// File names inside a bundle.
const (
	RequestsFile   = "requests.csv"
	RunsFile       = "runs.csv"
	TimelineFile   = "timeline.csv"
	ContainersFile = "containers.csv"
	ConditionsFile = "conditions.csv"
)

// Name is the experiment's name, which its manifests carry (a manifest written before
// the kit had several experiments names none, and is this one's).
const Name = "fifo-stall"

// RequestRow is one measured request (requests.csv). Phase times count from the
// request's scheduled send time.
type RequestRow struct {
	RunID            string     `csv:"run_id" doc:"The run's identifier, unique in the bundle; runs.csv has its condition."`
	Seq              int64      `csv:"seq" unit:"1" numbered:"0,1" doc:"The request's sequence number in its run, from 0."`
	ScheduledUTC     string     `csv:"scheduled_utc" doc:"When the request was scheduled to be sent, UTC, RFC 3339 with nanoseconds."`
	ScheduledOffsetS float64    `csv:"scheduled_offset_s" unit:"s" doc:"Scheduled send time from the run's first scheduled send."`
	SentMs           float64    `csv:"sent_ms" unit:"ms" absent:"0" doc:"Send lag: from the scheduled time to the actual send. Latency counts from the schedule, so this is part of it; 0 when the request was not sent."`
	ConnectedMs      float64    `csv:"connected_ms" unit:"ms" absent:"0" atleast:"sent_ms" doc:"Connection established, from the scheduled send; 0 when it was not (an error before it)."`
	FirstByteMs      float64    `csv:"first_byte_ms" unit:"ms" absent:"0" atleast:"connected_ms,sent_ms" doc:"First response byte, from the scheduled send; 0 when none came."`
	LatencyMs        float64    `csv:"latency_ms" unit:"ms" absent:"0" atleast:"first_byte_ms,connected_ms,sent_ms" doc:"End of the response body, from the scheduled send (open-loop latency); 0 when it did not end."`
	Status           bundle.Opt `csv:"status" unit:"1" doc:"HTTP status; missing when no response arrived (0 in bundles written before)."`
	Error            string     `csv:"error" doc:"What went wrong with the request; empty (missing) when nothing did."`
	SpanGenerateUs   float64    `csv:"span_generate_us" unit:"us" doc:"Time the API spent generating the log record, as it measured itself; 0 when the mode generates none."`
	SpanLogCallUs    float64    `csv:"span_log_call_us" unit:"us" doc:"Time the API's log call took, as it measured itself; 0 when the mode logs nothing."`
}

// RunRow is one run (runs.csv). An Opt figure that could not be computed (no
// request, no sample) is an empty field.
type RunRow struct {
	RunID  string `csv:"run_id" doc:"The run's identifier, unique in the bundle; runs.csv has its condition."`
	API    string `csv:"api" doc:"The API implementation: go (net/http) or python (the article's asyncio API)."`
	Mode   string `csv:"mode" doc:"The logging mode (none, short1, short10, json-only, json-prebuilt-sync, json-sync, json-queue)."`
	Reader string `csv:"reader" doc:"The FIFO reader: fast (unbounded) or slow (bounded; the manifest's parameters.reader_bounds_bytes_per_s, where 0 means unbounded)."`
	tabular.RunPlace
	// A run whose send lag was over the bound is redone: the superseded attempt is
	// kept, and left out of conditions.csv; a bundle written before has attempt 0.
	tabular.Attempted
	Verified      bool   `csv:"verified" doc:"true when the run is data: every container exited cleanly and every log byte was read (the SHA-256 of writer and reader agree)."`
	Failure       string `csv:"failure" doc:"Why the run is not data; empty (missing) when it is."`
	StopCondition string `csv:"stop_condition" doc:"The stop condition that ended the run early (max run time, max log bytes); empty when none did."`

	Requests     int        `csv:"requests" unit:"1" doc:"Measured requests."`
	Errors       int        `csv:"errors" unit:"1" doc:"Requests that failed or got a status other than 200."`
	P50Ms        bundle.Opt `csv:"p50_ms" unit:"ms" doc:"Median latency of the run's requests, nearest rank; missing without requests."`
	P99Ms        bundle.Opt `csv:"p99_ms" unit:"ms" atleast:"p50_ms" doc:"99th-percentile latency of the run's requests, nearest rank; missing without requests."`
	MeanMs       bundle.Opt `csv:"mean_ms" unit:"ms" doc:"Mean latency; missing without requests."`
	MaxMs        bundle.Opt `csv:"max_ms" unit:"ms" atleast:"p99_ms,mean_ms" doc:"Largest latency; missing without requests."`
	SendLagP99Ms bundle.Opt `csv:"send_lag_p99_ms" unit:"ms" doc:"99th percentile of the send lag (sent_ms); missing without requests."`
	// SendLagTrusted is false when the send lag's p99 exceeded the bound of the
	// parameters (max_send_lag_p99_ms): the latencies carry an error that large.
	SendLagTrusted bool `csv:"send_lag_trusted" doc:"true when send_lag_p99_ms kept within the manifest's parameters.max_send_lag_p99_ms: the latencies carry no error that large."`

	BytesGenerated int64  `csv:"bytes_generated" unit:"bytes" doc:"Log bytes the API generated."`
	BytesWritten   int64  `csv:"bytes_written" unit:"bytes" doc:"Log bytes the API wrote to the FIFO."`
	BytesRead      int64  `csv:"bytes_read" unit:"bytes" doc:"Log bytes the reader read."`
	LinesWritten   int64  `csv:"lines_written" unit:"1" doc:"Log lines written."`
	LinesRead      int64  `csv:"lines_read" unit:"1" doc:"Log lines read."`
	SHA256Writer   string `csv:"sha256_writer" doc:"SHA-256 of every byte written, hex; empty when nothing was."`
	SHA256Reader   string `csv:"sha256_reader" doc:"SHA-256 of every byte read, hex; equal to sha256_writer when no byte was lost."`
	QueueDrops     int64  `csv:"queue_drops" unit:"1" doc:"Records a non-blocking queue dropped."`

	SpanGenerateMeanUs bundle.Opt `csv:"span_generate_mean_us" unit:"us" doc:"Mean of span_generate_us; missing without requests."`
	SpanLogCallMeanUs  bundle.Opt `csv:"span_log_call_mean_us" unit:"us" doc:"Mean of span_log_call_us; missing without requests."`

	LoadDurationS   float64 `csv:"load_duration_s" unit:"s" doc:"The configured load duration."`
	ToLastResponseS float64 `csv:"to_last_response_s" unit:"s" doc:"From the first scheduled send to the later of the load's end and the last response."`
	ToLogsReadS     float64 `csv:"to_logs_read_s" unit:"s" doc:"From the first scheduled send until, also, every log byte was read."`
	DrainS          float64 `csv:"drain_s" unit:"s" doc:"From the last response until every log byte was read; 0 when the reader kept up."`
	BacklogMaxBytes int64   `csv:"backlog_max_bytes" unit:"bytes" doc:"Largest gap between bytes generated and bytes read (timeline.csv)."`

	APICPUCores            float64 `csv:"api_cpu_cores" unit:"cores" doc:"Mean CPU the API's cgroup used, from the reset after warm-up to the last response."`
	APICPUThrottledPeriods int64   `csv:"api_cpu_throttled_periods" unit:"1" doc:"CFS periods in which the API was throttled."`
	ReaderRateBytesPerS    float64 `csv:"reader_rate_bytes_per_s" unit:"bytes/s" doc:"The reader's achieved rate, first to last read."`
	PipeCapacityBytes      int64   `csv:"pipe_capacity_bytes" unit:"bytes" doc:"The FIFO's capacity as the kernel reported it."`

	HostCPUMedianPct bundle.Opt `csv:"host_cpu_median_pct" unit:"%" doc:"Median whole-host CPU use, sampled about once a second; missing without samples."`
	HostCPUMaxPct    bundle.Opt `csv:"host_cpu_max_pct" unit:"%" doc:"Largest whole-host CPU use sampled; missing without samples."`
	HostLoad1Max     bundle.Opt `csv:"host_load1_max" unit:"1" doc:"Largest 1-minute load average sampled; missing without samples."`
	// Host noise over the measured load: the share of the host's CPU time the
	// hypervisor stole (/proc/stat), and the share of the time some runnable task
	// waited for a CPU (/proc/pressure/cpu "some"; empty where the kernel has no
	// PSI). HostNoisy is HostNoisy(steal, pressure): past NoisyStealPct or
	// NoisyCPUPressurePct.
	HostStealPct       bundle.Opt `csv:"host_steal_pct" later:"it measured the host's noise" unit:"%" doc:"CPU time stolen by the hypervisor over the run; missing where the host does not report it."`
	HostCPUPressurePct bundle.Opt `csv:"host_cpu_pressure_pct" later:"it measured the host's noise" unit:"%" doc:"CPU pressure (PSI some avg10) over the run; missing where the kernel does not report it."`
	HostNoisy          bool       `csv:"host_noisy" later:"it measured the host's noise" doc:"true when steal or CPU pressure passed the kit's noise thresholds: other work shared the host."`

	InherentS float64 `csv:"inherent_s" later:"it timed its own cost per run" unit:"s" doc:"From the first warm-up send until every log byte was read."`
	OverheadS float64 `csv:"overhead_s" later:"it timed its own cost per run" unit:"s" doc:"wall_s - inherent_s: the kit's own cost."`
}

// ContainerRow is one container of one run (containers.csv): its limits as the kernel
// applied them and its counters over the measured interval.
type ContainerRow struct {
	RunID            string  `csv:"run_id" doc:"The run's identifier, unique in the bundle; runs.csv has its condition."`
	Role             string  `csv:"role" doc:"The container's role: api, reader, loadgen or client (reader and load generator together)."`
	CgroupVersion    int     `csv:"cgroup_version" unit:"1" doc:"The cgroup version the container's limits were read from: 1 or 2 (an integer)."`
	CPULimitCores    float64 `csv:"cpu_limit_cores" unit:"cores" doc:"CPU limit as applied; 0 means none."`
	MemoryLimitBytes int64   `csv:"memory_limit_bytes" unit:"bytes" doc:"Memory limit as applied; 0 means none."`
	SwapLimitBytes   int64   `csv:"swap_limit_bytes" unit:"bytes" signed:"true" doc:"Swap allowed on top of memory, as applied: 0 means none (the kit's setting); -1 means unlimited; cgroup v1 reports memory+swap, converted here."`
	IntervalS        float64 `csv:"interval_s" unit:"s" doc:"The interval the counters cover."`
	CPUUsedNs        int64   `csv:"cpu_used_ns" unit:"ns" doc:"CPU time used over the interval."`
	CPUCores         float64 `csv:"cpu_cores" unit:"cores" doc:"cpu_used_ns over interval_s."`
	CPUPeriods       int64   `csv:"cpu_periods" unit:"1" doc:"CFS periods elapsed."`
	CPUThrottled     int64   `csv:"cpu_throttled_periods" unit:"1" doc:"CFS periods in which the container was throttled."`
	CPUThrottledMs   float64 `csv:"cpu_throttled_ms" unit:"ms" doc:"Time throttled."`
	MemoryPeakBytes  int64   `csv:"memory_peak_bytes" unit:"bytes" doc:"Peak memory use."`
	ExitCode         int     `csv:"exit_code" unit:"1" signed:"true" doc:"The container's exit code."`
	OOMKilled        bool    `csv:"oom_killed" doc:"true when the kernel killed it for memory."`
	// The process's privileges as it read them itself; empty when not reported.
	UID          string `csv:"uid" doc:"The user id the process ran as, as it read it itself; empty when not reported."`
	CapEffective string `csv:"cap_effective" doc:"Effective capabilities, a hex bitmap (0: none); empty when not reported."`
	NoNewPrivs   string `csv:"no_new_privs" doc:"The no_new_privs flag (1: set); empty when not reported."`
	RootReadOnly string `csv:"root_read_only" doc:"Whether the root file system was read-only (true/false); empty when not reported."`
	// Its process limits as it read them itself (soft/hard); empty when not reported.
	NoFileLimit string `csv:"nofile_limit" later:"the containers reported their process limits" unit:"1" doc:"RLIMIT_NOFILE as the process read it (soft/hard; -1: unlimited); empty when not reported."`
	NProcLimit  string `csv:"nproc_limit" later:"the containers reported their process limits" unit:"1" doc:"RLIMIT_NPROC as the process read it (soft/hard; -1: unlimited); empty when not reported."`
	PidsMax     string `csv:"pids_max" later:"the containers reported their process limits" unit:"1" doc:"The pids controller's limit of its cgroup as the process read it (-1: max); empty when not reported or not readable."`
}

// TimelineRow is one sample of a cumulative byte count (timeline.csv): series
// "generated" is the API's, one per record; "read" is the reader's, one per read.
type TimelineRow struct {
	RunID   string  `csv:"run_id" doc:"The run's identifier, unique in the bundle; runs.csv has its condition."`
	Series  string  `csv:"series" doc:"generated (the API's records) or read (the reader's reads)."`
	OffsetS float64 `csv:"offset_s" unit:"s" doc:"From the run's first scheduled send."`
	Bytes   int64   `csv:"bytes" unit:"bytes" doc:"Cumulative bytes of the series at offset_s."`
}

// Manifest describes a bundle of the fifo-stall experiment (manifest.json): what every
// bundle has, the experiment's parameters, and the instrument's calibration.
type Manifest struct {
	bundle.Common
	Parameters  Params       `json:"parameters"`
	Calibration *Calibration `json:"calibration,omitempty"`
}

// Head, Params, SetParams and Rounds make it the tabular kit's manifest; the rounds are
// among the parameters, as every fifo-stall bundle records them. Params reach back to it:
// a plan's calibration is recorded beside them.
func (m *Manifest) Head() *bundle.Common { return &m.Common }
func (m *Manifest) Params() *Params      { m.Parameters.m = m; return &m.Parameters }
func (m *Manifest) Rounds() *int         { return &m.Parameters.Rounds }

// SetParams records a plan's parameters, keeping the rounds the plan set.
func (m *Manifest) SetParams(p *Params) {
	rounds := m.Parameters.Rounds
	m.Parameters = *p
	m.Parameters.Rounds = rounds
}

// Calibrated records the instrument's calibration in the manifest of the parameters p
// (none when p is of no manifest).
func (p *Params) Calibrated(c *Calibration) {
	if p.m != nil {
		p.m.Calibration = c
	}
}

// Params are the settings every run of the bundle shared.
type Params struct {
	APIs           []string `json:"apis"`
	Modes          []string `json:"modes"`
	Readers        []string `json:"readers"`
	Rounds         int      `json:"rounds"`
	RateRPS        float64  `json:"rate_rps"`
	DurationS      float64  `json:"duration_s"`
	WarmupRequests int      `json:"warmup_requests"`
	// ReaderBounds maps each reader kind to its bound in bytes/s (0: none).
	ReaderBounds  map[string]int64 `json:"reader_bounds_bytes_per_s"`
	ReadBytes     int              `json:"read_bytes"`
	QueueCapacity int              `json:"queue_capacity_records"`
	MaxRunTimeS   float64          `json:"max_run_time_s"`
	MaxLogBytes   int64            `json:"max_log_bytes"`
	// MaxSendLagP99Ms is the send-lag p99 above which a run's latencies are flagged
	// as not trustworthy.
	MaxSendLagP99Ms float64 `json:"max_send_lag_p99_ms"`
	// Retries is how many times a run whose send lag was over the bound is performed
	// again (absent: none, as before the kit redid runs).
	Retries int `json:"retries,omitempty"`
	// ClientTopology says where the reader and the load generator ran: "shared", one
	// client container with one budget (Limits.Loadgen*) for both, as published;
	// "split", a container each with its own limits. Absent: split, the only topology
	// before the kit offered the shared one.
	ClientTopology string `json:"client_topology,omitempty"`
	Limits         Limits `json:"limits"`
	Platform       string `json:"platform"`

	// Calibrate has reproduce measure the instrument first (--calibrate); the
	// manifest's calibration says whether it did.
	Calibrate bool `json:"-"`

	m *Manifest // the manifest that holds them (Manifest.Params), where a plan records its calibration
}

// Limits are the requested container limits, the kit's and the reader's;
// containers.csv has them as applied.
type Limits struct {
	experiment.Limits
	ReaderCPUs        float64 `json:"reader_cpus"`
	ReaderMemoryBytes int64   `json:"reader_memory_bytes"`
}

// Calibration is the instrument's own precision and speed on the engine, measured inside
// the same limits just before the runs (logbench calibrate).
type Calibration struct {
	RateRPS float64 `json:"rate_rps"`
	// The load generator's send lag at the configured rate (latency counts from the
	// schedule, so this is the error of every latency).
	SendLagP50Ms float64 `json:"send_lag_p50_ms"`
	SendLagP99Ms float64 `json:"send_lag_p99_ms"`
	SendLagMaxMs float64 `json:"send_lag_max_ms"`
	// The slow reader's achieved rate against its bound, saturated by json-queue.
	ReaderBoundBytesPerS    int64   `json:"reader_bound_bytes_per_s"`
	ReaderAchievedBytesPerS float64 `json:"reader_achieved_bytes_per_s"`
	PipeCapacityBytes       int64   `json:"pipe_capacity_bytes"`
	// The load generator's clock and timers, inside its container.
	ClockResolutionNs   int64   `json:"clock_resolution_ns"`
	SleepOvershootP50Us float64 `json:"sleep_overshoot_p50_us"`
	SleepOvershootP99Us float64 `json:"sleep_overshoot_p99_us"`
	// The kit's own cost per run: create, start, stop, remove, copy the result out.
	RunOverheadS float64 `json:"run_overhead_s"`
	// ImageBuildS is how long finding or building the images took.
	ImageBuildS float64 `json:"image_build_s"`
	// The highest open-loop rate the load generator holds (send-lag p99 within
	// CapacityLagBoundMs, no errors) on CapacityCPUs against the API in mode none.
	CapacityRPS        float64        `json:"capacity_rps"`
	CapacityCPUs       float64        `json:"capacity_cpus"`
	CapacityLagBoundMs float64        `json:"capacity_lag_bound_ms"`
	Sweep              []SweepStepRow `json:"sweep"`
}

// SweepStepRow is one rate of the capacity sweep: the send-lag p99 of each trial, and
// whether most trials held the bound with no error.
type SweepStepRow struct {
	RateRPS  float64   `json:"rate_rps"`
	Errors   int       `json:"errors"`
	LagP99Ms []float64 `json:"lag_p99_ms"`
	Held     bool      `json:"held"`
}
