package qps

import (
	"github.com/logbench/logbench/kit/offline/bundle"
)

// The bundle's files.
const (
	ManifestFile   = bundle.ManifestFile
	RunsFile       = "runs.csv"
	SeriesFile     = "series.csv"
	ConditionsFile = "conditions.csv"
	SumsFile       = bundle.SumsFile
)

// DataFiles are every file but SHA256SUMS, in archive order.
var DataFiles = []string{ManifestFile, RunsFile, SeriesFile, ConditionsFile}

// Opt is a figure that may be absent (an empty field).
type Opt = bundle.Opt

// None is an absent figure.
var None = bundle.None

// Manifest is manifest.json.
type Manifest struct {
	bundle.Common
	Parameters Params `json:"parameters"`
	// Versions of each API image's runtime and libraries, by API ("node": node,
	// express, morgan), as the images record them and the APIs report them.
	Versions map[string]map[string]string `json:"versions,omitempty"`
	// Unmeasured names what this kit does not measure yet, so that an absent column is
	// never mistaken for a zero.
	Unmeasured []string `json:"unmeasured,omitempty"`
}

// Params are the settings every run of the bundle shares.
type Params struct {
	APIs        []string `json:"apis"`
	Configs     []string `json:"configs"`
	Rounds      int      `json:"rounds"`
	Connections int      `json:"connections"`
	Pipelining  int      `json:"pipelining"`
	DurationS   float64  `json:"duration_s"`
	WarmupS     float64  `json:"warmup_s"`
	// LogDriver and LogOpts are the API container's logging driver ("json-file") and
	// its options, as the docker CLI spells them; NonBlocking says mode=non-blocking.
	LogDriver string `json:"log_driver"`
	// LogDriverChosenBy says where the driver came from: the --log-driver flag, or the
	// engine (see DefaultLogDriver). Absent in bundles written before the kit chose.
	LogDriverChosenBy string            `json:"log_driver_chosen_by,omitempty"`
	LogOpts           map[string]string `json:"log_opts,omitempty"`
	NonBlocking       bool              `json:"non_blocking"`
	Limits            Limits            `json:"limits"`
	MaxRunTimeS       float64           `json:"max_run_time_s"`
	// EngineCPU says a helper container measured the engine's own CPU; EngineCPUHow says
	// what it is allowed to see.
	EngineCPU    bool   `json:"engine_cpu"`
	EngineCPUHow string `json:"engine_cpu_how,omitempty"`
	// EngineKind is the engine whose processes the helper counted ("docker",
	// "podman"), as the engine reported itself.
	EngineKind string `json:"engine_kind,omitempty"`
	// Wrk says Debian's wrk loaded the API as an independent check, in every run of
	// the configurations WrkConfigs, in the order WrkOrder (WrkAlternate); WrkCommand is
	// its command line. A bundle of an earlier kit has neither WrkConfigs nor WrkOrder:
	// its wrk ran after the kit's load in the none configuration only.
	Wrk        bool     `json:"wrk"`
	WrkCommand string   `json:"wrk_command,omitempty"`
	WrkConfigs []string `json:"wrk_configs,omitempty"`
	WrkOrder   string   `json:"wrk_order,omitempty"`
	Platform   string   `json:"platform"`
}

// Planned is the runs the parameters plan, every API x configuration once a round: what
// reproduce sets runs_planned to, and verify holds a bundle's manifest to.
func (p Params) Planned() int { return len(cross(p.APIs, p.Configs)) * p.Rounds }

// Limits of the containers; a CPU limit of 0 is none, recorded as such.
type Limits struct {
	APICPUs            float64 `json:"api_cpus"`
	APIMemoryBytes     int64   `json:"api_memory_bytes"`
	LoadgenCPUs        float64 `json:"loadgen_cpus"`
	LoadgenMemoryBytes int64   `json:"loadgen_memory_bytes"`
	PidsLimit          int64   `json:"pids_limit"`
}

// RunRow is one run (runs.csv). The columns up to Failure are what was observed; the
// ones after Derived follow from them and from the run's series (DeriveRun), and verify
// recomputes them.
type RunRow struct {
	RunID      string  `csv:"run_id"`
	API        string  `csv:"api"`
	Config     string  `csv:"config"`
	Round      int     `csv:"round"`
	Position   int     `csv:"position"`
	StartedUTC string  `csv:"started_utc"`
	WallS      float64 `csv:"wall_s"`
	LogDriver  string  `csv:"log_driver"`
	// Observed is the conductor's and the engine's account of why the run is not data
	// ("" when they saw nothing wrong); Failure adds what the checks below find.
	Observed string `csv:"observed_failure"`

	// The load, as the generator measured it. Latencies are per request over the
	// measured interval; the per-second counts are in series.csv.
	MeasuredS          float64 `csv:"measured_s"`
	Status2xx          int64   `csv:"status_2xx"`
	Non2xx             int64   `csv:"non_2xx"`
	Errors             int64   `csv:"no_response" was:"errors"`
	Timeouts           int64   `csv:"timeouts"`
	LatencyMeanMs      Opt     `csv:"mean_ms" was:"latency_mean_ms"`
	LatencyP50Ms       Opt     `csv:"p50_ms" was:"latency_p50_ms"`
	LatencyP90Ms       Opt     `csv:"p90_ms" was:"latency_p90_ms"`
	LatencyP99Ms       Opt     `csv:"p99_ms" was:"latency_p99_ms"`
	LatencyMaxMs       Opt     `csv:"max_ms" was:"latency_max_ms"`
	GeneratorCPUS      float64 `csv:"generator_cpu_s"`
	GeneratorLimit     float64 `csv:"generator_cpu_limit_cores"`
	WarmupRequests     int64   `csv:"warmup_requests"`
	APIImplementation  string  `csv:"api_implementation"`
	APIRequests        Opt     `csv:"api_requests"`    // as the API counted them since the reset; absent without its report
	APICPUUserUs       Opt     `csv:"api_cpu_user_us"` // the three absent without the API's report
	APICPUSystemUs     Opt     `csv:"api_cpu_system_us"`
	APIIntervalMs      Opt     `csv:"api_interval_ms"` // from the reset to the report; absent without it
	APIRSSBytes        Opt     `csv:"api_rss_bytes"`
	SinkWriteErrors    int64   `csv:"sink_write_errors"`
	ConsoleLines       int64   `csv:"console_lines_written"` // since the reset
	ConsoleBytes       int64   `csv:"console_bytes_written"`
	ConsoleTotalLines  int64   `csv:"console_total_lines_written"` // since the API started
	ConsoleTotalBytes  int64   `csv:"console_total_bytes_written"`
	ConsoleTotalSHA256 string  `csv:"console_total_sha256_written"`
	// ConsoleRead says the engine's log stream was read back; its lines, bytes and
	// SHA-256 follow.
	ConsoleRead       bool   `csv:"console_read"`
	ConsoleReadLines  Opt    `csv:"console_lines_read"` // absent when not read
	ConsoleReadBytes  Opt    `csv:"console_bytes_read"`
	ConsoleReadSHA256 string `csv:"console_sha256_read"`
	FileLines         int64  `csv:"file_lines_written"` // since the reset
	FileBytes         int64  `csv:"file_bytes_written"`
	FileSHA256        string `csv:"file_sha256_written"`
	FileTotalLines    int64  `csv:"file_total_lines_written"`
	FileTotalBytes    int64  `csv:"file_total_bytes_written"`
	FileTotalSHA256   string `csv:"file_total_sha256_written"`
	FileRotations     int    `csv:"file_rotations"`
	FilePath          string `csv:"file_path"`
	FileRead          bool   `csv:"file_read"`
	FileReadLines     Opt    `csv:"file_lines_read"` // the whole file; absent when not read
	FileReadBytes     Opt    `csv:"file_bytes_read"`
	FileReadSHA256    string `csv:"file_sha256_read"`
	FileTailLines     Opt    `csv:"file_lines_read_since_reset"` // from the reset's offset on
	FileTailBytes     Opt    `csv:"file_bytes_read_since_reset"`
	FileTailSHA256    string `csv:"file_sha256_read_since_reset"`
	// The engine's processes (dockerd, containerd, the shims) over the measured
	// interval, from the helper in the host's PID namespace; and the whole host's CPU.
	EngineMeasured  bool   `csv:"engine_measured"`
	EngineCPUS      Opt    `csv:"engine_cpu_s"` // the three absent when not measured
	EngineDockerdS  Opt    `csv:"engine_dockerd_cpu_s"`
	EngineIntervalS Opt    `csv:"engine_interval_s"`
	EngineFailure   string `csv:"engine_failure"`
	HostBusyPct     Opt    `csv:"host_cpu_busy_pct"`
	HostCPUs        Opt    `csv:"host_cpus"` // absent when the host was not read
	// wrk next to the kit's load (WrkAlternate; after it, in none only, in a bundle of
	// an earlier kit), same API container, same connections and duration: absent
	// figures in the runs without it.
	WrkRequests     Opt    `csv:"wrk_requests"`
	WrkDurationS    Opt    `csv:"wrk_duration_s"`
	WrkRequestsPerS Opt    `csv:"wrk_requests_per_s"`
	WrkLatencyP50Ms Opt    `csv:"wrk_latency_p50_ms"`
	WrkLatencyP99Ms Opt    `csv:"wrk_latency_p99_ms"`
	WrkErrors       Opt    `csv:"wrk_errors"`
	WrkFailure      string `csv:"wrk_failure"`
	// WrkHostBusyPct is the whole host's busy CPU over wrk's phase, as HostBusyPct is
	// over the kit's load: how alike the two loads' hosts were.
	WrkHostBusyPct Opt `csv:"wrk_host_cpu_busy_pct"`
	// WrkAfterKit says wrk ran after the kit's measured load, not before it; then the
	// console's and the file's totals are the API's once wrk ended.
	WrkAfterKit bool `csv:"wrk_after_kit"`

	// Derived (DeriveRun).
	Requests          int64 `csv:"responses" was:"requests"`     // sum of the series
	RequestsPerS      Opt   `csv:"requests_per_s"`               // mean of the whole seconds' counts, as autocannon; absent without a measured interval
	RequestsPerSStdev Opt   `csv:"requests_per_s_stdev"`         // population, whole seconds; absent without one
	RequestsPerSOver  Opt   `csv:"requests_per_s_over_interval"` // absent without a measured interval
	GeneratorCores    Opt   `csv:"generator_cpu_cores"`          // absent without a measured interval
	GeneratorBusy     bool  `csv:"generator_saturated"`
	APICPUCores       Opt   `csv:"api_cpu_cores" was:"cpu_api_cores"`
	APICPUUsPerReq    Opt   `csv:"api_cpu_us_per_request" was:"cpu_api_us_per_request"`
	EngineCores       Opt   `csv:"engine_cpu_cores" was:"cpu_engine_cores"`
	EngineUsPerReq    Opt   `csv:"engine_cpu_us_per_request" was:"cpu_engine_us_per_request"`
	// OtherCores is the host's busy CPU that neither the API, the generator nor the
	// engine used: other work on the host, the noise of the run.
	OtherCores Opt `csv:"other_cpu_cores"`
	// HostNoisy: OtherCores over NoisyOtherCores. The run is still data; the bundle says
	// how many of a condition's runs were measured so.
	HostNoisy       bool  `csv:"host_noisy"`
	LogLinesWritten int64 `csv:"log_lines_written"` // every sink, since the API started
	LogLinesRead    Opt   `csv:"log_lines_read"`    // absent when nothing could be read back
	LogLinesDropped Opt   `csv:"log_lines_dropped"` // console lines the driver dropped (non-blocking)
	// WrkAgreement is RequestsPerSOver over WrkRequestsPerS; past WrkTolerance the run
	// is not data.
	WrkAgreement    Opt    `csv:"wrk_agreement"`
	ConsoleVerified string `csv:"console_check"` // "equal", "dropped N", "not read (driver none)", what differs; "" without a console log
	FileVerified    string `csv:"file_check"`
	Verified        bool   `csv:"verified"`
	Failure         string `csv:"failure"`
}

// SeriesRow is one second of one run's measured interval (series.csv): the responses
// completed in it. The last second of an interval that is not whole is shorter.
type SeriesRow struct {
	RunID    string `csv:"run_id"`
	Second   int    `csv:"second"` // 0-based
	Requests int64  `csv:"responses" was:"requests"`
}

// ConditionRow is one cell api x config (conditions.csv), pooling its verified runs.
type ConditionRow struct {
	API          string `csv:"api"`
	Config       string `csv:"config"`
	Runs         int    `csv:"runs"`
	RunsVerified int    `csv:"runs_verified"`
	RunsNoisy    int    `csv:"runs_noisy"` // verified runs on a noisy host
	// Requests per second: the mean over the verified runs of each run's autocannon
	// figure, and its 95% Student-t interval over runs (absent with fewer than 2).
	RequestsPerS       Opt `csv:"requests_per_s"`
	RequestsPerSCILow  Opt `csv:"requests_per_s_ci_low"`
	RequestsPerSCIHigh Opt `csv:"requests_per_s_ci_high"`
	RequestsPerSOver   Opt `csv:"requests_per_s_over_interval"`
	// RatioToConsoleFile is this condition's requests/s over console+file's, same API.
	RatioToConsoleFile Opt   `csv:"ratio_to_console_file"`
	LatencyP50Ms       Opt   `csv:"p50_run_mean_ms" was:"latency_p50_ms"` // mean of the runs'
	LatencyP99Ms       Opt   `csv:"p99_run_mean_ms" was:"latency_p99_ms"`
	Errors             int64 `csv:"no_response" was:"errors"`
	LogLinesWritten    int64 `csv:"log_lines_written"`
	LogLinesRead       Opt   `csv:"log_lines_read"`
	LogLinesDropped    Opt   `csv:"log_lines_dropped"`
	CPUAPICores        Opt   `csv:"api_cpu_cores" was:"cpu_api_cores"`
	// CPUEngineCores is the engine's own CPU (dockerd, containerd, the shims), outside
	// the container; absent when it was not measured.
	CPUEngineCores    Opt `csv:"engine_cpu_cores" was:"cpu_engine_cores"`
	CPUAPIUsPerReq    Opt `csv:"api_cpu_us_per_request" was:"cpu_api_us_per_request"`
	CPUEngineUsPerReq Opt `csv:"engine_cpu_us_per_request" was:"cpu_engine_us_per_request"`
	// The cost of logging per request: the CPU time per request over none's, same API,
	// inside the container, outside it (the engine), and both (absent when the engine
	// was not measured).
	CostPerRequestUs       Opt `csv:"cost_per_request_us"`
	CostPerRequestAPIUs    Opt `csv:"cost_per_request_api_us"`
	CostPerRequestEngineUs Opt `csv:"cost_per_request_engine_us"`
	OtherCPUCores          Opt `csv:"other_cpu_cores"`
	PublishedReqPerS       Opt `csv:"published_requests_per_s"`
	PublishedRatio         Opt `csv:"published_ratio_to_console_file"`
	GeneratorCPUCores      Opt `csv:"generator_cpu_cores"`
	// wrk's rate and the kit's over it, means over the verified runs that have them;
	// the agreement's 95% Student-t interval over those runs (absent with fewer than
	// 2), like requests_per_s's, and how many of them agree within WrkTolerance.
	WrkRequestsPerS    Opt `csv:"wrk_requests_per_s"`
	WrkAgreement       Opt `csv:"wrk_agreement"`
	WrkAgreementCILow  Opt `csv:"wrk_agreement_ci_low"`
	WrkAgreementCIHigh Opt `csv:"wrk_agreement_ci_high"`
	RunsWrk            Opt `csv:"runs_wrk"`
	RunsWrkAgreeing    Opt `csv:"runs_wrk_agreeing"`
}
