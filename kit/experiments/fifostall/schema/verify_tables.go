package schema

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/offline/verify"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// tables parses every CSV file strictly.
func (v *verifier) tables() {
	decode(v, RunsFile, &v.runRows, &v.runLines)
	decode(v, RequestsFile, &v.requests, &v.reqLines)
	decode(v, ContainersFile, &v.containers, &v.ctLines)
	decode(v, TimelineFile, &v.timeline, &v.tlLines)
	decode(v, ConditionsFile, &v.conds, &v.condLines)
	v.res.Counts.Conditions = len(v.conds)
	v.res.Described = fmt.Sprintf("%d requests, %d container rows, %d timeline samples", len(v.requests), len(v.containers), len(v.timeline))
}

// required are the columns verification rests on. A column outside these that a file
// lacks comes from a bundle written before the kit added it: a note, not a problem.
var required = map[string][]string{
	RunsFile: {"run_id", "api", "mode", "reader", "verified", "failure", "requests", "errors",
		"p50_ms", "p99_ms", "mean_ms", "max_ms", "send_lag_p99_ms",
		"bytes_generated", "bytes_written", "bytes_read", "lines_written", "lines_read", "sha256_writer", "sha256_reader", "queue_drops",
		"span_generate_mean_us", "span_log_call_mean_us", "to_last_response_s", "to_logs_read_s", "drain_s",
		"backlog_max_bytes", "api_cpu_cores", "api_cpu_throttled_periods", "reader_rate_bytes_per_s", "load_duration_s"},
	// The rules of what can happen (verify_rows.go) rest on the phases and the applied
	// limits too: a column removed must not silence one.
	RequestsFile: {"run_id", "seq", "scheduled_offset_s", "sent_ms", "connected_ms", "first_byte_ms", "latency_ms", "status", "error",
		"span_generate_us", "span_log_call_us"},
	ContainersFile: {"run_id", "role", "cgroup_version", "cpu_limit_cores", "memory_limit_bytes", "interval_s", "cpu_used_ns", "cpu_cores",
		"cpu_periods", "cpu_throttled_periods", "cpu_throttled_ms"},
	TimelineFile:   {"run_id", "series", "offset_s", "bytes"},
	ConditionsFile: {"api", "mode", "reader"},
}

func decode[T any](v *verifier, file string, rows *[]T, lines *[]int) {
	body, present := v.files[file]
	if !present {
		return
	}
	d := bundle.DecodeCSV[T](file, body, maxLineErrors)
	*rows, *lines = d.Rows, d.Lines
	for _, e := range d.Errs {
		p := verify.Problem{File: file, Line: e.Line, Column: e.Column, Msg: e.Msg}
		if e.Column != "" {
			p.Msg = fmt.Sprintf("%s: %s", strconv.Quote(short(e.Value)), e.Msg)
		}
		v.problem(p)
	}
	var lacking, absent []string
	for _, col := range d.Missing {
		if slices.Contains(required[file], col) {
			lacking = append(lacking, col)
		} else {
			absent = append(absent, col)
		}
	}
	if len(lacking) > 0 {
		v.problem(verify.Problem{File: file, Line: 1, Msg: "no column " + strings.Join(lacking, ", ") + ": nothing that rests on it can be checked"})
	}
	if len(absent) > 0 {
		v.absent[file] = absent
		v.res.Notes = append(v.res.Notes, verify.Problem{File: file, Line: 1,
			Msg: "no column " + strings.Join(absent, ", ") + " (a bundle written before the kit added it; read as empty)"})
	}
	v.ok[file] = len(d.Errs) == 0 && len(lacking) == 0
}

// index gives each run its rows in the other files. A run_id seen again, or a row of no
// run, is verify.Tables' problem; each run's rows go to its first row, and a row of no
// run to none.
func (v *verifier) index() {
	v.byRun = map[string]int{}
	for i, r := range v.runRows {
		if r.RunID == "" {
			v.problem(verify.Problem{File: RunsFile, Line: v.runLines[i], Column: "run_id", Msg: "empty"})
			continue
		}
		if _, dup := v.byRun[r.RunID]; !dup {
			v.byRun[r.RunID] = i
		}
	}
	n := len(v.runRows)
	v.reqOf, v.ctOf, v.tlOf = make([][]int, n), make([][]int, n), make([][]int, n)
	group := func(ok bool, count int, id func(int) string, into [][]int) {
		if !ok {
			return
		}
		for i := range count {
			if run, known := v.byRun[id(i)]; known {
				into[run] = append(into[run], i)
			}
		}
	}
	group(v.ok[RequestsFile], len(v.requests), func(i int) string { return v.requests[i].RunID }, v.reqOf)
	group(v.ok[ContainersFile], len(v.containers), func(i int) string { return v.containers[i].RunID }, v.ctOf)
	group(v.ok[TimelineFile], len(v.timeline), func(i int) string { return v.timeline[i].RunID }, v.tlOf)

	b := &Bundle{Manifest: v.manifestBody, Conditions: v.conds}
	for i, r := range v.runRows {
		rows := Rows{Run: r}
		for _, j := range v.reqOf[i] {
			rows.Requests = append(rows.Requests, v.requests[j])
		}
		for _, j := range v.ctOf[i] {
			rows.Containers = append(rows.Containers, v.containers[j])
		}
		for _, j := range v.tlOf[i] {
			rows.Timeline = append(rows.Timeline, v.timeline[j])
		}
		b.Runs = append(b.Runs, rows)
	}
	if v.ok[bundle.ManifestFile] && v.ok[RequestsFile] {
		v.res.Own = b
	}
}
