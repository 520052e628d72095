package yourapi

import (
	"strings"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// The bundle's files.
const (
	ManifestFile    = bundle.ManifestFile
	RunsFile        = "runs.csv"
	SeriesFile      = "series.csv"
	ConditionsFile  = "conditions.csv"
	DataPackageFile = bundle.DataPackageFile
	SumsFile        = bundle.SumsFile
)

// DataFiles are every file but datapackage.json and SHA256SUMS, in archive order.
var DataFiles = []string{ManifestFile, RunsFile, SeriesFile, ConditionsFile}

// Opt is a figure that may be absent (an empty field).
type Opt = bundle.Opt

// None is an absent figure.
var None = bundle.None

// Counted is what the summary, the manifest and the report say of the log lines.
const Counted = "log lines are counted, not verified: the kit reads back the console (the engine's log API) and every file of the log directory (the run's volume) and counts lines and bytes, " +
	"but cannot know what a foreign service meant to write, so their content is not checked against the writer as it is for the kit's own images"

// Manifest is manifest.json.
type Manifest struct {
	bundle.Common
	Parameters Params `json:"parameters"`
	// Counted says how far the log lines are checked.
	Counted string `json:"counted"`
}

// Params are the settings every run of the bundle shares.
type Params struct {
	// Image is the reference given, ImageID the image it named on the engine when the
	// matrix started: every run runs that ID.
	Image   string   `json:"image"`
	ImageID string   `json:"image_id"`
	Port    int      `json:"port"`
	Path    string   `json:"path"`
	Configs []Config `json:"configs"`
	// Baseline is the configuration every cost is set against.
	Baseline string `json:"baseline"`
	// LogFile is the directory the run's volume is mounted at ("": none).
	LogFile string `json:"log_file"`
	Rounds  int    `json:"rounds"`
	// Load is closed or open; the closed loop's Connections and Pipelining, the open
	// loop's RateRPS, MaxSendLagP99Ms and Retries (0 for the other shape).
	Load            string  `json:"load"`
	Connections     int     `json:"connections"`
	Pipelining      int     `json:"pipelining"`
	RateRPS         float64 `json:"rate_rps"`
	MaxSendLagP99Ms float64 `json:"max_send_lag_p99_ms"`
	Retries         int     `json:"retries"`
	DurationS       float64 `json:"duration_s"`
	WarmupS         float64 `json:"warmup_s"`
	ReadyTimeoutS   float64 `json:"ready_timeout_s"`
	MaxRunTimeS     float64 `json:"max_run_time_s"`
	// LogDriver and LogOpts are the service container's logging driver and options as
	// the docker CLI spells them; NonBlocking says mode=non-blocking.
	LogDriver   string            `json:"log_driver"`
	LogOpts     map[string]string `json:"log_opts,omitempty"`
	NonBlocking bool              `json:"non_blocking"`
	Limits      Limits            `json:"limits"`
	Hardening   Hardening         `json:"hardening"`
	// CPUHow says how CPU inside and outside the container is measured.
	CPUHow   string `json:"cpu_how"`
	Platform string `json:"platform"`
}

// Planned is the runs the parameters plan, every configuration once a round: what
// reproduce sets runs_planned to, and verify holds a bundle's manifest to.
func (p Params) Planned() int { return len(p.ConfigNames()) * p.Rounds }

// ConfigNames are the configurations' names, in order.
func (p Params) ConfigNames() []string {
	var out []string
	for _, c := range p.Configs {
		out = append(out, c.Name)
	}
	return out
}

// Config returns the configuration named name.
func (p Params) Config(name string) Config {
	for _, c := range p.Configs {
		if c.Name == name {
			return c
		}
	}
	return Config{Name: name}
}

// Config is one logging configuration: environment variables added to the image's,
// and a command in place of the image's when Cmd is set.
type Config struct {
	Name string   `json:"name"`
	Env  []string `json:"env"`
	Cmd  []string `json:"cmd,omitempty"`
}

// String is the configuration as conditions.csv shows it.
func (c Config) String() string {
	s := strings.Join(c.Env, ",")
	if c.Cmd != nil {
		s += " cmd: " + strings.Join(c.Cmd, " ")
	}
	return strings.TrimSpace(s)
}

// Limits of the containers.
type Limits struct {
	APICPUs            float64 `json:"api_cpus"`
	APIMemoryBytes     int64   `json:"api_memory_bytes"`
	LoadgenCPUs        float64 `json:"loadgen_cpus"`
	LoadgenMemoryBytes int64   `json:"loadgen_memory_bytes"`
	PidsLimit          int64   `json:"pids_limit"`
}

// Hardening is how the service's container ran; Relaxed names what was loosened.
type Hardening struct {
	ReadOnlyRoot    bool     `json:"read_only_root"`
	User            string   `json:"user"` // "" : the image's own
	CapDrop         string   `json:"cap_drop"`
	CapAdd          []string `json:"cap_add,omitempty"`
	NoNewPrivileges bool     `json:"no_new_privileges"`
	Relaxed         []string `json:"relaxed,omitempty"`
}

// RunRow is one run (runs.csv). The columns before Requests are observed; from
// Requests on they are derived (DeriveRuns) and verify recomputes them.
type RunRow struct {
	RunID           string  `csv:"run_id"`
	Config          string  `csv:"config"`
	Round           int     `csv:"round"`
	Position        int     `csv:"position"`
	Attempt         int     `csv:"attempt"`
	Superseded      bool    `csv:"superseded"`
	StartedUTC      string  `csv:"started_utc"`
	WallS           float64 `csv:"wall_s"`
	Load            string  `csv:"load"`
	ObservedFailure string  `csv:"observed_failure"`
	ReadyAfterS     float64 `csv:"ready_after_s"`
	MeasuredS       float64 `csv:"measured_s"`
	Status2xx       int64   `csv:"status_2xx"`
	Non2xx          int64   `csv:"non_2xx"`
	Errors          int64   `csv:"no_response" was:"errors"`
	LatencyMeanMs   Opt     `csv:"mean_ms" was:"latency_mean_ms"`
	LatencyP50Ms    Opt     `csv:"p50_ms" was:"latency_p50_ms"`
	LatencyP90Ms    Opt     `csv:"p90_ms" was:"latency_p90_ms"`
	LatencyP99Ms    Opt     `csv:"p99_ms" was:"latency_p99_ms"`
	LatencyMaxMs    Opt     `csv:"max_ms" was:"latency_max_ms"`
	SendLagP99Ms    Opt     `csv:"send_lag_p99_ms"`
	GeneratorCPUS   float64 `csv:"generator_cpu_s"`
	GeneratorBusy   bool    `csv:"generator_saturated"`
	SentTotal       int64   `csv:"sent_total"`
	ConsoleRead     bool    `csv:"console_read"`
	ConsoleLines    Opt     `csv:"console_lines"` // the two absent when not read
	ConsoleBytes    Opt     `csv:"console_bytes"`
	FileRead        bool    `csv:"file_read"`
	Files           Opt     `csv:"files"` // the three absent when not read
	FileLines       Opt     `csv:"file_lines"`
	FileBytes       Opt     `csv:"file_bytes"`
	CPUMeasured     bool    `csv:"cpu_measured"`
	APICPUS         Opt     `csv:"api_cpu_s"` // the CPU figures absent when not measured
	APIProcesses    int     `csv:"api_processes"`
	EngineCPUS      Opt     `csv:"engine_cpu_s"`
	CPUIntervalS    Opt     `csv:"cpu_interval_s"`
	CPUFailure      string  `csv:"cpu_failure"`
	HostBusyPct     Opt     `csv:"host_cpu_busy_pct"`
	HostCPUs        Opt     `csv:"host_cpus"` // absent when the host was not read

	// Derived.
	Requests         int64  `csv:"responses" was:"requests"`
	RequestsPerS     Opt    `csv:"requests_per_s"`               // absent without a measured interval
	RequestsPerSOver Opt    `csv:"requests_per_s_over_interval"` // absent without a measured interval
	Lines            int64  `csv:"lines_read" was:"lines"`       // console and file as read back
	LinesPerRequest  Opt    `csv:"lines_per_request"`
	ConsolePerReq    Opt    `csv:"console_lines_per_request"`
	FilePerReq       Opt    `csv:"file_lines_per_request"`
	BytesPerRequest  Opt    `csv:"bytes_per_request"`
	APICores         Opt    `csv:"api_cpu_cores" was:"cpu_api_cores"`
	EngineCores      Opt    `csv:"engine_cpu_cores" was:"cpu_engine_cores"`
	APIUsPerReq      Opt    `csv:"api_cpu_us_per_request" was:"cpu_api_us_per_request"`
	EngineUsPerReq   Opt    `csv:"engine_cpu_us_per_request" was:"cpu_engine_us_per_request"`
	CPUUsPerReq      Opt    `csv:"cpu_us_per_request"`
	OtherCores       Opt    `csv:"other_cpu_cores"`
	HostNoisy        bool   `csv:"host_noisy"`
	Trusted          bool   `csv:"trusted"`
	Mark             string `csv:"mark"`
	Verified         bool   `csv:"verified"`
	Failure          string `csv:"failure"`
}

// SeriesRow is one second of a run's measured interval (series.csv).
type SeriesRow struct {
	RunID    string `csv:"run_id"`
	Second   int    `csv:"second"`
	Requests int64  `csv:"responses" was:"requests"`
}

// ConditionRow is one configuration pooled over its runs (conditions.csv).
type ConditionRow struct {
	Config           string `csv:"config"`
	Setting          string `csv:"setting"`
	Baseline         bool   `csv:"baseline"`
	Runs             int    `csv:"runs"`
	RunsVerified     int    `csv:"runs_verified"`
	RunsPooled       int    `csv:"runs_pooled"`
	RunsNoisy        int    `csv:"runs_noisy"`
	RunsMarked       int    `csv:"runs_marked"`
	RequestsPerS     Opt    `csv:"requests_per_s"`
	RequestsPerSLow  Opt    `csv:"requests_per_s_ci_low"`
	RequestsPerSHigh Opt    `csv:"requests_per_s_ci_high"`
	RatioToBaseline  Opt    `csv:"ratio_to_baseline"`
	LatencyP50Ms     Opt    `csv:"p50_run_mean_ms" was:"latency_p50_ms"`
	LatencyP99Ms     Opt    `csv:"p99_run_mean_ms" was:"latency_p99_ms"`
	LinesPerRequest  Opt    `csv:"lines_per_request"`
	ConsolePerReq    Opt    `csv:"console_lines_per_request"`
	FilePerReq       Opt    `csv:"file_lines_per_request"`
	BytesPerRequest  Opt    `csv:"bytes_per_request"`
	APICores         Opt    `csv:"api_cpu_cores" was:"cpu_api_cores"`
	EngineCores      Opt    `csv:"engine_cpu_cores" was:"cpu_engine_cores"`
	APIUsPerReq      Opt    `csv:"api_cpu_us_per_request" was:"cpu_api_us_per_request"`
	EngineUsPerReq   Opt    `csv:"engine_cpu_us_per_request" was:"cpu_engine_us_per_request"`
	CPUUsPerReq      Opt    `csv:"cpu_us_per_request"`
	CostPerRequestUs Opt    `csv:"cost_per_request_us"`
	CostAPIUs        Opt    `csv:"cost_per_request_api_us"`
	CostEngineUs     Opt    `csv:"cost_per_request_engine_us"`
	LinesSteady      bool   `csv:"lines_steady"`
}
