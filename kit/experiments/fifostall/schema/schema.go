// Package schema is the fifo-stall experiment's bundle: its files and their columns, how
// each figure is derived from what a run observed, how the bundle is written, and the
// verification that recomputes every figure from the rows.
package schema

import "github.com/logbench/logbench/kit/offline/bundle"

// File names inside a bundle.
const (
	RequestsFile   = "requests.csv"
	RunsFile       = "runs.csv"
	TimelineFile   = "timeline.csv"
	ContainersFile = "containers.csv"
	ConditionsFile = "conditions.csv"
)

// DataFiles are every file of a bundle but SHA256SUMS, which lists them.
var DataFiles = []string{bundle.ManifestFile, RunsFile, RequestsFile, ContainersFile, TimelineFile, ConditionsFile}

// RequestRow is one measured request (requests.csv). Phase times count from the
// request's scheduled send time.
type RequestRow struct {
	RunID            string     `csv:"run_id"`
	Seq              int64      `csv:"seq"`
	ScheduledUTC     string     `csv:"scheduled_utc"`
	ScheduledOffsetS float64    `csv:"scheduled_offset_s"` // from the run's first scheduled send
	SentMs           float64    `csv:"sent_ms"`            // send lag
	ConnectedMs      float64    `csv:"connected_ms"`
	FirstByteMs      float64    `csv:"first_byte_ms"`
	LatencyMs        float64    `csv:"latency_ms"` // end of the response body
	Status           bundle.Opt `csv:"status"`     // absent without a response (0 in bundles written before)
	Error            string     `csv:"error"`
	SpanGenerateUs   float64    `csv:"span_generate_us"`
	SpanLogCallUs    float64    `csv:"span_log_call_us"`
}

// RunRow is one run (runs.csv). An Opt figure that could not be computed (no
// request, no sample) is an empty field.
type RunRow struct {
	RunID      string `csv:"run_id"`
	API        string `csv:"api"`
	Mode       string `csv:"mode"`
	Reader     string `csv:"reader"`
	Round      int    `csv:"round"`
	Position   int    `csv:"position"`
	StartedUTC string `csv:"started_utc"`
	// Attempt counts the performances of this condition and round, from 1; a bundle
	// written before the kit redid runs has 0. Superseded says a later attempt replaced
	// this one (its send lag was over the bound): it is kept, and left out of
	// conditions.csv.
	Attempt       int    `csv:"attempt"`
	Superseded    bool   `csv:"superseded"`
	Verified      bool   `csv:"verified"`
	Failure       string `csv:"failure"`
	StopCondition string `csv:"stop_condition"`

	Requests     int        `csv:"requests"`
	Errors       int        `csv:"errors"`
	P50Ms        bundle.Opt `csv:"p50_ms"`
	P99Ms        bundle.Opt `csv:"p99_ms"`
	MeanMs       bundle.Opt `csv:"mean_ms"`
	MaxMs        bundle.Opt `csv:"max_ms"`
	SendLagP99Ms bundle.Opt `csv:"send_lag_p99_ms"`
	// SendLagTrusted is false when the send lag's p99 exceeded the bound of the
	// parameters (max_send_lag_p99_ms): the latencies carry an error that large.
	SendLagTrusted bool `csv:"send_lag_trusted"`

	BytesGenerated int64  `csv:"bytes_generated"`
	BytesWritten   int64  `csv:"bytes_written"`
	BytesRead      int64  `csv:"bytes_read"`
	LinesWritten   int64  `csv:"lines_written"`
	LinesRead      int64  `csv:"lines_read"`
	SHA256Writer   string `csv:"sha256_writer"`
	SHA256Reader   string `csv:"sha256_reader"`
	QueueDrops     int64  `csv:"queue_drops"`

	SpanGenerateMeanUs bundle.Opt `csv:"span_generate_mean_us"`
	SpanLogCallMeanUs  bundle.Opt `csv:"span_log_call_mean_us"`

	LoadDurationS   float64 `csv:"load_duration_s"`    // as configured
	ToLastResponseS float64 `csv:"to_last_response_s"` // first scheduled send .. later of load end and last response
	ToLogsReadS     float64 `csv:"to_logs_read_s"`     // .. also until every log byte was read
	DrainS          float64 `csv:"drain_s"`            // last response .. every log byte read
	BacklogMaxBytes int64   `csv:"backlog_max_bytes"`

	APICPUCores            float64 `csv:"api_cpu_cores"` // reset after warm-up .. last response
	APICPUThrottledPeriods int64   `csv:"api_cpu_throttled_periods"`
	ReaderRateBytesPerS    float64 `csv:"reader_rate_bytes_per_s"` // achieved, first to last read
	PipeCapacityBytes      int64   `csv:"pipe_capacity_bytes"`

	HostCPUMedianPct bundle.Opt `csv:"host_cpu_median_pct"` // the whole host, sampled about once a second
	HostCPUMaxPct    bundle.Opt `csv:"host_cpu_max_pct"`
	HostLoad1Max     bundle.Opt `csv:"host_load1_max"`
	// Host noise over the measured load: the share of the host's CPU time the
	// hypervisor stole (/proc/stat), and the share of the time some runnable task
	// waited for a CPU (/proc/pressure/cpu "some"; empty where the kernel has no
	// PSI). HostNoisy is HostNoisy(steal, pressure): past NoisyStealPct or
	// NoisyCPUPressurePct.
	HostStealPct       bundle.Opt `csv:"host_steal_pct"`
	HostCPUPressurePct bundle.Opt `csv:"host_cpu_pressure_pct"`
	HostNoisy          bool       `csv:"host_noisy"`

	WallS     float64 `csv:"wall_s"`     // the kit's whole run: create .. everything removed
	InherentS float64 `csv:"inherent_s"` // first warm-up send .. every log byte read
	OverheadS float64 `csv:"overhead_s"` // wall - inherent: the kit's own cost
}

// ContainerRow is one container of one run (containers.csv): its limits as the kernel
// applied them and its counters over the measured interval.
type ContainerRow struct {
	RunID            string  `csv:"run_id"`
	Role             string  `csv:"role"`
	CgroupVersion    int     `csv:"cgroup_version"`
	CPULimitCores    float64 `csv:"cpu_limit_cores"`
	MemoryLimitBytes int64   `csv:"memory_limit_bytes"`
	SwapLimitBytes   int64   `csv:"swap_limit_bytes"`
	IntervalS        float64 `csv:"interval_s"`
	CPUUsedNs        int64   `csv:"cpu_used_ns"`
	CPUCores         float64 `csv:"cpu_cores"`
	CPUPeriods       int64   `csv:"cpu_periods"`
	CPUThrottled     int64   `csv:"cpu_throttled_periods"`
	CPUThrottledMs   float64 `csv:"cpu_throttled_ms"`
	MemoryPeakBytes  int64   `csv:"memory_peak_bytes"`
	ExitCode         int     `csv:"exit_code"`
	OOMKilled        bool    `csv:"oom_killed"`
	// The process's privileges as it read them itself; empty when not reported.
	UID          string `csv:"uid"`
	CapEffective string `csv:"cap_effective"` // hex bitmap, 0 = none
	NoNewPrivs   string `csv:"no_new_privs"`
	RootReadOnly string `csv:"root_read_only"`
	// Its process limits as it read them itself (soft/hard); empty when not reported.
	NoFileLimit string `csv:"nofile_limit"`
	NProcLimit  string `csv:"nproc_limit"`
	PidsMax     string `csv:"pids_max"`
}

// TimelineRow is one sample of a cumulative byte count (timeline.csv): series
// "generated" is the API's, one per record; "read" is the reader's, one per read.
type TimelineRow struct {
	RunID   string  `csv:"run_id"`
	Series  string  `csv:"series"`
	OffsetS float64 `csv:"offset_s"` // from the run's first scheduled send
	Bytes   int64   `csv:"bytes"`
}

// Manifest describes a bundle of the fifo-stall experiment (manifest.json): what every
// bundle has, the experiment's parameters, and the instrument's calibration.
type Manifest struct {
	bundle.Common
	Parameters  Params       `json:"parameters"`
	Calibration *Calibration `json:"calibration,omitempty"`
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
}

// Planned is the runs the parameters plan, every API x mode x reader once a round
// (fifostall.Cross): what reproduce sets runs_planned to, and verify holds a bundle's
// manifest to. A redone attempt is no run of the plan: runs_superseded counts it.
func (p Params) Planned() int { return len(p.APIs) * len(p.Modes) * len(p.Readers) * p.Rounds }

// Limits are the requested container limits; containers.csv has them as applied.
type Limits struct {
	APICPUs            float64 `json:"api_cpus"`
	APIMemoryBytes     int64   `json:"api_memory_bytes"`
	ReaderCPUs         float64 `json:"reader_cpus"`
	ReaderMemoryBytes  int64   `json:"reader_memory_bytes"`
	LoadgenCPUs        float64 `json:"loadgen_cpus"`
	LoadgenMemoryBytes int64   `json:"loadgen_memory_bytes"`
	PidsLimit          int64   `json:"pids_limit"`
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
