package qps

import (
	"slices"
	"strings"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/capacitysearch"
	"github.com/logbench/logbench/kit/experiment/httpload"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// Opt is a figure that may be absent (an empty field).
type Opt = bundle.Opt

// None is an absent figure.
var None = bundle.None

// Manifest is manifest.json: tabular's with the rounds among the parameters, as every
// qps bundle records them, settled (Params.settled).
type Manifest struct {
	tabular.RoundsInParams[Params, *Params]
	// Versions of each API image's runtime and libraries, by API ("node": node,
	// express, morgan), as the images record them and the APIs report them.
	Versions map[string]map[string]string `json:"versions,omitempty"`
	// Unmeasured names what this kit does not measure yet, so that an absent column is
	// never mistaken for a zero.
	Unmeasured []string `json:"unmeasured,omitempty"`
}

// Params reach back to the manifest: a plan's target and runs record the engine's and
// the APIs' facts there.
func (m *Manifest) Params() *Params { m.Parameters.m = m; return &m.Parameters }

// SetParams records a plan's parameters, settled, and says what the plan leaves
// unmeasured.
func (m *Manifest) SetParams(p *Params) {
	m.RoundsInParams.SetParams(p)
	if !p.EngineCPU {
		m.Unmeasured = []string{"engine_cpu_cores: the engine's own CPU was not measured (--engine-cpu=false)"}
	}
	if pr := &m.Parameters; pr.Capacity.On() {
		pr.Rounds = 1
		m.Unmeasured = append(m.Unmeasured, "wrk_requests_per_s: the kit's load was not checked against wrk (--capacity: wrk offers a closed loop, the search's steps an open one)")
	} else if pr.Wrk {
		pr.WrkCommand, pr.WrkConfigs, pr.WrkOrder = strings.Join(WrkArgs(*pr), " "), slices.Clone(pr.Configs), WrkAlternate
	} else {
		why := "--wrk=false"
		if pr.Pipelining > 1 {
			why = "--pipelining over 1, which wrk does not offer"
		}
		m.Unmeasured = append(m.Unmeasured, "wrk_requests_per_s: the kit's load was not checked against wrk ("+why+")")
	}
}

// RoundsField is where the manifest records the rounds (tabular.RoundsInParams).
func (p *Params) RoundsField() *int { return &p.Rounds }

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
	// Capacity is the search of --capacity (capacity.go); zero without one. Its steps
	// offer the open loop with Arrivals, and a step whose send-lag p99 is over
	// MaxSendLagP99Ms is the generator's limit (both empty without a search).
	Capacity        capacitysearch.Capacity `json:"capacity,omitzero"`
	Arrivals        string                  `json:"arrivals,omitempty"`
	MaxSendLagP99Ms float64                 `json:"max_send_lag_p99_ms,omitempty"`
	// Vegeta says vegeta's attacker offered each step's rate before the kit's measured
	// load (--vegeta), an independent open loop beside the kit's.
	Vegeta bool `json:"vegeta,omitempty"`
	// Retries are how often a capacity step that missed its target while the generator
	// was the limit is performed again before it ends its search (--retries).
	Retries int `json:"retries,omitempty"`

	// wrkGiven says --wrk was given, which Check refuses beside --pipelining over 1
	// where the default is turned off, and beside --capacity; capacity are the
	// search's flags, given which of its load's flags were given. A manifest has none.
	wrkGiven bool
	capacity capacitysearch.Flags
	given    struct{ connections, pipelining, maxSendLag, retries bool }
	// m is the manifest that records them; pods counts a plan's pods by condition, for
	// the order of wrk's phase.
	m    *Manifest
	pods map[string]int
}

// Limits of the containers: the API's and the load generator's.
type Limits = experiment.Limits

// RunRow is one run (runs.csv). The columns up to Failure are what was observed; the
// ones after Derived follow from them and from the run's series (DeriveRun), and verify
// recomputes them.
type RunRow struct {
	API    string `csv:"api" doc:"The API implementation serving the load: node (Express with morgan, the published stack without Nest), go (gorilla/handlers' access log) or python (the standard library's logging)."`
	Config string `csv:"config" doc:"Which access logs the API writes: console+file, console (stdout, through the engine's logging driver), file (a daily file on a volume) or none."`
	Step   string `csv:"step" doc:"The step of a capacity search the run performed (step1, step2, ...), as its ID names it (steps.csv has its rate); empty when the bundle is no search."`
	tabular.Performed
	LogDriver string `csv:"log_driver" doc:"The API container's logging driver (the manifest's parameters.log_driver); none discards stdout, so the console log cannot be read back."`
	// Observed is the conductor's and the engine's account of why the run is not data
	// ("" when they saw nothing wrong); Failure adds what the checks below find.
	Observed string `csv:"observed_failure" doc:"What the conductor and the engine saw go wrong with the run, reasons joined by \"; \"; empty when nothing did."`

	// The load, as the generator measured it (the open loop's in a capacity search's step).
	httpload.Measured
	Timeouts           int64   `csv:"timeouts" unit:"1" doc:"The part of errors that timed out; 0 in a capacity search's open loop, which does not tell them apart."`
	GeneratorLimit     float64 `csv:"generator_cpu_limit_cores" unit:"cores" doc:"The cores the generator can use: its CPU limit, else GOMAXPROCS, and no more than the connections (one goroutine each); a capacity search's open loop: its CPU limit (0: none)."`
	WarmupRequests     int64   `csv:"warmup_requests" unit:"1" doc:"Responses completed in the warm-up, before the API's counters were reset; not measured. A capacity search's open loop: the requests its warm-up sent, every one ended before the reset."`
	APIImplementation  string  `csv:"api_implementation" doc:"What the API called itself in its report (node, go, python); empty when it sent no report."`
	APIRequests        Opt     `csv:"api_requests" unit:"1" doc:"Requests the API answered from the reset after the warm-up to its report, as it counted them; missing without a report (0 in bundles written before)."` // as the API counted them since the reset; absent without its report
	APICPUUserUs       Opt     `csv:"api_cpu_user_us" unit:"us" doc:"User CPU time of the API process from the reset to its report, as it measured itself; missing without its report (0 in bundles written before)."`   // the three absent without the API's report
	APICPUSystemUs     Opt     `csv:"api_cpu_system_us" unit:"us" doc:"System CPU time of the API process from the reset to its report, as it measured itself; missing without its report (0 in bundles written before)."`
	APIIntervalMs      Opt     `csv:"api_interval_ms" unit:"ms" doc:"From the API's reset to its report: the interval its CPU figures cover; missing without a report (0 in bundles written before)."` // from the reset to the report; absent without it
	APIRSSBytes        Opt     `csv:"api_rss_bytes" unit:"bytes" doc:"The API process's resident memory at its report; missing without its report (0 in bundles written before)."`
	SinkWriteErrors    int64   `csv:"sink_write_errors" unit:"1" doc:"Write errors the API's log sinks (console and file) reported, summed; any makes the run not data."`
	ConsoleLines       int64   `csv:"console_lines_written" unit:"1" doc:"Access-log lines the API wrote to stdout from the reset to its report; 0 without a console sink."` // since the reset
	ConsoleBytes       int64   `csv:"console_bytes_written" unit:"bytes" doc:"Access-log bytes the API wrote to stdout from the reset to its report."`
	ConsoleTotalLines  int64   `csv:"console_total_lines_written" unit:"1" doc:"Lines the API wrote to stdout since it started, warm-up included: what the engine's log stream must hold."` // since the API started
	ConsoleTotalBytes  int64   `csv:"console_total_bytes_written" unit:"bytes" doc:"Bytes the API wrote to stdout since it started."`
	ConsoleTotalSHA256 string  `csv:"console_total_sha256_written" doc:"SHA-256 (hex) of every byte the API wrote to stdout since it started; empty without a console sink."`
	// ConsoleRead says the engine's log stream was read back; its lines, bytes and
	// SHA-256 follow.
	ConsoleRead       bool   `csv:"console_read" doc:"true when the engine's log stream of the API container was read back after the run."`
	ConsoleReadLines  Opt    `csv:"console_lines_read" unit:"1" doc:"Lines in the log stream read back (newlines counted); missing when it was not read (console_read false; 0 in bundles written before)."` // absent when not read
	ConsoleReadBytes  Opt    `csv:"console_bytes_read" unit:"bytes" doc:"Bytes of the log stream read back; missing when it was not read (0 in bundles written before)."`
	ConsoleReadSHA256 string `csv:"console_sha256_read" doc:"SHA-256 (hex) of the log stream read back; empty when it was not read."`
	FileLines         int64  `csv:"file_lines_written" unit:"1" doc:"Access-log lines the API handed its log file from the reset to its report; 0 without a file sink."` // since the reset
	FileBytes         int64  `csv:"file_bytes_written" unit:"bytes" doc:"Access-log bytes the API handed its log file from the reset to its report."`
	FileSHA256        string `csv:"file_sha256_written" doc:"SHA-256 (hex) of the bytes handed the log file from the reset to the report; empty without a file sink."`
	FileTotalLines    int64  `csv:"file_total_lines_written" unit:"1" doc:"Lines the API handed its log file since it started, warm-up included."`
	FileTotalBytes    int64  `csv:"file_total_bytes_written" unit:"bytes" doc:"Bytes the API handed its log file since it started."`
	FileTotalSHA256   string `csv:"file_total_sha256_written" doc:"SHA-256 (hex) of every byte the API handed its log file since it started; empty without a file sink."`
	FileRotations     int    `csv:"file_rotations" unit:"1" doc:"Date changes since the reset: each starts a new daily file, so the file read back holds part of the lines (the run is not data)."`
	FilePath          string `csv:"file_path" doc:"The log file's path inside the API container; empty without a file sink."`
	FileRead          bool   `csv:"file_read" doc:"true when the conductor read the log file back from the shared volume without a failure."`
	FileReadLines     Opt    `csv:"file_lines_read" unit:"1" doc:"Lines of the whole log file read back; missing when it was not read (file_read false; 0 in bundles written before)."` // the whole file; absent when not read
	FileReadBytes     Opt    `csv:"file_bytes_read" unit:"bytes" doc:"Bytes of the whole log file read back; missing when it was not read (0 in bundles written before)."`
	FileReadSHA256    string `csv:"file_sha256_read" doc:"SHA-256 (hex) of the whole log file read back; empty when it was not read."`
	FileTailLines     Opt    `csv:"file_lines_read_since_reset" unit:"1" doc:"Lines of the log file from the offset it had at the reset on; must equal file_lines_written; missing when the file was not read (0 in bundles written before)."` // from the reset's offset on
	FileTailBytes     Opt    `csv:"file_bytes_read_since_reset" unit:"bytes" doc:"Bytes of the log file from the reset's offset on; must equal file_bytes_written; missing when the file was not read (0 in bundles written before)."`
	FileTailSHA256    string `csv:"file_sha256_read_since_reset" doc:"SHA-256 (hex) of the log file from the reset's offset on; must equal file_sha256_written."`
	// The engine's processes (dockerd, containerd, the shims) over the measured
	// interval, from the helper in the host's PID namespace; and the whole host's CPU.
	EngineMeasured  bool   `csv:"engine_measured" doc:"true when a helper in the host's PID namespace measured the engine's processes over the measured interval (parameters.engine_cpu, and no failure)."`
	EngineCPUS      Opt    `csv:"engine_cpu_s" unit:"s" doc:"CPU time (user + system) of the engine's processes (parameters.engine_kind docker: dockerd, containerd and the shims; podman: conmon and podman system service) between two samples around the measured interval, over the processes present in both; missing when not measured (engine_measured false; 0 in bundles written before)."` // the three absent when not measured
	EngineDockerdS  Opt    `csv:"engine_dockerd_cpu_s" unit:"s" doc:"The part of engine_cpu_s that dockerd used; 0 on Podman; missing when not measured (0 in bundles written before)."`
	EngineIntervalS Opt    `csv:"engine_interval_s" unit:"s" doc:"Time between the engine's two samples; missing when not measured (0 in bundles written before)."`
	EngineFailure   string `csv:"engine_failure" doc:"Why the engine's CPU could not be measured; empty when it was, or was not asked for."`
	httpload.Host
	// wrk next to the kit's load (WrkAlternate; after it, in none only, in a bundle of
	// an earlier kit), same API container, same connections and duration: absent
	// figures in the runs without it.
	WrkRequests     Opt    `csv:"wrk_requests" unit:"1" doc:"Requests wrk reports completed (\"N requests in T\") when it loaded the same API container after the kit's measured load (parameters.wrk); missing without a wrk phase or when wrk gave no figure (0 in bundles written before)."`
	WrkDurationS    Opt    `csv:"wrk_duration_s" unit:"s" doc:"wrk's own duration of that load (the T of its requests line); missing without a wrk phase or figure (0 in bundles written before)."`
	WrkRequestsPerS Opt    `csv:"wrk_requests_per_s" unit:"req/s" doc:"wrk's Requests/sec line: its requests over its duration; missing without a wrk phase or when wrk gave no figure."`
	WrkLatencyP50Ms Opt    `csv:"wrk_latency_p50_ms" unit:"ms" doc:"wrk's median latency (--latency distribution); missing without it."`
	WrkLatencyP99Ms Opt    `csv:"wrk_latency_p99_ms" unit:"ms" atleast:"wrk_latency_p50_ms" doc:"wrk's 99th-percentile latency (--latency distribution); missing without it."`
	WrkErrors       Opt    `csv:"wrk_errors" unit:"1" doc:"wrk's socket errors (connect, read, write, timeout) plus its non-2xx or 3xx responses; any makes the run not data; missing without a wrk phase or figure (0 in bundles written before)."`
	WrkFailure      string `csv:"wrk_failure" doc:"Why wrk gave no figure (it never ran, did not end, exited non-zero, or its output could not be read); empty when it did or had no phase; any makes the run not data."`
	// WrkHostBusyPct is the whole host's busy CPU over wrk's phase, as HostBusyPct is
	// over the kit's load: how alike the two loads' hosts were.
	WrkHostBusyPct Opt `csv:"wrk_host_cpu_busy_pct" unit:"%" doc:"The whole host's busy CPU over wrk's phase (from the conductor's start signal to wrk's exit), as host_cpu_busy_pct over the kit's load; missing without a wrk phase or when the host could not be read."`
	// WrkAfterKit says wrk ran after the kit's measured load, not before it; then the
	// console's and the file's totals are the API's once wrk ended.
	WrkAfterKit bool `csv:"wrk_after_kit" doc:"True when wrk ran after the kit's measured load (a condition's even runs), false when right before it or without a wrk phase; then the console's and the file's totals (and the file read back whole) are as the API reported them after wrk."`
	// What others count of wrk's phase: the API its requests, the engine wrk's CPU, so
	// that wrk's figures are checked as the kit's are (api_requests, generator_cpu_s).
	WrkAPIRequests Opt `csv:"wrk_api_requests" unit:"1" doc:"When wrk ran after the kit's measured load: the requests the API answered from its report after the kit's load to its report after wrk, as it counted them, an independent count of wrk's (wrk_requests is at most this, short of it by at most the requests in flight when wrk stopped); missing otherwise."`
	WrkCPUS        Opt `csv:"wrk_cpu_s" unit:"s" doc:"The wrk container's CPU over its life, as the engine read it from its cgroup once the run ended (its shell waits on a FIFO, at no cost): wrk's own CPU, as generator_cpu_s is the kit's; missing without a wrk phase or where the engine reads no usage."`
	// What vegeta measured at a capacity step's rate, right before the kit's measured
	// load (--vegeta): its own attacker and metrics, latency from its own send.
	VegetaRequests Opt    `csv:"vegeta_requests" unit:"1" doc:"--vegeta: the requests vegeta's attacker sent at the step's rate before the kit's measured load; missing without a vegeta phase."`
	VegetaSuccess  Opt    `csv:"vegeta_success" unit:"1" doc:"--vegeta: vegeta's share of 2xx answers, 0 to 1; missing without a vegeta phase."`
	VegetaP50Ms    Opt    `csv:"vegeta_p50_ms" unit:"ms" doc:"--vegeta: vegeta's median latency, from its own send (its estimate); missing without a vegeta phase."`
	VegetaP99Ms    Opt    `csv:"vegeta_p99_ms" unit:"ms" atleast:"vegeta_p50_ms" doc:"--vegeta: vegeta's 99th-percentile latency, from its own send (its estimate); missing without a vegeta phase."`
	VegetaFailure  string `csv:"vegeta_failure" doc:"--vegeta: why vegeta gave no figure; empty when it did or had no phase."`
	// The kit's half of the vegeta phase: its open loop at the same time as vegeta.
	VegetaKitP50Ms    Opt `csv:"vegeta_kit_p50_ms" unit:"ms" doc:"--vegeta: the kit's median latency from the scheduled send over the vegeta phase, offering the other half of the rate at the same time as vegeta; missing without a vegeta phase."`
	VegetaKitP99Ms    Opt `csv:"vegeta_kit_p99_ms" unit:"ms" atleast:"vegeta_kit_p50_ms,vegeta_kit_net_p99_ms" doc:"--vegeta: the kit's 99th-percentile latency from the scheduled send over the vegeta phase; missing without one."`
	VegetaKitNetP50Ms Opt `csv:"vegeta_kit_net_p50_ms" unit:"ms" doc:"--vegeta: the kit's median over the vegeta phase of each latency less its send lag, from when the request could leave as vegeta's from its send; missing without one."`
	VegetaKitNetP99Ms Opt `csv:"vegeta_kit_net_p99_ms" unit:"ms" atleast:"vegeta_kit_net_p50_ms" doc:"--vegeta: the kit's 99th percentile over the vegeta phase of each latency less its send lag; missing without one."`

	// Derived (DeriveRun).
	httpload.Rates
	RequestsPerSStdev Opt  `csv:"requests_per_s_stdev" unit:"req/s" doc:"Population standard deviation of the whole seconds' counts; missing when the interval has no whole second (0 in bundles written before, which verify reads as missing)."` // population, whole seconds; absent without one
	GeneratorCores    Opt  `csv:"generator_cpu_cores" unit:"cores" doc:"generator_cpu_s over measured_s: the generator's mean CPU; missing when measured_s is 0 (0 in bundles written before, which verify reads as missing)."`                    // absent without a measured interval
	GeneratorBusy     bool `csv:"generator_saturated" doc:"true when generator_cpu_cores reached 0.9 of generator_cpu_limit_cores: the generator may have been the bottleneck, and the run is not data."`
	APICPUCores       Opt  `csv:"api_cpu_cores" was:"cpu_api_cores" unit:"cores" doc:"(api_cpu_user_us + api_cpu_system_us) over api_interval_ms: the API's mean CPU; missing when api_interval_ms is missing or 0."`
	APICPUUsPerReq    Opt  `csv:"api_cpu_us_per_request" was:"cpu_api_us_per_request" unit:"us" doc:"(api_cpu_user_us + api_cpu_system_us) over api_requests; missing when api_requests is missing or 0."`
	EngineCores       Opt  `csv:"engine_cpu_cores" was:"cpu_engine_cores" unit:"cores" doc:"engine_cpu_s over engine_interval_s: the engine's own CPU outside the container; missing when not measured."`
	EngineUsPerReq    Opt  `csv:"engine_cpu_us_per_request" was:"cpu_engine_us_per_request" unit:"us" doc:"engine_cpu_s over api_requests; missing when the engine was not measured or the API answered nothing."`
	// OtherCores is the host's busy CPU that neither the API, the generator nor the
	// engine used: other work on the host, the noise of the run.
	OtherCores Opt `signed:"true" csv:"other_cpu_cores" unit:"cores" doc:"The host's busy CPU that neither the API, the generator nor the engine used: host_cpu_busy_pct / 100 x host_cpus - api_cpu_cores - generator_cpu_cores - engine_cpu_cores (the engine included here when not measured); missing without host_cpu_busy_pct, host_cpus, api_cpu_cores or generator_cpu_cores."`
	// HostNoisy: OtherCores over experiment.NoisyOtherCores. The run is still data; the bundle says
	// how many of a condition's runs were measured so.
	HostNoisy       bool  `csv:"host_noisy" doc:"true when other_cpu_cores is over 0.25: other work shared the host; the run is still data."`
	LogLinesWritten int64 `csv:"log_lines_written" unit:"1" doc:"console_total_lines_written + file_total_lines_written: the lines every sink wrote since the API started."`                                                                    // every sink, since the API started
	LogLinesRead    Opt   `csv:"log_lines_read" unit:"1" doc:"Lines read back from the sinks the configuration has (the engine's log stream, the log file); missing when one of them could not be read back (log driver none, a failed read)."` // absent when nothing could be read back
	LogLinesDropped Opt   `csv:"log_lines_dropped" unit:"1" doc:"Console lines the logging driver dropped in non-blocking mode (written minus read); 0 otherwise; missing when log_lines_read is."`                                             // console lines the driver dropped (non-blocking)
	// WrkAgreement is RequestsPerSOver over WrkRequestsPerS; past WrkTolerance the run
	// is not data.
	WrkAgreement    Opt    `csv:"wrk_agreement" unit:"1" doc:"requests_per_s_over_interval over wrk_requests_per_s: the kit's rate against an independent instrument's on the same API; missing without wrk's figure. Outside 1 ± 0.05 the kit's rate is not confirmed by wrk (the run stays data; the summary says so)."`
	WrkCPUCores     Opt    `csv:"wrk_cpu_cores" unit:"cores" doc:"wrk_cpu_s over wrk_duration_s: wrk's mean CPU over its load, as generator_cpu_cores is the kit's generator's; missing without either."`
	ConsoleVerified string `csv:"console_check" doc:"The console log's check: equal (lines, bytes and SHA-256 as written), dropped N (non-blocking mode), differs: ..., or not read back (why); empty (missing) when the configuration has no console log (- in bundles written before the kit spelled missing as empty)."` // "equal", "dropped N", "not read (driver none)", what differs; "" without a console log
	FileVerified    string `csv:"file_check" doc:"The log file's check: equal (whole file and from the reset's offset, as written), differs: ..., not read back, the date changed N times during the run; empty (missing) when the configuration has no log file (- in bundles written before the kit spelled missing as empty)."`
	Verified        bool   `csv:"verified" doc:"true when the run is data: failure is empty."`
	Failure         string `csv:"failure" doc:"Why the run is not data, reasons joined by \"; \" (observed_failure, no request, errors or non-2xx responses, no report from the API, a saturated generator, sink write errors, wrk's failure or errors, the kit's rate and wrk's apart by more than 5%, a log check that failed); empty when it is."`
}

// SeriesRow is one second of one run's measured interval (series.csv): the responses
// completed in it. The last second of an interval that is not whole is shorter.
type SeriesRow = tabular.SecondRow

// ConditionRow is one cell api x config (conditions.csv), pooling its verified runs.
type ConditionRow struct {
	API          string `csv:"api" doc:"The API implementation serving the load: node (Express with morgan, the published stack without Nest), go (gorilla/handlers' access log) or python (the standard library's logging)."`
	Config       string `csv:"config" doc:"Which access logs the API writes: console+file, console (stdout, through the engine's logging driver), file (a daily file on a volume) or none."`
	Runs         int    `csv:"runs" unit:"1" doc:"Runs of the condition, failed ones included."`
	RunsVerified int    `csv:"runs_verified" unit:"1" doc:"Verified runs: the runs every figure pools."`
	RunsNoisy    int    `csv:"runs_noisy" unit:"1" doc:"Verified runs on a noisy host (host_noisy)."` // verified runs on a noisy host
	// Requests per second: the mean over the verified runs of each run's autocannon
	// figure, and its 95% Student-t interval over runs (absent with fewer than 2).
	httpload.Pooled
	RequestsPerSOver Opt `csv:"requests_per_s_over_interval" unit:"req/s" doc:"Mean over the verified runs of their requests_per_s_over_interval (those that have it); missing when none has."`
	// RatioToConsoleFile is this condition's requests/s over console+file's, same API.
	RatioToConsoleFile Opt   `csv:"ratio_to_console_file" unit:"1" doc:"requests_per_s over the same API's console+file condition's; missing when either is missing or 0, or console+file is not in the matrix."`
	Errors             int64 `csv:"no_response" was:"errors" unit:"1" doc:"no_response summed over the verified runs."`
	LogLinesWritten    int64 `csv:"log_lines_written" unit:"1" doc:"log_lines_written summed over the verified runs."`
	LogLinesRead       Opt   `csv:"log_lines_read" unit:"1" doc:"log_lines_read summed over the verified runs; missing without verified runs or when any of them has none."`
	LogLinesDropped    Opt   `csv:"log_lines_dropped" unit:"1" doc:"log_lines_dropped summed over the verified runs; missing when log_lines_read is."`
	CPUAPICores        Opt   `csv:"api_cpu_cores" was:"cpu_api_cores" unit:"cores" doc:"Mean of the verified runs' api_cpu_cores (those that have it); missing when none has."`
	// CPUEngineCores is the engine's own CPU (dockerd, containerd, the shims), outside
	// the container; absent when it was not measured.
	CPUEngineCores    Opt `csv:"engine_cpu_cores" was:"cpu_engine_cores" unit:"cores" doc:"Mean of the verified runs' engine_cpu_cores; missing unless every verified run has it (a figure of some runs would not be the condition's)."`
	CPUAPIUsPerReq    Opt `csv:"api_cpu_us_per_request" was:"cpu_api_us_per_request" unit:"us" doc:"Mean of the verified runs' api_cpu_us_per_request (those that have it); missing when none has."`
	CPUEngineUsPerReq Opt `csv:"engine_cpu_us_per_request" was:"cpu_engine_us_per_request" unit:"us" doc:"Mean of the verified runs' engine_cpu_us_per_request; missing unless every verified run has engine_cpu_cores."`
	// The cost of logging per request: the CPU time per request over none's, same API,
	// inside the container, outside it (the engine), and both (absent when the engine
	// was not measured).
	CostPerRequestUs       Opt `signed:"true" csv:"cost_per_request_us" unit:"us" doc:"The CPU logging costs a request, inside and outside the container: cost_per_request_api_us + cost_per_request_engine_us; missing when either is."`
	CostPerRequestAPIUs    Opt `signed:"true" csv:"cost_per_request_api_us" unit:"us" doc:"api_cpu_us_per_request minus the same API's none condition's: the CPU logging costs a request inside the container; missing when either is missing."`
	CostPerRequestEngineUs Opt `signed:"true" csv:"cost_per_request_engine_us" unit:"us" doc:"engine_cpu_us_per_request minus the same API's none condition's: the CPU logging costs a request in the engine; missing when either is missing."`
	OtherCPUCores          Opt `signed:"true" csv:"other_cpu_cores" unit:"cores" doc:"Mean of the verified runs' other_cpu_cores; missing unless every verified run has it."`
	PublishedReqPerS       Opt `csv:"published_requests_per_s" unit:"req/s" doc:"The article's mean requests per second for this configuration (results/reference/qps/figures.csv); missing where it gives none."`
	PublishedRatio         Opt `csv:"published_ratio_to_console_file" unit:"1" doc:"The article's requests per second for this configuration over its console+file figure; missing where it gives none."`
	GeneratorCPUCores      Opt `csv:"generator_cpu_cores" unit:"cores" doc:"Mean of the verified runs' generator_cpu_cores (those that have it); missing when none has."`
	// wrk's rate and the kit's over it, means over the verified runs that have them;
	// the agreement's 95% Student-t interval over those runs (absent with fewer than
	// 2), like requests_per_s's, and how many of them agree within WrkTolerance.
	WrkRequestsPerS    Opt `csv:"wrk_requests_per_s" unit:"req/s" doc:"Mean of the verified runs' wrk_requests_per_s (those that have it); missing when none has (--wrk=false, or a configuration other than none in a bundle of an earlier kit)."`
	WrkAgreement       Opt `csv:"wrk_agreement" unit:"1" doc:"Mean of the verified runs' wrk_agreement (those that have it); missing when none has. runs.csv has every run's, the failed ones too."`
	WrkAgreementCILow  Opt `signed:"true" csv:"wrk_agreement_ci_low" unit:"1" doc:"Low end of wrk_agreement's 95% Student-t interval over those runs, as requests_per_s_ci_low's; missing with fewer than 2."`
	WrkAgreementCIHigh Opt `csv:"wrk_agreement_ci_high" unit:"1" doc:"High end of wrk_agreement's 95% Student-t interval over those runs; missing with fewer than 2."`
	RunsWrk            Opt `csv:"runs_wrk" unit:"1" doc:"Verified runs with a wrk_agreement; missing when none has."`
	RunsWrkAgreeing    Opt `csv:"runs_wrk_agreeing" unit:"1" doc:"Of runs_wrk, those whose wrk_agreement is within 1 ± 0.05."`
}
