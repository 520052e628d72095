package yourapi

import (
	"strings"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/capacitysearch"
	"github.com/logbench/logbench/kit/experiment/httpload"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// The bundle's files.
const (
	ManifestFile   = bundle.ManifestFile
	RunsFile       = "runs.csv"
	SeriesFile     = "series.csv"
	ConditionsFile = "conditions.csv"
	// StepsFile is a capacity search's steps (reproduce your-api --capacity).
	StepsFile = capacitysearch.StepsFile
)

// SeriesRow is one second of a run's measured interval (series.csv).
type SeriesRow = tabular.SecondRow

// Opt is a figure that may be absent (an empty field).
type Opt = bundle.Opt

// None is an absent figure.
var None = bundle.None

const manifestText = "The bundle's manifest: which experiment and kit wrote it, when, on which engine, with which of the kit's images, how far the matrix got, " +
	"and the parameters every run shared: the service's image (as named, and image_id, the ID every run ran), port and path, configs (name, env, cmd), " +
	"baseline, log_file (the directory the run's volume was mounted at, empty for none), rounds, the load (load closed or open; connections and pipelining, " +
	"or rate_rps, max_send_lag_p99_ms and retries; duration_s, warmup_s, ready_timeout_s), the service's log_driver and log_opts, the containers' limits, " +
	"hardening (read_only_root, user, cap_drop, cap_add, no_new_privileges, and relaxed: what the flags loosened), cpu_how and platform. " +
	"counted says that log lines are counted, not verified."

// describe names the data package as every your-api bundle's is named.
var describe = tabular.Describes(Name, "a service the kit did not write, loaded in each logging configuration; every run's load, "+
	"log lines counted (not verified) and CPU, per-second counts, and each configuration's figures against the baseline. "+bundle.SumsText, manifestText)

// Counted is what the summary, the manifest and the report say of the log lines.
const Counted = "log lines are counted, not verified: the kit reads back the console (the engine's log API) and every file of the log directory (the run's volume) and counts lines and bytes, " +
	"but cannot know what a foreign service meant to write, so their content is not checked against the writer as it is for the kit's own images"

// Manifest is manifest.json: tabular's with the rounds among the parameters, as every
// your-api bundle records them, and how far the log lines are checked.
type Manifest struct {
	tabular.RoundsInParams[Params, *Params]
	// Counted says how far the log lines are checked.
	Counted string `json:"counted"`
}

// SetParams records a plan's parameters, settled (settle: a search's rounds are its
// searches), and says how far the lines are checked.
func (m *Manifest) SetParams(p *Params) {
	m.Parameters, m.Counted = p.settle(m.Parameters.Rounds), Counted
}

// RoundsField is where the manifest records the rounds (tabular.RoundsInParams).
func (p *Params) RoundsField() *int { return &p.Rounds }

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
	Load        string  `json:"load"`
	Connections int     `json:"connections"`
	Pipelining  int     `json:"pipelining"`
	RateRPS     float64 `json:"rate_rps"`
	// Arrivals is the open loop's arrival process, constant or poisson ("" for the
	// closed load, and in bundles written before: constant).
	Arrivals        string  `json:"arrivals,omitempty"`
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
	// Capacity is the search of --capacity (capacity.go); zero without one.
	Capacity capacitysearch.Capacity `json:"capacity,omitzero"`

	// commands are the --config-cmd NAME:ARGS given, set in their configurations once
	// checked; given says which flags of one load shape were given (Check refuses them
	// with the other). A manifest has neither.
	commands []string
	capacity capacitysearch.Flags
	given    struct{ load, rate, maxSendLag, retries, pipelining bool }
}

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

// Limits of the containers: the service's and the load generator's.
type Limits = experiment.Limits

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
// Requests on they are derived (DeriveRun, markRuns) and verify recomputes them.
type RunRow struct {
	Config string `csv:"config" doc:"The logging configuration's name, as --config gave it (the manifest's parameters.configs has its settings)."`
	Step   string `csv:"step" doc:"The step of a capacity search the run performed (step1, step2, ...), as its ID names it (steps.csv has its rate); empty when the bundle is no search."`
	tabular.Performed
	Load            string  `csv:"load" doc:"closed (keep-alive connections, as autocannon) or open (a fixed rate, latency from the scheduled send)."`
	ObservedFailure string  `csv:"observed_failure" doc:"What the conductor and the engine saw go wrong (the service's container exited, no answer, a log directory that could not be read), reasons joined by \"; \"; empty when nothing did."`
	ReadyAfterS     float64 `csv:"ready_after_s" unit:"s" doc:"How long the service took to answer the path with a 2xx status after its container started."`
	httpload.Measured
	GeneratorBusy bool   `csv:"generator_saturated" doc:"Closed load: true when the generator used at least its saturation share of the cores it may use: it may have been the bottleneck, and the run is not data."`
	SentTotal     int64  `csv:"sent_total" unit:"1" doc:"Every request sent to the service in the run: the readiness probes it answered, the warm-up and the measured load (requests still in flight when the load stopped included); lines per request divide by it."`
	ConsoleRead   bool   `csv:"console_read" doc:"true when the service's stdout was read back through the engine's log API after the run (false with the none driver or a failed read)."`
	ConsoleLines  Opt    `csv:"console_lines" unit:"1" doc:"Lines (newlines) of the service's stdout as the logging driver gave it back, the whole run; missing when it was not read (console_read false; 0 in bundles written before)."` // the two absent when not read
	ConsoleBytes  Opt    `csv:"console_bytes" unit:"bytes" doc:"Bytes of that stdout; missing when it was not read (0 in bundles written before)."`
	FileRead      bool   `csv:"file_read" doc:"true when the log directory (parameters.log_file) was counted after the load."`
	Files         Opt    `csv:"files" unit:"1" doc:"Regular files in the log directory, the conductor's own result left out; missing when the directory was not read (file_read false; 0 in bundles written before)."` // the three absent when not read
	FileLines     Opt    `csv:"file_lines" unit:"1" doc:"Lines (newlines) in those files after the load and a short settle: what the service had written by then; missing when not read (0 in bundles written before)."`
	FileBytes     Opt    `csv:"file_bytes" unit:"bytes" doc:"Bytes in those files; missing when not read (0 in bundles written before)."`
	CPUMeasured   bool   `csv:"cpu_measured" doc:"true when the helper sampled the engine's and the service's processes before and after the measured interval."`
	APICPUS       Opt    `csv:"api_cpu_s" unit:"s" doc:"CPU time (user + system) of the service container's processes between the two samples: CPU inside the container; missing when not measured (cpu_measured false; 0 in bundles written before)."` // the CPU figures absent when not measured
	APIProcesses  int    `csv:"api_processes" unit:"1" doc:"Processes of the service's container at the second sample."`
	EngineCPUS    Opt    `csv:"engine_cpu_s" unit:"s" doc:"CPU time of dockerd, containerd and the shims between the two samples: CPU outside the container, shipping its console among others; missing when not measured (0 in bundles written before)."`
	CPUIntervalS  Opt    `csv:"cpu_interval_s" unit:"s" doc:"Time between the two samples; missing when not measured (0 in bundles written before)."`
	CPUFailure    string `csv:"cpu_failure" doc:"Why CPU could not be measured; empty when it was."`
	httpload.Host

	// Derived.
	httpload.Rates
	Lines           int64  `csv:"lines_read" was:"lines" unit:"1" doc:"console_lines + file_lines: the lines read back of the sinks that were read (lines in bundles written before)."` // console and file as read back
	LinesPerRequest Opt    `csv:"lines_per_request" unit:"1" doc:"lines over sent_total; missing when nothing was read back."`
	ConsolePerReq   Opt    `csv:"console_lines_per_request" unit:"1" doc:"console_lines over sent_total; missing when the console was not read."`
	FilePerReq      Opt    `csv:"file_lines_per_request" unit:"1" doc:"file_lines over sent_total; missing without a log directory."`
	BytesPerRequest Opt    `csv:"bytes_per_request" unit:"bytes" doc:"(console_bytes + file_bytes) over sent_total; missing when nothing was read back."`
	APICores        Opt    `csv:"api_cpu_cores" was:"cpu_api_cores" unit:"cores" doc:"api_cpu_s over cpu_interval_s; missing when CPU was not measured."`
	EngineCores     Opt    `csv:"engine_cpu_cores" was:"cpu_engine_cores" unit:"cores" doc:"engine_cpu_s over cpu_interval_s; missing when CPU was not measured."`
	APIUsPerReq     Opt    `csv:"api_cpu_us_per_request" was:"cpu_api_us_per_request" unit:"us" doc:"api_cpu_s over requests, in microseconds; missing when CPU was not measured or nothing was answered."`
	EngineUsPerReq  Opt    `csv:"engine_cpu_us_per_request" was:"cpu_engine_us_per_request" unit:"us" doc:"engine_cpu_s over requests, in microseconds; missing likewise."`
	CPUUsPerReq     Opt    `csv:"cpu_us_per_request" unit:"us" doc:"api_cpu_us_per_request + engine_cpu_us_per_request."`
	OtherCores      Opt    `csv:"other_cpu_cores" signed:"true" unit:"cores" doc:"The host's busy CPU that neither the service, the engine nor the generator used: host_cpu_busy_pct / 100 x host_cpus - api_cpu_cores - engine_cpu_cores - generator_cpu_s / measured_s; missing without the host's or the CPU's figures."`
	HostNoisy       bool   `csv:"host_noisy" doc:"true when other_cpu_cores is over 0.25: other work shared the host; the run is still data."`
	Trusted         bool   `csv:"trusted" doc:"Open load: true when send_lag_p99_ms is within parameters.max_send_lag_p99_ms; always true for the closed load."`
	Mark            string `csv:"mark" doc:"Why the run is marked (it stays data): its lines per request off its configuration's median by more than 0.05 + 1%, or, in non-blocking mode, console lines short of the configuration's fullest run (dropped by the driver); empty when not."`
	Verified        bool   `csv:"verified" doc:"true when the run is data: failure is empty."`
	Failure         string `csv:"failure" doc:"Why the run is not data: observed_failure, no response, errors, non-2xx responses, a saturated generator; empty when it is."`
}

// ConditionRow is one configuration pooled over its runs (conditions.csv).
type ConditionRow struct {
	Config       string `csv:"config" doc:"The logging configuration's name, as --config gave it (the manifest's parameters.configs has its settings)."`
	Setting      string `csv:"setting" doc:"The configuration's environment assignments (and command, after cmd:), as given."`
	Baseline     bool   `csv:"baseline" doc:"true for the configuration every cost is set against (parameters.baseline)."`
	Runs         int    `csv:"runs" unit:"1" doc:"Runs of the configuration, failed and superseded ones included."`
	RunsVerified int    `csv:"runs_verified" unit:"1" doc:"Runs that are data."`
	RunsPooled   int    `csv:"runs_pooled" unit:"1" doc:"Runs every figure pools: verified, lag-trusted, not superseded."`
	RunsNoisy    int    `csv:"runs_noisy" unit:"1" doc:"Verified runs on a noisy host (host_noisy)."`
	RunsMarked   int    `csv:"runs_marked" unit:"1" doc:"Runs with a mark (runs.csv)."`
	httpload.Pooled
	RatioToBaseline  Opt  `csv:"ratio_to_baseline" unit:"1" doc:"requests_per_s over the baseline configuration's."`
	LinesPerRequest  Opt  `csv:"lines_per_request" unit:"1" doc:"Mean of the pooled runs' lines_per_request."`
	ConsolePerReq    Opt  `csv:"console_lines_per_request" unit:"1" doc:"Mean of the pooled runs' console_lines_per_request."`
	FilePerReq       Opt  `csv:"file_lines_per_request" unit:"1" doc:"Mean of the pooled runs' file_lines_per_request."`
	BytesPerRequest  Opt  `csv:"bytes_per_request" unit:"bytes" doc:"Mean of the pooled runs' bytes_per_request."`
	APICores         Opt  `csv:"api_cpu_cores" was:"cpu_api_cores" unit:"cores" doc:"Mean of the pooled runs' api_cpu_cores."`
	EngineCores      Opt  `csv:"engine_cpu_cores" was:"cpu_engine_cores" unit:"cores" doc:"Mean of the pooled runs' engine_cpu_cores."`
	APIUsPerReq      Opt  `csv:"api_cpu_us_per_request" was:"cpu_api_us_per_request" unit:"us" doc:"Mean of the pooled runs' api_cpu_us_per_request."`
	EngineUsPerReq   Opt  `csv:"engine_cpu_us_per_request" was:"cpu_engine_us_per_request" unit:"us" doc:"Mean of the pooled runs' engine_cpu_us_per_request."`
	CPUUsPerReq      Opt  `csv:"cpu_us_per_request" unit:"us" doc:"Mean of the pooled runs' cpu_us_per_request."`
	CostPerRequestUs Opt  `csv:"cost_per_request_us" signed:"true" unit:"us" doc:"cpu_us_per_request minus the baseline configuration's: what this configuration costs a request, inside and outside the container."`
	CostAPIUs        Opt  `csv:"cost_per_request_api_us" signed:"true" unit:"us" doc:"api_cpu_us_per_request minus the baseline's: the cost inside the container."`
	CostEngineUs     Opt  `csv:"cost_per_request_engine_us" signed:"true" unit:"us" doc:"engine_cpu_us_per_request minus the baseline's: the cost in the engine."`
	LinesSteady      bool `csv:"lines_steady" doc:"false when any run of the configuration is marked."`
}

// addedLater are the columns bundles of an earlier kit lack, and the kit that added
// each.
var addedLater = map[string]string{"step": "runs named their search's step", "net_p99_ms": "runs gave their p99 less the generator's send lag", "search": capacitysearch.SearchesAdded}
