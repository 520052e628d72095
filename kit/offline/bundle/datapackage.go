package bundle

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// DataPackageFile describes a bundle's files and columns for any reader, as a
// Frictionless Data Package (https://specs.frictionlessdata.io/data-package/): each CSV
// a tabular data resource with its fields' names, types, units and meaning, the
// missing-value marker, and the manifest as a JSON resource. It is written with every
// bundle and checked by verify; a bundle written before it has none.
const DataPackageFile = "datapackage.json"

// OptionalFiles are bundle files that a bundle written by an older kit may lack.
var OptionalFiles = []string{DataPackageFile}

// DataPackage is the part of the Data Package specification a bundle uses.
type DataPackage struct {
	Profile     string     `json:"profile"` // "tabular-data-package"
	Name        string     `json:"name"`
	Title       string     `json:"title"`
	Description string     `json:"description"`
	Resources   []Resource `json:"resources"`
}

// Resource is one file of the package.
type Resource struct {
	Name        string  `json:"name"`
	Path        string  `json:"path"`
	Profile     string  `json:"profile"` // "tabular-data-resource" or "data-resource"
	Format      string  `json:"format"`
	MediaType   string  `json:"mediatype"`
	Encoding    string  `json:"encoding"`
	Description string  `json:"description"`
	Schema      *Schema `json:"schema,omitempty"`
}

// Schema is a Table Schema: the columns in file order.
type Schema struct {
	Fields []SchemaField `json:"fields"`
	// MissingValues are the field values that mean "no value": an empty field.
	MissingValues []string `json:"missingValues"`
	PrimaryKey    []string `json:"primaryKey,omitempty"`
}

// SchemaField is one column. Unit is not in the Table Schema specification, which
// allows extra properties; it names the column's unit ("ms", "bytes", "1" for counts).
type SchemaField struct {
	Name        string       `json:"name"`
	Type        string       `json:"type"` // string, integer, number, boolean, datetime
	Format      string       `json:"format,omitempty"`
	Unit        string       `json:"unit,omitempty"`
	Description string       `json:"description"`
	Constraints *Constraints `json:"constraints,omitempty"`
}

// Constraints say which columns may not be missing and which values a column takes.
type Constraints struct {
	Required bool     `json:"required,omitempty"`
	Enum     []string `json:"enum,omitempty"`
}

// Doc is a column's unit ("ms", "bytes", "1" for a count, "" for a label or a flag)
// and its meaning in one sentence: how it is computed, and what an empty value or a
// sentinel says.
type Doc struct{ Unit, Text string }

// Table is one CSV file of a bundle: its file and resource names, what one row is, the
// row type whose csv tags give the columns in file order, and the columns that key a row.
type Table struct {
	File, Name, Text string
	Row              reflect.Type
	Key              []string
	// MissingValues are the field values that mean "no value"; nil is the empty field
	// alone, which is what bundle.Opt writes.
	MissingValues []string
	// Optional are the columns of a type that always has a value in Go (float64) that
	// may hold a missing value all the same (a NaN the file spells "NaN"). Strings and
	// Opt columns are always optional; every other column is required.
	Optional []string
	// Enums are the values a column takes, by column.
	Enums map[string][]string
}

// tables are the fifo-stall bundle's CSV files with their row types and what each row is.
var tables = []Table{
	{RunsFile, "runs", "One row per run, failed and redone ones too: its condition, whether it is data, and the figures derived from its requests, containers and timeline.", reflect.TypeFor[RunRow](), []string{"run_id"}, nil, nil, nil},
	{RequestsFile, "requests", "One row per measured request (warm-up requests are not measured). Phase times count from the request's scheduled send time.", reflect.TypeFor[RequestRow](), []string{"run_id", "seq"}, nil, nil, nil},
	{ContainersFile, "containers", "One row per container per run: its limits as the kernel applied them and its counters over the measured interval.", reflect.TypeFor[ContainerRow](), []string{"run_id", "role"}, nil, nil, nil},
	{TimelineFile, "timeline", "Cumulative log bytes over time: series generated (the API's, one sample per record) and read (the reader's, one per read).", reflect.TypeFor[TimelineRow](), nil, nil, nil, map[string][]string{"series": {"generated", "read"}}},
	{ConditionsFile, "conditions", "One row per condition (api x mode x reader): figures pooled over its verified runs that were not redone, and the model's expectation.", reflect.TypeFor[ConditionRow](), []string{"api", "mode", "reader"}, nil, nil, nil},
}

// columnDocs are every column's unit and meaning, by file; a column missing here is a
// test failure (datapackage_test.go), so that a new column cannot go undescribed.
var columnDocs = map[string]map[string]Doc{
	"": { // shared by several files
		"run_id": {"", "The run's identifier, unique in the bundle; runs.csv has its condition."},
		"api":    {"", "The API implementation: go (net/http) or python (the article's asyncio API)."},
		"mode":   {"", "The logging mode (none, short1, short10, json-only, json-prebuilt-sync, json-sync, json-queue)."},
		"reader": {"", "The FIFO reader: fast (unbounded) or slow (bounded; the manifest's parameters.reader_bounds_bytes_per_s, where 0 means unbounded)."},
	},
	RequestsFile: {
		"seq":                {"1", "The request's sequence number in its run, from 0."},
		"scheduled_utc":      {"", "When the request was scheduled to be sent, UTC, RFC 3339 with nanoseconds."},
		"scheduled_offset_s": {"s", "Scheduled send time from the run's first scheduled send."},
		"sent_ms":            {"ms", "Send lag: from the scheduled time to the actual send. Latency counts from the schedule, so this is part of it."},
		"connected_ms":       {"ms", "Connection established, from the scheduled send."},
		"first_byte_ms":      {"ms", "First response byte, from the scheduled send."},
		"latency_ms":         {"ms", "End of the response body, from the scheduled send (open-loop latency)."},
		"status":             {"1", "HTTP status; 0 when no response arrived."},
		"error":              {"", "What went wrong with the request; empty (missing) when nothing did."},
		"span_generate_us":   {"us", "Time the API spent generating the log record, as it measured itself; 0 when the mode generates none."},
		"span_log_call_us":   {"us", "Time the API's log call took, as it measured itself; 0 when the mode logs nothing."},
	},
	RunsFile: {
		"round":                     {"1", "The round of the matrix, from 1."},
		"position":                  {"1", "The run's place in its round, from 1 (the order rotates between rounds)."},
		"started_utc":               {"", "When the kit started the run, UTC, RFC 3339."},
		"attempt":                   {"1", "Which attempt at this condition and round, from 1; a later attempt redoes a run over its send-lag bound; 0 in a bundle written before the kit redid runs."},
		"superseded":                {"", "true when a later attempt redid this run: kept and counted, never pooled."},
		"verified":                  {"", "true when the run is data: every container exited cleanly and every log byte was read (the SHA-256 of writer and reader agree)."},
		"failure":                   {"", "Why the run is not data; empty (missing) when it is."},
		"stop_condition":            {"", "The stop condition that ended the run early (max run time, max log bytes); empty when none did."},
		"requests":                  {"1", "Measured requests."},
		"errors":                    {"1", "Requests that failed or got a status other than 200."},
		"p50_ms":                    {"ms", "Median latency of the run's requests, nearest rank; missing without requests."},
		"p99_ms":                    {"ms", "99th-percentile latency of the run's requests, nearest rank; missing without requests."},
		"mean_ms":                   {"ms", "Mean latency; missing without requests."},
		"max_ms":                    {"ms", "Largest latency; missing without requests."},
		"send_lag_p99_ms":           {"ms", "99th percentile of the send lag (sent_ms); missing without requests."},
		"send_lag_trusted":          {"", "true when send_lag_p99_ms kept within the manifest's parameters.max_send_lag_p99_ms: the latencies carry no error that large."},
		"bytes_generated":           {"bytes", "Log bytes the API generated."},
		"bytes_written":             {"bytes", "Log bytes the API wrote to the FIFO."},
		"bytes_read":                {"bytes", "Log bytes the reader read."},
		"lines_written":             {"1", "Log lines written."},
		"lines_read":                {"1", "Log lines read."},
		"sha256_writer":             {"", "SHA-256 of every byte written, hex; empty when nothing was."},
		"sha256_reader":             {"", "SHA-256 of every byte read, hex; equal to sha256_writer when no byte was lost."},
		"queue_drops":               {"1", "Records a non-blocking queue dropped."},
		"span_generate_mean_us":     {"us", "Mean of span_generate_us; missing without requests."},
		"span_log_call_mean_us":     {"us", "Mean of span_log_call_us; missing without requests."},
		"load_duration_s":           {"s", "The configured load duration."},
		"to_last_response_s":        {"s", "From the first scheduled send to the later of the load's end and the last response."},
		"to_logs_read_s":            {"s", "From the first scheduled send until, also, every log byte was read."},
		"drain_s":                   {"s", "From the last response until every log byte was read; 0 when the reader kept up."},
		"backlog_max_bytes":         {"bytes", "Largest gap between bytes generated and bytes read (timeline.csv)."},
		"api_cpu_cores":             {"cores", "Mean CPU the API's cgroup used, from the reset after warm-up to the last response."},
		"api_cpu_throttled_periods": {"1", "CFS periods in which the API was throttled."},
		"reader_rate_bytes_per_s":   {"bytes/s", "The reader's achieved rate, first to last read."},
		"pipe_capacity_bytes":       {"bytes", "The FIFO's capacity as the kernel reported it."},
		"host_cpu_median_pct":       {"%", "Median whole-host CPU use, sampled about once a second; missing without samples."},
		"host_cpu_max_pct":          {"%", "Largest whole-host CPU use sampled; missing without samples."},
		"host_load1_max":            {"1", "Largest 1-minute load average sampled; missing without samples."},
		"host_steal_pct":            {"%", "CPU time stolen by the hypervisor over the run; missing where the host does not report it."},
		"host_cpu_pressure_pct":     {"%", "CPU pressure (PSI some avg10) over the run; missing where the kernel does not report it."},
		"host_noisy":                {"", "true when steal or CPU pressure passed the kit's noise thresholds: other work shared the host."},
		"wall_s":                    {"s", "The kit's whole run: creating the pod to removing everything."},
		"inherent_s":                {"s", "From the first warm-up send until every log byte was read."},
		"overhead_s":                {"s", "wall_s - inherent_s: the kit's own cost."},
	},
	ContainersFile: {
		"role":                  {"", "The container's role: api, reader, loadgen or client (reader and load generator together)."},
		"cgroup_version":        {"1", "The cgroup version the container's limits were read from: 1 or 2 (an integer)."},
		"cpu_limit_cores":       {"cores", "CPU limit as applied; 0 means none."},
		"memory_limit_bytes":    {"bytes", "Memory limit as applied; 0 means none."},
		"swap_limit_bytes":      {"bytes", "Swap allowed on top of memory, as applied: 0 means none (the kit's setting); -1 means unlimited; cgroup v1 reports memory+swap, converted here."},
		"interval_s":            {"s", "The interval the counters cover."},
		"cpu_used_ns":           {"ns", "CPU time used over the interval."},
		"cpu_cores":             {"cores", "cpu_used_ns over interval_s."},
		"cpu_periods":           {"1", "CFS periods elapsed."},
		"cpu_throttled_periods": {"1", "CFS periods in which the container was throttled."},
		"cpu_throttled_ms":      {"ms", "Time throttled."},
		"memory_peak_bytes":     {"bytes", "Peak memory use."},
		"exit_code":             {"1", "The container's exit code."},
		"oom_killed":            {"", "true when the kernel killed it for memory."},
		"uid":                   {"", "The user id the process ran as, as it read it itself; empty when not reported."},
		"cap_effective":         {"", "Effective capabilities, a hex bitmap (0: none); empty when not reported."},
		"no_new_privs":          {"", "The no_new_privs flag (1: set); empty when not reported."},
		"root_read_only":        {"", "Whether the root file system was read-only (true/false); empty when not reported."},
	},
	TimelineFile: {
		"series":   {"", "generated (the API's records) or read (the reader's reads)."},
		"offset_s": {"s", "From the run's first scheduled send."},
		"bytes":    {"bytes", "Cumulative bytes of the series at offset_s."},
	},
	ConditionsFile: {
		"runs":                           {"1", "Runs of the condition, failed ones included, superseded attempts not."},
		"runs_verified":                  {"1", "Verified runs (not superseded): the runs every figure pools."},
		"runs_trusted":                   {"1", "Of those, runs whose send lag kept within the bound (send_lag_trusted)."},
		"runs_superseded":                {"1", "Runs redone by a later attempt: counted, never pooled."},
		"runs_noisy":                     {"1", "Pooled runs on a noisy host (host_noisy)."},
		"requests":                       {"1", "Requests pooled."},
		"errors":                         {"1", "Errors among them."},
		"p50_ms":                         {"ms", "Median of the pooled requests' latencies, nearest rank; missing without requests."},
		"p99_ms":                         {"ms", "99th percentile of the pooled latencies, nearest rank; missing without requests."},
		"p99_resolved":                   {"", "true when p99_ms is at least 5 times the worst send-lag p99: the instrument resolves it."},
		"p99_run_min_ms":                 {"ms", "Smallest per-run p99; missing without runs."},
		"p99_run_max_ms":                 {"ms", "Largest per-run p99; missing without runs."},
		"mean_ms":                        {"ms", "Mean of the pooled latencies."},
		"max_ms":                         {"ms", "Largest pooled latency."},
		"span_generate_mean_us":          {"us", "Mean record generation time over the pooled requests."},
		"span_log_call_mean_us":          {"us", "Mean log call time over the pooled requests."},
		"drain_s":                        {"s", "Mean drain over runs."},
		"drain_min_s":                    {"s", "Smallest drain."},
		"drain_max_s":                    {"s", "Largest drain."},
		"rps_to_last_response":           {"req/s", "Requests over the summed to_last_response_s."},
		"rps_to_logs_read":               {"req/s", "Requests over the summed to_logs_read_s."},
		"backlog_max_bytes":              {"bytes", "Largest backlog over runs."},
		"api_cpu_cores":                  {"cores", "Mean API CPU over runs."},
		"api_cpu_throttled_periods":      {"1", "API throttled periods, summed over runs."},
		"reader_cpu_throttled_periods":   {"1", "Reader throttled periods, summed over runs."},
		"loadgen_cpu_throttled_periods":  {"1", "Load generator throttled periods, summed over runs."},
		"send_lag_p99_max_ms":            {"ms", "Worst per-run send-lag p99."},
		"host_cpu_median_pct":            {"%", "Median of the runs' median host CPU."},
		"host_cpu_max_pct":               {"%", "Largest host CPU sampled."},
		"host_load1_max":                 {"1", "Largest 1-minute load average sampled."},
		"offered_bytes_per_s":            {"bytes/s", "Log bytes per second the load offers (the model's input)."},
		"reader_bound_bytes_per_s":       {"bytes/s", "The reader's bound; 0 means unbounded."},
		"predicted_drain_s":              {"s", "The model's drain; missing where the model does not apply (an unbounded reader, a mode that logs nothing)."},
		"predicted_rps_to_last_response": {"req/s", "The model's throughput to the last response; missing where it does not apply."},
		"predicted_rps_to_logs_read":     {"req/s", "The model's throughput to the last log byte read; missing where it does not apply."},
		"predicted_backlog_max_bytes":    {"bytes", "The model's largest backlog; missing where it does not apply."},
		"predicted_p99_ms":               {"ms", "The model's p99 for synchronous modes, requests served in arrival order; missing where it does not apply."},
	},
}

// manifestText documents the manifest's keys that a reader could misread.
const manifestText = "The bundle's manifest: which experiment and kit wrote it (experiment, kit_version, kit_commit, command), when, " +
	"on which engine (engine.*; engine.cgroup_version is a string, \"1\" or \"2\"), with which images, how far the matrix got " +
	"(runs_planned, runs_completed, runs_verified, complete, interrupted), the parameters every run shared and the instrument's calibration. " +
	"Sentinels: parameters.reader_bounds_bytes_per_s maps a reader to its bound, 0 = unbounded; parameters.max_send_lag_p99_ms 0 = a bundle " +
	"written before the bound was recorded (1 ms applies); calibration.capacity_rps 0 = the capacity sweep found no rate that held; " +
	"calibration is absent when the run was not calibrated."

// fieldsOf are the Table Schema fields of a table: every csv-tagged field of its row
// type, in file order, typed from its Go type, described from docs (by file, then the
// columns several files share under "").
func fieldsOf(t Table, docs map[string]map[string]Doc) []SchemaField {
	var out []SchemaField
	for _, f := range csvFields(t.Row) {
		ft := t.Row.FieldByIndex(f.index).Type
		sf := SchemaField{Name: f.name, Type: tableType(ft)}
		d, ok := docs[t.File][f.name]
		if !ok {
			d = docs[""][f.name]
		}
		sf.Unit, sf.Description = d.Unit, d.Text
		if strings.HasSuffix(f.name, "_utc") {
			sf.Type, sf.Format = "datetime", "any"
		}
		if ft != reflect.TypeFor[Opt]() && sf.Type != "string" && !slices.Contains(t.Optional, f.name) {
			sf.Constraints = &Constraints{Required: true}
		}
		if enum, ok := t.Enums[f.name]; ok {
			if sf.Constraints == nil {
				sf.Constraints = &Constraints{}
			}
			sf.Constraints.Required, sf.Constraints.Enum = true, enum
		}
		out = append(out, sf)
	}
	return out
}

// tableType is the Table Schema type of a Go field.
func tableType(t reflect.Type) string {
	if t == reflect.TypeFor[Opt]() {
		return "number"
	}
	switch t.Kind() {
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	}
	return "string"
}

// Describe is the Data Package of a bundle: the manifest as a JSON resource described
// by manifestText, then each table as a tabular resource whose fields come from its row
// type and docs. Any experiment's bundle is described this way, so that one reader
// (ParseDataPackage, Resource.ReadTable) and one check (verify.CheckDataPackage) serve
// them all.
func Describe(name, title, description, manifestText string, tables []Table, docs map[string]map[string]Doc) DataPackage {
	p := DataPackage{
		Profile: "tabular-data-package", Name: name, Title: title, Description: description,
		Resources: []Resource{{Name: "manifest", Path: ManifestFile, Profile: "data-resource", Format: "json", MediaType: "application/json",
			Encoding: "utf-8", Description: manifestText}},
	}
	for _, t := range tables {
		missing := t.MissingValues
		if missing == nil {
			missing = []string{""}
		}
		p.Resources = append(p.Resources, Resource{Name: t.Name, Path: t.File, Profile: "tabular-data-resource", Format: "csv",
			MediaType: "text/csv", Encoding: "utf-8", Description: t.Text,
			Schema: &Schema{Fields: fieldsOf(t, docs), MissingValues: missing, PrimaryKey: t.Key}})
	}
	return p
}

// NewDataPackage describes a fifo-stall bundle's files.
func NewDataPackage() DataPackage {
	return Describe("logbench-fifo-stall-bundle", "logbench fifo-stall result bundle",
		"A result bundle of the fifo-stall experiment: every run's requests, containers and log timeline, and the figures derived from them. "+
			"SHA256SUMS lists every file's SHA-256; `logbench verify` recomputes every figure from the rows. An empty CSV field is a missing value.",
		manifestText, tables, columnDocs)
}

// JSON is the package as its datapackage.json holds it: indented, with a final newline.
func (p DataPackage) JSON() []byte {
	body, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		panic(fmt.Sprintf("datapackage: %v", err)) // plain structs of strings: cannot fail
	}
	return append(body, '\n')
}

// DataPackageJSON is the datapackage.json every fifo-stall bundle this kit writes carries.
func DataPackageJSON() []byte { return NewDataPackage().JSON() }

// Undocumented lists the columns of p without a meaning, as file:column, and those
// without a unit where the column is a number: a test of each experiment calls it, so
// that a new column cannot go undescribed.
func Undocumented(p DataPackage) []string {
	var out []string
	for _, r := range p.Resources {
		if r.Schema == nil {
			continue
		}
		for _, f := range r.Schema.Fields {
			switch {
			case f.Description == "":
				out = append(out, r.Path+":"+f.Name)
			case f.Unit == "" && (f.Type == "number" || f.Type == "integer"):
				out = append(out, r.Path+":"+f.Name+" (a number without a unit)")
			}
		}
	}
	return out
}

// ParseDataPackage reads a datapackage.json.
func ParseDataPackage(body []byte) (DataPackage, error) {
	var p DataPackage
	if err := json.Unmarshal(body, &p); err != nil {
		return p, fmt.Errorf("%s: %w", DataPackageFile, err)
	}
	if p.Profile != "tabular-data-package" && p.Profile != "data-package" {
		return p, fmt.Errorf("%s: profile %q, want tabular-data-package", DataPackageFile, p.Profile)
	}
	for _, r := range p.Resources {
		if r.Path == "" || r.Name == "" {
			return p, fmt.Errorf("%s: a resource without a name or path", DataPackageFile)
		}
		if r.Schema != nil {
			for _, f := range r.Schema.Fields {
				switch f.Type {
				case "string", "integer", "number", "boolean", "datetime":
				default:
					return p, fmt.Errorf("%s: %s: field %s: type %q is not one this reader knows", DataPackageFile, r.Path, f.Name, f.Type)
				}
			}
		}
	}
	return p, nil
}

// Resource finds the resource of a file.
func (p DataPackage) Resource(path string) (Resource, bool) {
	for _, r := range p.Resources {
		if r.Path == path {
			return r, true
		}
	}
	return Resource{}, false
}

// ReadTable reads a CSV file as its resource's Table Schema says: the header must be
// the fields in order; each value is cast to its field's type (string, int64, float64,
// bool, time.Time), a missing value is nil. It reads every row, returning at most
// maxErrors problems (0: all).
func (r Resource) ReadTable(body []byte, maxErrors int) ([]map[string]any, []LineError) {
	return readTable(r, body, maxErrors)
}
