package schema

import (
	"reflect"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// tables are the fifo-stall bundle's CSV files with their row types and what each row is.
var tables = []bundle.Table{
	{File: RunsFile, Name: "runs", Text: "One row per run, failed and redone ones too: its condition, whether it is data, and the figures derived from its requests, containers and timeline.", Row: reflect.TypeFor[RunRow](), Key: []string{"run_id"},
		Refs: []bundle.Ref{{Columns: conditionAxes, Table: ConditionsFile}}, Verified: "verified", Superseded: "superseded"},
	{File: RequestsFile, Name: "requests", Text: "One row per measured request (warm-up requests are not measured). Phase times count from the request's scheduled send time.", Row: reflect.TypeFor[RequestRow](), Key: []string{"run_id", "seq"},
		Refs: []bundle.Ref{ofRun}},
	{File: ContainersFile, Name: "containers", Text: "One row per container per run: its limits as the kernel applied them and its counters over the measured interval.", Row: reflect.TypeFor[ContainerRow](), Key: []string{"run_id", "role"},
		Refs: []bundle.Ref{ofRun}},
	{File: TimelineFile, Name: "timeline", Text: "Cumulative log bytes over time: series generated (the API's, one sample per record) and read (the reader's, one per read).", Row: reflect.TypeFor[TimelineRow](), Enums: map[string][]string{"series": {"generated", "read"}},
		Refs: []bundle.Ref{ofRun}},
	// A condition's row pools its runs (DeriveConditions): it has one at least, a redone one perhaps.
	{File: ConditionsFile, Name: "conditions", Text: "One row per condition (api x mode x reader): figures pooled over its verified runs that were not redone, and the model's expectation.", Row: reflect.TypeFor[ConditionRow](), Key: conditionAxes,
		Refs: []bundle.Ref{{Columns: conditionAxes, Table: RunsFile, To: conditionAxes}}},
}

// conditionAxes are the columns that name a condition, in runs.csv and conditions.csv.
var conditionAxes = []string{"api", "mode", "reader"}

// ofRun is a row's reference to its run.
var ofRun = bundle.Ref{Columns: []string{"run_id"}, Table: RunsFile}

// columnDocs are every column's unit and meaning, by file; a column missing here is a
// test failure (datapackage_test.go), so that a new column cannot go undescribed.
var columnDocs = map[string]map[string]bundle.Doc{
	"": { // shared by several files
		"run_id": {Unit: "", Text: "The run's identifier, unique in the bundle; runs.csv has its condition."},
		"api":    {Unit: "", Text: "The API implementation: go (net/http) or python (the article's asyncio API)."},
		"mode":   {Unit: "", Text: "The logging mode (none, short1, short10, json-only, json-prebuilt-sync, json-sync, json-queue)."},
		"reader": {Unit: "", Text: "The FIFO reader: fast (unbounded) or slow (bounded; the manifest's parameters.reader_bounds_bytes_per_s, where 0 means unbounded)."},
	},
	RequestsFile: {
		"seq":                {Unit: "1", Text: "The request's sequence number in its run, from 0."},
		"scheduled_utc":      {Unit: "", Text: "When the request was scheduled to be sent, UTC, RFC 3339 with nanoseconds."},
		"scheduled_offset_s": {Unit: "s", Text: "Scheduled send time from the run's first scheduled send."},
		"sent_ms":            {Unit: "ms", Text: "Send lag: from the scheduled time to the actual send. Latency counts from the schedule, so this is part of it."},
		"connected_ms":       {Unit: "ms", Text: "Connection established, from the scheduled send."},
		"first_byte_ms":      {Unit: "ms", Text: "First response byte, from the scheduled send."},
		"latency_ms":         {Unit: "ms", Text: "End of the response body, from the scheduled send (open-loop latency)."},
		"status":             {Unit: "1", Text: "HTTP status; missing when no response arrived (0 in bundles written before)."},
		"error":              {Unit: "", Text: "What went wrong with the request; empty (missing) when nothing did."},
		"span_generate_us":   {Unit: "us", Text: "Time the API spent generating the log record, as it measured itself; 0 when the mode generates none."},
		"span_log_call_us":   {Unit: "us", Text: "Time the API's log call took, as it measured itself; 0 when the mode logs nothing."},
	},
	RunsFile: {
		"round":                     {Unit: "1", Text: "The round of the matrix, from 1."},
		"position":                  {Unit: "1", Text: "The run's place in its round, from 1 (the order rotates between rounds)."},
		"started_utc":               {Unit: "", Text: "When the kit started the run, UTC, RFC 3339."},
		"attempt":                   {Unit: "1", Text: "Which attempt at this condition and round, from 1; a later attempt redoes a run over its send-lag bound; 0 in a bundle written before the kit redid runs."},
		"superseded":                {Unit: "", Text: "true when a later attempt redid this run: kept and counted, never pooled."},
		"verified":                  {Unit: "", Text: "true when the run is data: every container exited cleanly and every log byte was read (the SHA-256 of writer and reader agree)."},
		"failure":                   {Unit: "", Text: "Why the run is not data; empty (missing) when it is."},
		"stop_condition":            {Unit: "", Text: "The stop condition that ended the run early (max run time, max log bytes); empty when none did."},
		"requests":                  {Unit: "1", Text: "Measured requests."},
		"errors":                    {Unit: "1", Text: "Requests that failed or got a status other than 200."},
		"p50_ms":                    {Unit: "ms", Text: "Median latency of the run's requests, nearest rank; missing without requests."},
		"p99_ms":                    {Unit: "ms", Text: "99th-percentile latency of the run's requests, nearest rank; missing without requests."},
		"mean_ms":                   {Unit: "ms", Text: "Mean latency; missing without requests."},
		"max_ms":                    {Unit: "ms", Text: "Largest latency; missing without requests."},
		"send_lag_p99_ms":           {Unit: "ms", Text: "99th percentile of the send lag (sent_ms); missing without requests."},
		"send_lag_trusted":          {Unit: "", Text: "true when send_lag_p99_ms kept within the manifest's parameters.max_send_lag_p99_ms: the latencies carry no error that large."},
		"bytes_generated":           {Unit: "bytes", Text: "Log bytes the API generated."},
		"bytes_written":             {Unit: "bytes", Text: "Log bytes the API wrote to the FIFO."},
		"bytes_read":                {Unit: "bytes", Text: "Log bytes the reader read."},
		"lines_written":             {Unit: "1", Text: "Log lines written."},
		"lines_read":                {Unit: "1", Text: "Log lines read."},
		"sha256_writer":             {Unit: "", Text: "SHA-256 of every byte written, hex; empty when nothing was."},
		"sha256_reader":             {Unit: "", Text: "SHA-256 of every byte read, hex; equal to sha256_writer when no byte was lost."},
		"queue_drops":               {Unit: "1", Text: "Records a non-blocking queue dropped."},
		"span_generate_mean_us":     {Unit: "us", Text: "Mean of span_generate_us; missing without requests."},
		"span_log_call_mean_us":     {Unit: "us", Text: "Mean of span_log_call_us; missing without requests."},
		"load_duration_s":           {Unit: "s", Text: "The configured load duration."},
		"to_last_response_s":        {Unit: "s", Text: "From the first scheduled send to the later of the load's end and the last response."},
		"to_logs_read_s":            {Unit: "s", Text: "From the first scheduled send until, also, every log byte was read."},
		"drain_s":                   {Unit: "s", Text: "From the last response until every log byte was read; 0 when the reader kept up."},
		"backlog_max_bytes":         {Unit: "bytes", Text: "Largest gap between bytes generated and bytes read (timeline.csv)."},
		"api_cpu_cores":             {Unit: "cores", Text: "Mean CPU the API's cgroup used, from the reset after warm-up to the last response."},
		"api_cpu_throttled_periods": {Unit: "1", Text: "CFS periods in which the API was throttled."},
		"reader_rate_bytes_per_s":   {Unit: "bytes/s", Text: "The reader's achieved rate, first to last read."},
		"pipe_capacity_bytes":       {Unit: "bytes", Text: "The FIFO's capacity as the kernel reported it."},
		"host_cpu_median_pct":       {Unit: "%", Text: "Median whole-host CPU use, sampled about once a second; missing without samples."},
		"host_cpu_max_pct":          {Unit: "%", Text: "Largest whole-host CPU use sampled; missing without samples."},
		"host_load1_max":            {Unit: "1", Text: "Largest 1-minute load average sampled; missing without samples."},
		"host_steal_pct":            {Unit: "%", Text: "CPU time stolen by the hypervisor over the run; missing where the host does not report it."},
		"host_cpu_pressure_pct":     {Unit: "%", Text: "CPU pressure (PSI some avg10) over the run; missing where the kernel does not report it."},
		"host_noisy":                {Unit: "", Text: "true when steal or CPU pressure passed the kit's noise thresholds: other work shared the host."},
		"wall_s":                    {Unit: "s", Text: "The kit's whole run: creating the pod to removing everything."},
		"inherent_s":                {Unit: "s", Text: "From the first warm-up send until every log byte was read."},
		"overhead_s":                {Unit: "s", Text: "wall_s - inherent_s: the kit's own cost."},
	},
	ContainersFile: {
		"role":                  {Unit: "", Text: "The container's role: api, reader, loadgen or client (reader and load generator together)."},
		"cgroup_version":        {Unit: "1", Text: "The cgroup version the container's limits were read from: 1 or 2 (an integer)."},
		"cpu_limit_cores":       {Unit: "cores", Text: "CPU limit as applied; 0 means none."},
		"memory_limit_bytes":    {Unit: "bytes", Text: "Memory limit as applied; 0 means none."},
		"swap_limit_bytes":      {Unit: "bytes", Text: "Swap allowed on top of memory, as applied: 0 means none (the kit's setting); -1 means unlimited; cgroup v1 reports memory+swap, converted here."},
		"interval_s":            {Unit: "s", Text: "The interval the counters cover."},
		"cpu_used_ns":           {Unit: "ns", Text: "CPU time used over the interval."},
		"cpu_cores":             {Unit: "cores", Text: "cpu_used_ns over interval_s."},
		"cpu_periods":           {Unit: "1", Text: "CFS periods elapsed."},
		"cpu_throttled_periods": {Unit: "1", Text: "CFS periods in which the container was throttled."},
		"cpu_throttled_ms":      {Unit: "ms", Text: "Time throttled."},
		"memory_peak_bytes":     {Unit: "bytes", Text: "Peak memory use."},
		"exit_code":             {Unit: "1", Text: "The container's exit code."},
		"oom_killed":            {Unit: "", Text: "true when the kernel killed it for memory."},
		"uid":                   {Unit: "", Text: "The user id the process ran as, as it read it itself; empty when not reported."},
		"cap_effective":         {Unit: "", Text: "Effective capabilities, a hex bitmap (0: none); empty when not reported."},
		"no_new_privs":          {Unit: "", Text: "The no_new_privs flag (1: set); empty when not reported."},
		"root_read_only":        {Unit: "", Text: "Whether the root file system was read-only (true/false); empty when not reported."},
		"nofile_limit":          {Unit: "1", Text: "RLIMIT_NOFILE as the process read it (soft/hard; -1: unlimited); empty when not reported."},
		"nproc_limit":           {Unit: "1", Text: "RLIMIT_NPROC as the process read it (soft/hard; -1: unlimited); empty when not reported."},
		"pids_max":              {Unit: "1", Text: "The pids controller's limit of its cgroup as the process read it (-1: max); empty when not reported or not readable."},
	},
	TimelineFile: {
		"series":   {Unit: "", Text: "generated (the API's records) or read (the reader's reads)."},
		"offset_s": {Unit: "s", Text: "From the run's first scheduled send."},
		"bytes":    {Unit: "bytes", Text: "Cumulative bytes of the series at offset_s."},
	},
	ConditionsFile: {
		"runs":                           {Unit: "1", Text: "Runs of the condition, failed ones included, superseded attempts not."},
		"runs_verified":                  {Unit: "1", Text: "Verified runs (not superseded): the runs every figure pools."},
		"runs_trusted":                   {Unit: "1", Text: "Of those, runs whose send lag kept within the bound (send_lag_trusted)."},
		"runs_superseded":                {Unit: "1", Text: "Runs redone by a later attempt: counted, never pooled."},
		"runs_noisy":                     {Unit: "1", Text: "Pooled runs on a noisy host (host_noisy)."},
		"requests":                       {Unit: "1", Text: "Requests pooled."},
		"errors":                         {Unit: "1", Text: "Errors among them."},
		"p50_ms":                         {Unit: "ms", Text: "Median of the pooled requests' latencies, nearest rank; missing without requests."},
		"p99_ms":                         {Unit: "ms", Text: "99th percentile of the pooled latencies (the p99 of the pooled requests, as the article states its p99), nearest rank; missing without requests."},
		"p99_resolved":                   {Unit: "", Text: "true when p99_ms (pooled) is at least 5 times the worst send-lag p99: the instrument resolves it."},
		"p99_run_min_ms":                 {Unit: "ms", Text: "Smallest per-run p99; missing without runs."},
		"p99_run_max_ms":                 {Unit: "ms", Text: "Largest per-run p99; missing without runs."},
		"p99_run_mean_ms":                {Unit: "ms", Text: "Mean of the per-run p99s: the condition's p99 as verify, compare and report state it; missing without runs (absent in bundles written before)."},
		"p99_run_ci_low_ms":              {Unit: "ms", Text: "Low end of the 95% Student-t interval of p99_run_mean_ms over runs; missing with fewer than 2 runs."},
		"p99_run_ci_high_ms":             {Unit: "ms", Text: "High end of that interval; missing with fewer than 2 runs."},
		"mean_ms":                        {Unit: "ms", Text: "Mean of the pooled latencies."},
		"max_ms":                         {Unit: "ms", Text: "Largest pooled latency."},
		"span_generate_mean_us":          {Unit: "us", Text: "Mean record generation time over the pooled requests."},
		"span_log_call_mean_us":          {Unit: "us", Text: "Mean log call time over the pooled requests."},
		"drain_s":                        {Unit: "s", Text: "Mean drain over runs."},
		"drain_min_s":                    {Unit: "s", Text: "Smallest drain."},
		"drain_max_s":                    {Unit: "s", Text: "Largest drain."},
		"rps_to_last_response":           {Unit: "req/s", Text: "Requests over the summed to_last_response_s."},
		"rps_to_logs_read":               {Unit: "req/s", Text: "Requests over the summed to_logs_read_s."},
		"backlog_max_bytes":              {Unit: "bytes", Text: "Largest backlog over runs."},
		"api_cpu_cores":                  {Unit: "cores", Text: "Mean API CPU over runs."},
		"api_cpu_throttled_periods":      {Unit: "1", Text: "API throttled periods, summed over runs."},
		"reader_cpu_throttled_periods":   {Unit: "1", Text: "Reader throttled periods, summed over runs."},
		"loadgen_cpu_throttled_periods":  {Unit: "1", Text: "Load generator throttled periods, summed over runs."},
		"send_lag_p99_max_ms":            {Unit: "ms", Text: "Worst per-run send-lag p99."},
		"host_cpu_median_pct":            {Unit: "%", Text: "Median of the runs' median host CPU."},
		"host_cpu_max_pct":               {Unit: "%", Text: "Largest host CPU sampled."},
		"host_load1_max":                 {Unit: "1", Text: "Largest 1-minute load average sampled."},
		"offered_bytes_per_s":            {Unit: "bytes/s", Text: "Log bytes per second the load offers (the model's input)."},
		"reader_bound_bytes_per_s":       {Unit: "bytes/s", Text: "The reader's bound; 0 means unbounded."},
		"predicted_drain_s":              {Unit: "s", Text: "The model's drain; missing where the model does not apply (an unbounded reader, a mode that logs nothing)."},
		"predicted_rps_to_last_response": {Unit: "req/s", Text: "The model's throughput to the last response; missing where it does not apply."},
		"predicted_rps_to_logs_read":     {Unit: "req/s", Text: "The model's throughput to the last log byte read; missing where it does not apply."},
		"predicted_backlog_max_bytes":    {Unit: "bytes", Text: "The model's largest backlog; missing where it does not apply."},
		"predicted_p99_ms":               {Unit: "ms", Text: "The model's p99 for synchronous modes, requests served in arrival order; missing where it does not apply."},
	},
}

// manifestText documents the manifest's keys that a reader could misread.
const manifestText = bundle.ManifestLead +
	"on which engine (engine.*; engine.cgroup_version is a string, \"1\" or \"2\"), with which images, " + bundle.ManifestProgress + ", the parameters every run shared and the instrument's calibration. " +
	"Sentinels: parameters.reader_bounds_bytes_per_s maps a reader to its bound, 0 = unbounded; parameters.max_send_lag_p99_ms 0 = a bundle " +
	"written before the bound was recorded (1 ms applies); calibration.capacity_rps 0 = the capacity sweep found no rate that held; " +
	"calibration is absent when the run was not calibrated."

// NewDataPackage describes a fifo-stall bundle's files.
func NewDataPackage() bundle.DataPackage {
	return bundle.DescribeBundle(Name, "every run's requests, containers and log timeline, and the figures derived from them. "+
		"SHA256SUMS lists every file's SHA-256; `logbench verify` recomputes every figure from the rows. An empty CSV field is a missing value.",
		manifestText, tables, columnDocs)
}
