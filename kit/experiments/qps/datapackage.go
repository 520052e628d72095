package qps

import (
	"fmt"
	"reflect"

	"github.com/logbench/logbench/kit/contract"
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
var columnDocs = map[string]map[string]bundle.Doc{
	"": {
		"run_id": {Text: "The run's identifier, unique in the bundle; runs.csv has its condition."},
		"api":    {Text: "The API implementation serving the load: node (Express with morgan, the published stack without Nest), go (gorilla/handlers' access log) or python (the standard library's logging)."},
		"config": {Text: "Which access logs the API writes: console+file, console (stdout, through the engine's logging driver), file (a daily file on a volume) or none."},
	},
	RunsFile: {
		"round":                        {Unit: "1", Text: "The round of the matrix, from 1."},
		"position":                     {Unit: "1", Text: "The run's place in its round, from 1 (the order rotates between rounds)."},
		"started_utc":                  {Text: "When the kit started the run, UTC, RFC 3339 with nanoseconds."},
		"wall_s":                       {Unit: "s", Text: "The kit's whole run, from creating the pod to removing it."},
		"log_driver":                   {Text: "The API container's logging driver (the manifest's parameters.log_driver); none discards stdout, so the console log cannot be read back."},
		"observed_failure":             {Text: "What the conductor and the engine saw go wrong with the run, reasons joined by \"; \"; empty when nothing did."},
		"measured_s":                   {Unit: "s", Text: "The measured interval as the load ran, after the warm-up: parameters.duration_s, or less when interrupted; 0 when the load never started."},
		"status_2xx":                   {Unit: "1", Text: "Responses with a 2xx status completed in the measured interval."},
		"non_2xx":                      {Unit: "1", Text: "Responses with any other status completed in the measured interval."},
		"no_response":                  {Unit: "1", Text: "Requests of the measured interval that got no response (a failed or closed connection, a timeout, a malformed response), plus failed connects."},
		"timeouts":                     {Unit: "1", Text: "The part of errors that timed out."},
		"mean_ms":                      {Unit: "ms", Text: "Mean latency from a request's send to the last byte of its response, over the measured interval's responses (closed loop); missing without responses."},
		"p50_ms":                       {Unit: "ms", Text: "Median latency, nearest rank, over the measured interval's responses; missing without responses."},
		"p90_ms":                       {Unit: "ms", Text: "90th-percentile latency, nearest rank; missing without responses."},
		"p99_ms":                       {Unit: "ms", Text: "99th-percentile latency, nearest rank; missing without responses."},
		"max_ms":                       {Unit: "ms", Text: "Largest latency of the measured interval; missing without responses."},
		"generator_cpu_s":              {Unit: "s", Text: "CPU time (user + system, every thread) the load generator used over the measured interval."},
		"generator_cpu_limit_cores":    {Unit: "cores", Text: "The cores the generator can use: its CPU limit, else GOMAXPROCS, and no more than the connections (one goroutine each)."},
		"warmup_requests":              {Unit: "1", Text: "Responses completed in the warm-up, before the API's counters were reset; not measured."},
		"api_implementation":           {Text: "What the API called itself in its report (node, go, python); empty when it sent no report."},
		"api_requests":                 {Unit: "1", Text: "Requests the API answered from the reset after the warm-up to its report, as it counted them; missing without a report (0 in bundles written before)."},
		"api_cpu_user_us":              {Unit: "us", Text: "User CPU time of the API process from the reset to its report, as it measured itself; missing without its report (0 in bundles written before)."},
		"api_cpu_system_us":            {Unit: "us", Text: "System CPU time of the API process from the reset to its report, as it measured itself; missing without its report (0 in bundles written before)."},
		"api_interval_ms":              {Unit: "ms", Text: "From the API's reset to its report: the interval its CPU figures cover; missing without a report (0 in bundles written before)."},
		"api_rss_bytes":                {Unit: "bytes", Text: "The API process's resident memory at its report; missing without its report (0 in bundles written before)."},
		"sink_write_errors":            {Unit: "1", Text: "Write errors the API's log sinks (console and file) reported, summed; any makes the run not data."},
		"console_lines_written":        {Unit: "1", Text: "Access-log lines the API wrote to stdout from the reset to its report; 0 without a console sink."},
		"console_bytes_written":        {Unit: "bytes", Text: "Access-log bytes the API wrote to stdout from the reset to its report."},
		"console_total_lines_written":  {Unit: "1", Text: "Lines the API wrote to stdout since it started, warm-up included: what the engine's log stream must hold."},
		"console_total_bytes_written":  {Unit: "bytes", Text: "Bytes the API wrote to stdout since it started."},
		"console_total_sha256_written": {Text: "SHA-256 (hex) of every byte the API wrote to stdout since it started; empty without a console sink."},
		"console_read":                 {Text: "true when the engine's log stream of the API container was read back after the run."},
		"console_lines_read":           {Unit: "1", Text: "Lines in the log stream read back (newlines counted); missing when it was not read (console_read false; 0 in bundles written before)."},
		"console_bytes_read":           {Unit: "bytes", Text: "Bytes of the log stream read back; missing when it was not read (0 in bundles written before)."},
		"console_sha256_read":          {Text: "SHA-256 (hex) of the log stream read back; empty when it was not read."},
		"file_lines_written":           {Unit: "1", Text: "Access-log lines the API handed its log file from the reset to its report; 0 without a file sink."},
		"file_bytes_written":           {Unit: "bytes", Text: "Access-log bytes the API handed its log file from the reset to its report."},
		"file_sha256_written":          {Text: "SHA-256 (hex) of the bytes handed the log file from the reset to the report; empty without a file sink."},
		"file_total_lines_written":     {Unit: "1", Text: "Lines the API handed its log file since it started, warm-up included."},
		"file_total_bytes_written":     {Unit: "bytes", Text: "Bytes the API handed its log file since it started."},
		"file_total_sha256_written":    {Text: "SHA-256 (hex) of every byte the API handed its log file since it started; empty without a file sink."},
		"file_rotations":               {Unit: "1", Text: "Date changes since the reset: each starts a new daily file, so the file read back holds part of the lines (the run is not data)."},
		"file_path":                    {Text: "The log file's path inside the API container; empty without a file sink."},
		"file_read":                    {Text: "true when the conductor read the log file back from the shared volume without a failure."},
		"file_lines_read":              {Unit: "1", Text: "Lines of the whole log file read back; missing when it was not read (file_read false; 0 in bundles written before)."},
		"file_bytes_read":              {Unit: "bytes", Text: "Bytes of the whole log file read back; missing when it was not read (0 in bundles written before)."},
		"file_sha256_read":             {Text: "SHA-256 (hex) of the whole log file read back; empty when it was not read."},
		"file_lines_read_since_reset":  {Unit: "1", Text: "Lines of the log file from the offset it had at the reset on; must equal file_lines_written; missing when the file was not read (0 in bundles written before)."},
		"file_bytes_read_since_reset":  {Unit: "bytes", Text: "Bytes of the log file from the reset's offset on; must equal file_bytes_written; missing when the file was not read (0 in bundles written before)."},
		"file_sha256_read_since_reset": {Text: "SHA-256 (hex) of the log file from the reset's offset on; must equal file_sha256_written."},
		"engine_measured":              {Text: "true when a helper in the host's PID namespace measured the engine's processes over the measured interval (parameters.engine_cpu, and no failure)."},
		"engine_cpu_s":                 {Unit: "s", Text: "CPU time (user + system) of the engine's processes (parameters.engine_kind docker: dockerd, containerd and the shims; podman: conmon and podman system service) between two samples around the measured interval, over the processes present in both; missing when not measured (engine_measured false; 0 in bundles written before)."},
		"engine_dockerd_cpu_s":         {Unit: "s", Text: "The part of engine_cpu_s that dockerd used; 0 on Podman; missing when not measured (0 in bundles written before)."},
		"engine_interval_s":            {Unit: "s", Text: "Time between the engine's two samples; missing when not measured (0 in bundles written before)."},
		"engine_failure":               {Text: "Why the engine's CPU could not be measured; empty when it was, or was not asked for."},
		"host_cpu_busy_pct":            {Unit: "%", Text: "The whole host's busy CPU over the measured interval (/proc/stat), in percent of all its CPUs; missing when the host could not be read."},
		"host_cpus":                    {Unit: "1", Text: "The host's CPUs as the conductor counted them; missing when the host was not read (0 in bundles written before)."},
		"wrk_requests":                 {Unit: "1", Text: "Requests wrk reports completed (\"N requests in T\") when it loaded the same API container after the kit's measured load (parameters.wrk); missing without a wrk phase or when wrk gave no figure (0 in bundles written before)."},
		"wrk_duration_s":               {Unit: "s", Text: "wrk's own duration of that load (the T of its requests line); missing without a wrk phase or figure (0 in bundles written before)."},
		"wrk_requests_per_s":           {Unit: "req/s", Text: "wrk's Requests/sec line: its requests over its duration; missing without a wrk phase or when wrk gave no figure."},
		"wrk_latency_p50_ms":           {Unit: "ms", Text: "wrk's median latency (--latency distribution); missing without it."},
		"wrk_latency_p99_ms":           {Unit: "ms", Text: "wrk's 99th-percentile latency (--latency distribution); missing without it."},
		"wrk_errors":                   {Unit: "1", Text: "wrk's socket errors (connect, read, write, timeout) plus its non-2xx or 3xx responses; any makes the run not data; missing without a wrk phase or figure (0 in bundles written before)."},
		"wrk_host_cpu_busy_pct":        {Unit: "%", Text: "The whole host's busy CPU over wrk's phase (from the conductor's start signal to wrk's exit), as host_cpu_busy_pct over the kit's load; missing without a wrk phase or when the host could not be read."},
		"wrk_after_kit":                {Text: "True when wrk ran after the kit's measured load (a condition's even runs), false when right before it or without a wrk phase; then the console's and the file's totals (and the file read back whole) are as the API reported them after wrk."},
		"wrk_failure":                  {Text: "Why wrk gave no figure (it never ran, did not end, exited non-zero, or its output could not be read); empty when it did or had no phase; any makes the run not data."},
		"wrk_agreement":                {Unit: "1", Text: fmt.Sprintf("requests_per_s_over_interval over wrk_requests_per_s: the kit's rate against an independent instrument's on the same API; missing without wrk's figure. Outside 1 ± %g the kit's rate is not confirmed by wrk (the run stays data; the summary says so).", WrkTolerance)},
		"responses":                    {Unit: "1", Text: "Responses completed in the measured interval: the sum of the run's rows in series.csv."},
		"requests_per_s":               {Unit: "req/s", Text: "Autocannon's figure: the mean of the whole seconds' counts in series.csv (requests over measured_s when the interval is shorter than a second); missing without a measured interval (0 in bundles written before)."},
		"requests_per_s_stdev":         {Unit: "req/s", Text: "Population standard deviation of the whole seconds' counts; missing when the interval has no whole second (0 in bundles written before, which verify reads as missing)."},
		"requests_per_s_over_interval": {Unit: "req/s", Text: "requests over measured_s; missing when measured_s is 0 (0 in bundles written before, which verify reads as missing)."},
		"generator_cpu_cores":          {Unit: "cores", Text: "generator_cpu_s over measured_s: the generator's mean CPU; missing when measured_s is 0 (0 in bundles written before, which verify reads as missing)."},
		"generator_saturated": {Text: fmt.Sprintf("true when generator_cpu_cores reached %g of generator_cpu_limit_cores: the generator may have been the bottleneck, and the run is not data.",
			contract.SaturationShare)},
		"api_cpu_cores":             {Unit: "cores", Text: "(api_cpu_user_us + api_cpu_system_us) over api_interval_ms: the API's mean CPU; missing when api_interval_ms is missing or 0."},
		"api_cpu_us_per_request":    {Unit: "us", Text: "(api_cpu_user_us + api_cpu_system_us) over api_requests; missing when api_requests is missing or 0."},
		"engine_cpu_cores":          {Unit: "cores", Text: "engine_cpu_s over engine_interval_s: the engine's own CPU outside the container; missing when not measured."},
		"engine_cpu_us_per_request": {Unit: "us", Text: "engine_cpu_s over api_requests; missing when the engine was not measured or the API answered nothing."},
		"other_cpu_cores":           {Unit: "cores", Text: "The host's busy CPU that neither the API, the generator nor the engine used: host_cpu_busy_pct / 100 x host_cpus - api_cpu_cores - generator_cpu_cores - engine_cpu_cores (the engine included here when not measured); missing without host_cpu_busy_pct, host_cpus, api_cpu_cores or generator_cpu_cores."},
		"host_noisy":                {Text: fmt.Sprintf("true when other_cpu_cores is over %g: other work shared the host; the run is still data.", NoisyOtherCores)},
		"log_lines_written":         {Unit: "1", Text: "console_total_lines_written + file_total_lines_written: the lines every sink wrote since the API started."},
		"log_lines_read":            {Unit: "1", Text: "Lines read back from the sinks the configuration has (the engine's log stream, the log file); missing when one of them could not be read back (log driver none, a failed read)."},
		"log_lines_dropped":         {Unit: "1", Text: "Console lines the logging driver dropped in non-blocking mode (written minus read); 0 otherwise; missing when log_lines_read is."},
		"console_check":             {Text: "The console log's check: equal (lines, bytes and SHA-256 as written), dropped N (non-blocking mode), differs: ..., or not read back (why); empty (missing) when the configuration has no console log (- in bundles written before the kit spelled missing as empty)."},
		"file_check":                {Text: "The log file's check: equal (whole file and from the reset's offset, as written), differs: ..., not read back, the date changed N times during the run; empty (missing) when the configuration has no log file (- in bundles written before the kit spelled missing as empty)."},
		"verified":                  {Text: "true when the run is data: failure is empty."},
		"failure":                   {Text: "Why the run is not data, reasons joined by \"; \" (observed_failure, no request, errors or non-2xx responses, no report from the API, a saturated generator, sink write errors, wrk's failure or errors, the kit's rate and wrk's apart by more than 5%, a log check that failed); empty when it is."},
	},
	SeriesFile: {
		"second":    {Unit: "s", Text: "The second of the measured interval, from 0."},
		"responses": {Unit: "1", Text: "Responses completed in that second, whatever their status; the last second is shorter when measured_s is not whole."},
	},
	ConditionsFile: {
		"runs":                            {Unit: "1", Text: "Runs of the condition, failed ones included."},
		"runs_verified":                   {Unit: "1", Text: "Verified runs: the runs every figure pools."},
		"runs_noisy":                      {Unit: "1", Text: "Verified runs on a noisy host (host_noisy)."},
		"requests_per_s":                  {Unit: "req/s", Text: "Mean over the verified runs of their requests_per_s; missing without verified runs."},
		"requests_per_s_ci_low":           {Unit: "req/s", Text: "Lower end of the 95% Student-t interval of that mean over runs; missing with fewer than 2 verified runs."},
		"requests_per_s_ci_high":          {Unit: "req/s", Text: "Upper end of the 95% Student-t interval of that mean over runs; missing with fewer than 2 verified runs."},
		"requests_per_s_over_interval":    {Unit: "req/s", Text: "Mean over the verified runs of their requests_per_s_over_interval (those that have it); missing when none has."},
		"ratio_to_console_file":           {Unit: "1", Text: "requests_per_s over the same API's console+file condition's; missing when either is missing or 0, or console+file is not in the matrix."},
		"p50_run_mean_ms":                 {Unit: "ms", Text: "Mean over the verified runs of their p50_ms (not a pooled percentile); missing without verified runs."},
		"p99_run_mean_ms":                 {Unit: "ms", Text: "Mean over the verified runs of their p99_ms (not a pooled percentile); missing without verified runs."},
		"no_response":                     {Unit: "1", Text: "no_response summed over the verified runs."},
		"log_lines_written":               {Unit: "1", Text: "log_lines_written summed over the verified runs."},
		"log_lines_read":                  {Unit: "1", Text: "log_lines_read summed over the verified runs; missing without verified runs or when any of them has none."},
		"log_lines_dropped":               {Unit: "1", Text: "log_lines_dropped summed over the verified runs; missing when log_lines_read is."},
		"api_cpu_cores":                   {Unit: "cores", Text: "Mean of the verified runs' api_cpu_cores (those that have it); missing when none has."},
		"engine_cpu_cores":                {Unit: "cores", Text: "Mean of the verified runs' engine_cpu_cores; missing unless every verified run has it (a figure of some runs would not be the condition's)."},
		"api_cpu_us_per_request":          {Unit: "us", Text: "Mean of the verified runs' api_cpu_us_per_request (those that have it); missing when none has."},
		"engine_cpu_us_per_request":       {Unit: "us", Text: "Mean of the verified runs' engine_cpu_us_per_request; missing unless every verified run has engine_cpu_cores."},
		"cost_per_request_us":             {Unit: "us", Text: "The CPU logging costs a request, inside and outside the container: cost_per_request_api_us + cost_per_request_engine_us; missing when either is."},
		"cost_per_request_api_us":         {Unit: "us", Text: "api_cpu_us_per_request minus the same API's none condition's: the CPU logging costs a request inside the container; missing when either is missing."},
		"cost_per_request_engine_us":      {Unit: "us", Text: "engine_cpu_us_per_request minus the same API's none condition's: the CPU logging costs a request in the engine; missing when either is missing."},
		"other_cpu_cores":                 {Unit: "cores", Text: "Mean of the verified runs' other_cpu_cores; missing unless every verified run has it."},
		"published_requests_per_s":        {Unit: "req/s", Text: "The article's mean requests per second for this configuration (results/reference/qps/figures.csv); missing where it gives none."},
		"published_ratio_to_console_file": {Unit: "1", Text: "The article's requests per second for this configuration over its console+file figure; missing where it gives none."},
		"generator_cpu_cores":             {Unit: "cores", Text: "Mean of the verified runs' generator_cpu_cores (those that have it); missing when none has."},
		"wrk_requests_per_s":              {Unit: "req/s", Text: "Mean of the verified runs' wrk_requests_per_s (those that have it); missing when none has (--wrk=false, or a configuration other than none in a bundle of an earlier kit)."},
		"wrk_agreement":                   {Unit: "1", Text: "Mean of the verified runs' wrk_agreement (those that have it); missing when none has. runs.csv has every run's, the failed ones too."},
		"wrk_agreement_ci_low":            {Unit: "1", Text: "Low end of wrk_agreement's 95% Student-t interval over those runs, as requests_per_s_ci_low's; missing with fewer than 2."},
		"wrk_agreement_ci_high":           {Unit: "1", Text: "High end of wrk_agreement's 95% Student-t interval over those runs; missing with fewer than 2."},
		"runs_wrk":                        {Unit: "1", Text: "Verified runs with a wrk_agreement; missing when none has."},
		"runs_wrk_agreeing":               {Unit: "1", Text: fmt.Sprintf("Of runs_wrk, those whose wrk_agreement is within 1 ± %g.", WrkTolerance)},
	},
}

// manifestText documents the manifest's keys a reader could misread.
const manifestText = "The bundle's manifest: which experiment and kit wrote it (experiment, kit_version, kit_commit, command), when, " +
	"on which engine (engine.*), with which images, how far the matrix got (runs_planned, runs_completed, runs_verified, complete, interrupted), " +
	"and the parameters every run shared: apis and configs (the matrix), rounds, the load (connections, pipelining, duration_s and warmup_s in seconds), " +
	"the API container's log_driver (log_driver_chosen_by: the flag, or the engine's default) and log_opts as the docker CLI spells them (non_blocking: mode=non-blocking), the containers' limits " +
	"(limits.api_cpus and limits.loadgen_cpus in cores, 0 = no limit; memory in bytes; pids_limit), max_run_time_s, engine_cpu (whether the engine's own CPU " +
	"was measured), engine_cpu_how and engine_kind (whose processes were counted: docker or podman, as the engine reports itself in engine.kind), wrk (whether Debian's wrk loaded the API after the kit in each run of none) and wrk_command, and platform. versions maps each API to its runtime's and libraries' versions as its image records them; " +
	"unmeasured names what the bundle does not measure, so that a missing column is not read as a zero."

// DataPackage describes a qps bundle's files.
func DataPackage() bundle.DataPackage {
	return bundle.Describe("logbench-qps-bundle", "logbench qps result bundle",
		"A result bundle of the qps experiment: requests per second of an API under a closed-loop load in each access-log configuration, "+
			"every run's load, CPU and log read-back, per-second counts, and each condition's pooled figures beside the article's. "+
			"SHA256SUMS lists every file's SHA-256; `logbench verify` recomputes every derived figure from the rows. An empty CSV field is a missing value.",
		manifestText, tables, columnDocs)
}
