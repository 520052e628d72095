package qps

import (
	"fmt"
	"reflect"

	"github.com/logbench/logbench/kit/incontainer/closedloop"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// DataPackageFile describes the bundle's files and columns for any reader (see
// bundle.DataPackageFile); a bundle written before the kit wrote it has none.
const DataPackageFile = bundle.DataPackageFile

// tables are the bundle's CSV files with their row types and what one row is.
var tables = []bundle.Table{
	{File: RunsFile, Name: "runs", Row: reflect.TypeFor[RunRow](), Key: []string{"run_id"},
		Text: "One row per run, failed ones too: the closed-loop load as the generator measured it, the API's own counters, the engine's and the host's CPU, " +
			"every access log read back and checked, and the figures derived from them (from requests on), which verify recomputes.",
		Enums: map[string][]string{"api": APIs, "config": Configs}},
	{File: SeriesFile, Name: "series", Row: reflect.TypeFor[SeriesRow](), Key: []string{"run_id", "second"},
		Text: "One row per second of each run's measured interval: the responses completed in it; a run's rows sum to its requests in runs.csv."},
	{File: ConditionsFile, Name: "conditions", Row: reflect.TypeFor[ConditionRow](), Key: []string{"api", "config"},
		Text:  "One row per condition (api x config, in the manifest's order): figures pooled over its verified runs, and the article's figures beside them.",
		Enums: map[string][]string{"api": APIs, "config": Configs}},
}

// columnDocs are every column's unit and meaning, by file ("" for the columns several
// files share); TestEveryColumnIsDescribed fails for a column missing here.
var columnDocs = map[string]map[string]doc{
	"": {
		"run_id": {"", "The run's identifier, unique in the bundle; runs.csv has its condition."},
		"api":    {"", "The API implementation serving the load: node (Express with morgan, the published stack without Nest), go (gorilla/handlers' access log) or python (the standard library's logging)."},
		"config": {"", "Which access logs the API writes: console+file, console (stdout, through the engine's logging driver), file (a daily file on a volume) or none."},
	},
	RunsFile: {
		"round":                        {"1", "The round of the matrix, from 1."},
		"position":                     {"1", "The run's place in its round, from 1 (the order rotates between rounds)."},
		"started_utc":                  {"", "When the kit started the run, UTC, RFC 3339 with nanoseconds."},
		"wall_s":                       {"s", "The kit's whole run, from creating the pod to removing it."},
		"log_driver":                   {"", "The API container's logging driver (the manifest's parameters.log_driver); none discards stdout, so the console log cannot be read back."},
		"observed_failure":             {"", "What the conductor and the engine saw go wrong with the run, reasons joined by \"; \"; empty when nothing did."},
		"measured_s":                   {"s", "The measured interval as the load ran, after the warm-up: parameters.duration_s, or less when interrupted; 0 when the load never started."},
		"status_2xx":                   {"1", "Responses with a 2xx status completed in the measured interval."},
		"non_2xx":                      {"1", "Responses with any other status completed in the measured interval."},
		"errors":                       {"1", "Requests of the measured interval that got no response (a failed or closed connection, a timeout, a malformed response), plus failed connects."},
		"timeouts":                     {"1", "The part of errors that timed out."},
		"latency_mean_ms":              {"ms", "Mean latency from a request's send to the last byte of its response, over the measured interval's responses (closed loop); 0 without responses."},
		"latency_p50_ms":               {"ms", "Median latency, nearest rank, over the measured interval's responses; 0 without responses."},
		"latency_p90_ms":               {"ms", "90th-percentile latency, nearest rank; 0 without responses."},
		"latency_p99_ms":               {"ms", "99th-percentile latency, nearest rank; 0 without responses."},
		"latency_max_ms":               {"ms", "Largest latency of the measured interval; 0 without responses."},
		"generator_cpu_s":              {"s", "CPU time (user + system, every thread) the load generator used over the measured interval."},
		"generator_cpu_limit_cores":    {"cores", "The cores the generator can use: its CPU limit, else GOMAXPROCS, and no more than the connections (one goroutine each)."},
		"warmup_requests":              {"1", "Responses completed in the warm-up, before the API's counters were reset; not measured."},
		"api_implementation":           {"", "What the API called itself in its report (node, go, python); empty when it sent no report."},
		"api_requests":                 {"1", "Requests the API answered from the reset after the warm-up to its report, as it counted them; 0 without a report."},
		"api_cpu_user_us":              {"us", "User CPU time of the API process from the reset to its report, as it measured itself."},
		"api_cpu_system_us":            {"us", "System CPU time of the API process from the reset to its report, as it measured itself."},
		"api_interval_ms":              {"ms", "From the API's reset to its report: the interval its CPU figures cover; 0 without a report."},
		"api_rss_bytes":                {"bytes", "The API process's resident memory at its report."},
		"sink_write_errors":            {"1", "Write errors the API's log sinks (console and file) reported, summed; any makes the run not data."},
		"console_lines_written":        {"1", "Access-log lines the API wrote to stdout from the reset to its report; 0 without a console sink."},
		"console_bytes_written":        {"bytes", "Access-log bytes the API wrote to stdout from the reset to its report."},
		"console_total_lines_written":  {"1", "Lines the API wrote to stdout since it started, warm-up included: what the engine's log stream must hold."},
		"console_total_bytes_written":  {"bytes", "Bytes the API wrote to stdout since it started."},
		"console_total_sha256_written": {"", "SHA-256 (hex) of every byte the API wrote to stdout since it started; empty without a console sink."},
		"console_read":                 {"", "true when the engine's log stream of the API container was read back after the run."},
		"console_lines_read":           {"1", "Lines in the log stream read back (newlines counted); 0 when it was not read."},
		"console_bytes_read":           {"bytes", "Bytes of the log stream read back; 0 when it was not read."},
		"console_sha256_read":          {"", "SHA-256 (hex) of the log stream read back; empty when it was not read."},
		"file_lines_written":           {"1", "Access-log lines the API handed its log file from the reset to its report; 0 without a file sink."},
		"file_bytes_written":           {"bytes", "Access-log bytes the API handed its log file from the reset to its report."},
		"file_sha256_written":          {"", "SHA-256 (hex) of the bytes handed the log file from the reset to the report; empty without a file sink."},
		"file_total_lines_written":     {"1", "Lines the API handed its log file since it started, warm-up included."},
		"file_total_bytes_written":     {"bytes", "Bytes the API handed its log file since it started."},
		"file_total_sha256_written":    {"", "SHA-256 (hex) of every byte the API handed its log file since it started; empty without a file sink."},
		"file_rotations":               {"1", "Date changes since the reset: each starts a new daily file, so the file read back holds part of the lines (the run is not data)."},
		"file_path":                    {"", "The log file's path inside the API container; empty without a file sink."},
		"file_read":                    {"", "true when the conductor read the log file back from the shared volume without a failure."},
		"file_lines_read":              {"1", "Lines of the whole log file read back; 0 when it was not read."},
		"file_bytes_read":              {"bytes", "Bytes of the whole log file read back; 0 when it was not read."},
		"file_sha256_read":             {"", "SHA-256 (hex) of the whole log file read back; empty when it was not read."},
		"file_lines_read_since_reset":  {"1", "Lines of the log file from the offset it had at the reset on; must equal file_lines_written."},
		"file_bytes_read_since_reset":  {"bytes", "Bytes of the log file from the reset's offset on; must equal file_bytes_written."},
		"file_sha256_read_since_reset": {"", "SHA-256 (hex) of the log file from the reset's offset on; must equal file_sha256_written."},
		"engine_measured":              {"", "true when a helper in the host's PID namespace measured the engine's processes over the measured interval (parameters.engine_cpu, and no failure)."},
		"engine_cpu_s":                 {"s", "CPU time (user + system) of dockerd, containerd and the shims between two samples around the measured interval, over the processes present in both; 0 when not measured."},
		"engine_dockerd_cpu_s":         {"s", "The part of engine_cpu_s that dockerd used; 0 when not measured."},
		"engine_interval_s":            {"s", "Time between the engine's two samples; 0 when not measured."},
		"engine_failure":               {"", "Why the engine's CPU could not be measured; empty when it was, or was not asked for."},
		"host_cpu_busy_pct":            {"%", "The whole host's busy CPU over the measured interval (/proc/stat), in percent of all its CPUs; missing when the host could not be read."},
		"host_cpus":                    {"1", "The host's CPUs as the conductor counted them; 0 when the host was not read."},
		"wrk_requests":                 {"1", "Requests wrk reports completed (\"N requests in T\") when it loaded the same API container after the kit's measured load (the none configuration, parameters.wrk); 0 without it."},
		"wrk_duration_s":               {"s", "wrk's own duration of that load (the T of its requests line); 0 without it."},
		"wrk_requests_per_s":           {"req/s", "wrk's Requests/sec line: its requests over its duration; missing without a wrk phase or when wrk gave no figure."},
		"wrk_latency_p50_ms":           {"ms", "wrk's median latency (--latency distribution); missing without it."},
		"wrk_latency_p99_ms":           {"ms", "wrk's 99th-percentile latency (--latency distribution); missing without it."},
		"wrk_errors":                   {"1", "wrk's socket errors (connect, read, write, timeout) plus its non-2xx or 3xx responses; any makes the run not data."},
		"wrk_failure":                  {"", "Why wrk gave no figure (it never ran, did not end, exited non-zero, or its output could not be read); empty when it did or had no phase; any makes the run not data."},
		"wrk_agreement":                {"1", fmt.Sprintf("requests_per_s_over_interval over wrk_requests_per_s: the kit's rate against an independent instrument's on the same API; missing without wrk's figure. Outside 1 ± %g the kit's rate is not confirmed by wrk (the run stays data; the summary says so).", WrkTolerance)},
		"requests":                     {"1", "Responses completed in the measured interval: the sum of the run's rows in series.csv."},
		"requests_per_s":               {"req/s", "Autocannon's figure: the mean of the whole seconds' counts in series.csv (requests over measured_s when the interval is shorter than a second)."},
		"requests_per_s_stdev":         {"req/s", "Population standard deviation of the whole seconds' counts; 0 when the interval is shorter than a second."},
		"requests_per_s_over_interval": {"req/s", "requests over measured_s; 0 when measured_s is 0."},
		"generator_cpu_cores":          {"cores", "generator_cpu_s over measured_s: the generator's mean CPU; 0 when measured_s is 0."},
		"generator_saturated": {"", fmt.Sprintf("true when generator_cpu_cores reached %g of generator_cpu_limit_cores: the generator may have been the bottleneck, and the run is not data.",
			closedloop.SaturationShare)},
		"cpu_api_cores":             {"cores", "(api_cpu_user_us + api_cpu_system_us) over api_interval_ms: the API's mean CPU; missing when api_interval_ms is 0."},
		"cpu_api_us_per_request":    {"us", "(api_cpu_user_us + api_cpu_system_us) over api_requests; missing when api_requests is 0."},
		"cpu_engine_cores":          {"cores", "engine_cpu_s over engine_interval_s: the engine's own CPU outside the container; missing when not measured."},
		"cpu_engine_us_per_request": {"us", "engine_cpu_s over api_requests; missing when the engine was not measured or the API answered nothing."},
		"other_cpu_cores":           {"cores", "The host's busy CPU that neither the API, the generator nor the engine used: host_cpu_busy_pct / 100 x host_cpus - cpu_api_cores - generator_cpu_cores - cpu_engine_cores (the engine included here when not measured); missing without host_cpu_busy_pct or cpu_api_cores."},
		"host_noisy":                {"", fmt.Sprintf("true when other_cpu_cores is over %g: other work shared the host; the run is still data.", NoisyOtherCores)},
		"log_lines_written":         {"1", "console_total_lines_written + file_total_lines_written: the lines every sink wrote since the API started."},
		"log_lines_read":            {"1", "Lines read back from the sinks the configuration has (the engine's log stream, the log file); missing when one of them could not be read back (log driver none, a failed read)."},
		"log_lines_dropped":         {"1", "Console lines the logging driver dropped in non-blocking mode (written minus read); 0 otherwise; missing when log_lines_read is."},
		"console_check":             {"", "The console log's check: equal (lines, bytes and SHA-256 as written), dropped N (non-blocking mode), differs: ..., not read back (why), or - when the configuration has no console log."},
		"file_check":                {"", "The log file's check: equal (whole file and from the reset's offset, as written), differs: ..., not read back, the date changed N times during the run, or - when the configuration has no log file."},
		"verified":                  {"", "true when the run is data: failure is empty."},
		"failure":                   {"", "Why the run is not data, reasons joined by \"; \" (observed_failure, no request, errors or non-2xx responses, a saturated generator, sink write errors, wrk's failure or errors, the kit's rate and wrk's apart by more than 5%, a log check that failed); empty when it is."},
	},
	SeriesFile: {
		"second":   {"s", "The second of the measured interval, from 0."},
		"requests": {"1", "Responses completed in that second, whatever their status; the last second is shorter when measured_s is not whole."},
	},
	ConditionsFile: {
		"runs":                            {"1", "Runs of the condition, failed ones included."},
		"runs_verified":                   {"1", "Verified runs: the runs every figure pools."},
		"runs_noisy":                      {"1", "Verified runs on a noisy host (host_noisy)."},
		"requests_per_s":                  {"req/s", "Mean over the verified runs of their requests_per_s; missing without verified runs."},
		"requests_per_s_ci_low":           {"req/s", "Lower end of the 95% Student-t interval of that mean over runs; missing with fewer than 2 verified runs."},
		"requests_per_s_ci_high":          {"req/s", "Upper end of the 95% Student-t interval of that mean over runs; missing with fewer than 2 verified runs."},
		"requests_per_s_over_interval":    {"req/s", "Mean over the verified runs of their requests_per_s_over_interval; missing without verified runs."},
		"ratio_to_console_file":           {"1", "requests_per_s over the same API's console+file condition's; missing when either is missing or 0, or console+file is not in the matrix."},
		"latency_p50_ms":                  {"ms", "Mean over the verified runs of their latency_p50_ms (not a pooled percentile); missing without verified runs."},
		"latency_p99_ms":                  {"ms", "Mean over the verified runs of their latency_p99_ms (not a pooled percentile); missing without verified runs."},
		"errors":                          {"1", "errors summed over the verified runs."},
		"log_lines_written":               {"1", "log_lines_written summed over the verified runs."},
		"log_lines_read":                  {"1", "log_lines_read summed over the verified runs; missing without verified runs or when any of them has none."},
		"log_lines_dropped":               {"1", "log_lines_dropped summed over the verified runs; missing when log_lines_read is."},
		"cpu_api_cores":                   {"cores", "Mean of the verified runs' cpu_api_cores (those that have it); missing when none has."},
		"cpu_engine_cores":                {"cores", "Mean of the verified runs' cpu_engine_cores; missing unless every verified run has it (a figure of some runs would not be the condition's)."},
		"cpu_api_us_per_request":          {"us", "Mean of the verified runs' cpu_api_us_per_request (those that have it); missing when none has."},
		"cpu_engine_us_per_request":       {"us", "Mean of the verified runs' cpu_engine_us_per_request; missing unless every verified run has cpu_engine_cores."},
		"cost_per_request_us":             {"us", "The CPU logging costs a request, inside and outside the container: cost_per_request_api_us + cost_per_request_engine_us; missing when either is."},
		"cost_per_request_api_us":         {"us", "cpu_api_us_per_request minus the same API's none condition's: the CPU logging costs a request inside the container; missing when either is missing."},
		"cost_per_request_engine_us":      {"us", "cpu_engine_us_per_request minus the same API's none condition's: the CPU logging costs a request in the engine; missing when either is missing."},
		"other_cpu_cores":                 {"cores", "Mean of the verified runs' other_cpu_cores; missing unless every verified run has it."},
		"published_requests_per_s":        {"req/s", "The article's mean requests per second for this configuration (results/reference/qps/figures.csv); missing where it gives none."},
		"published_ratio_to_console_file": {"1", "The article's requests per second for this configuration over its console+file figure; missing where it gives none."},
		"generator_cpu_cores":             {"cores", "Mean of the verified runs' generator_cpu_cores; missing without verified runs."},
		"wrk_requests_per_s":              {"req/s", "Mean of the verified runs' wrk_requests_per_s (those that have it); missing when none has (only none has a wrk phase)."},
		"wrk_agreement":                   {"1", "Mean of the verified runs' wrk_agreement (those that have it); missing when none has. runs.csv has every run's, the failed ones too."},
	},
}

// doc is a column's unit and meaning (bundle.Doc).
type doc struct{ unit, text string }

// docs are columnDocs as bundle.Describe takes them.
func docs() map[string]map[string]bundle.Doc {
	out := map[string]map[string]bundle.Doc{}
	for file, cols := range columnDocs {
		out[file] = map[string]bundle.Doc{}
		for col, d := range cols {
			out[file][col] = bundle.Doc{Unit: d.unit, Text: d.text}
		}
	}
	return out
}

// manifestText documents the manifest's keys a reader could misread.
const manifestText = "The bundle's manifest: which experiment and kit wrote it (experiment, kit_version, kit_commit, command), when, " +
	"on which engine (engine.*), with which images, how far the matrix got (runs_planned, runs_completed, runs_verified, complete, interrupted), " +
	"and the parameters every run shared: apis and configs (the matrix), rounds, the load (connections, pipelining, duration_s and warmup_s in seconds), " +
	"the API container's log_driver and log_opts as the docker CLI spells them (non_blocking: mode=non-blocking), the containers' limits " +
	"(limits.api_cpus and limits.loadgen_cpus in cores, 0 = no limit; memory in bytes; pids_limit), max_run_time_s, engine_cpu (whether the engine's own CPU " +
	"was measured) and engine_cpu_how, wrk (whether Debian's wrk loaded the API after the kit in each run of none) and wrk_command, and platform. versions maps each API to its runtime's and libraries' versions as its image records them; " +
	"unmeasured names what the bundle does not measure, so that a missing column is not read as a zero."

// DataPackage describes a qps bundle's files.
func DataPackage() bundle.DataPackage {
	return bundle.Describe("logbench-qps-bundle", "logbench qps result bundle",
		"A result bundle of the qps experiment: requests per second of an API under a closed-loop load in each access-log configuration, "+
			"every run's load, CPU and log read-back, per-second counts, and each condition's pooled figures beside the article's. "+
			"SHA256SUMS lists every file's SHA-256; `logbench verify` recomputes every derived figure from the rows. An empty CSV field is a missing value.",
		manifestText, tables, docs())
}
