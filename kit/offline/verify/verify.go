// Package verify checks a result bundle against itself: every file against SHA256SUMS,
// and every aggregate against the rows it was computed from, so that neither a flipped
// byte nor an edited figure with a recomputed checksum goes unnoticed.
package verify

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// maxLineErrors bounds the parse problems reported per file: past that, one more says
// how many were left out.
const maxLineErrors = 20

// Problem is one way a bundle is not what it claims, precise enough to find by hand.
type Problem struct {
	File   string // the file at fault (or the entry, for an extra one)
	Line   int    // 1-based line in File, the header being line 1; 0: not about one line
	Key    string // the row's run or condition, when it has one
	Column string // the column or field at fault
	Have   string // the value found ...
	Want   string // ... and the value it must have, when the problem is a value
	Msg    string // what is wrong, or where Want comes from
}

// String gives the problem on one line:
// `runs.csv line 3 (run r1): p99_ms: have 5, want 4 (recomputed from requests.csv lines 2-5)`.
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, " line %d", p.Line)
	}
	if p.Key != "" {
		fmt.Fprintf(&b, " (%s)", p.Key)
	}
	b.WriteString(": ")
	if p.Column != "" {
		b.WriteString(p.Column + ": ")
	}
	switch {
	case p.Have != "" || p.Want != "":
		fmt.Fprintf(&b, "have %s, want %s", p.Have, p.Want)
		if p.Msg != "" {
			fmt.Fprintf(&b, " (%s)", p.Msg)
		}
	default:
		b.WriteString(p.Msg)
	}
	// Whatever a hostile file put in a name or a value, a problem stays one line.
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, b.String())
}

// Counts say how much was checked.
type Counts struct {
	Files      int // files whose SHA-256 matched SHA256SUMS
	Runs       int
	Verified   int // runs marked verified
	Trusted    int // verified runs that count (not superseded) whose send lag kept within the bound
	Superseded int // runs redone: kept, and in no condition's figures
	Noisy      int // verified runs that count, measured on a noisy host
	Requests   int
	Containers int
	Timeline   int // timeline samples
	Conditions int
}

// Result is a bundle's verification, by whichever experiment wrote the bundle.
type Result struct {
	Name string
	// Common is what every bundle's manifest says (engine, images, emulated, runs); nil
	// when the manifest could not be read.
	Common *bundle.Common
	// Own is the bundle as its files say, in its experiment's own type, for its compare
	// and report; nil when the files could not be read far enough to say.
	Own any
	// Bundle is Own for the fifo-stall experiment, with Conditions as in conditions.csv.
	Bundle *bundle.Bundle
	// Described is what an experiment other than fifo-stall says it checked, in the
	// summary's words ("12 runs (12 verified), 48 per-second rows, 4 conditions").
	Described string
	// Problems make the bundle wrong: anything but none fails verification.
	Problems []Problem
	// Notes are differences that do not: the model's predictions in conditions.csv
	// differ from this kit's model, which changes between kit versions.
	Notes  []Problem
	Counts Counts
}

// OK says the bundle has no problem.
func (r *Result) OK() bool { return len(r.Problems) == 0 }

// Summary says in one line what was checked and how far the runs can be trusted, then
// one line per condition (Trust).
func (r *Result) Summary() string {
	c := r.Counts
	s := fmt.Sprintf("%s: %d files match %s; %d runs (%d verified, %d lag-trusted, %d redone, %d on a noisy host), %d requests, %d container rows, %d timeline samples, %d conditions",
		r.Name, c.Files, bundle.SumsFile, c.Runs, c.Verified, c.Trusted, c.Superseded, c.Noisy, c.Requests, c.Containers, c.Timeline, c.Conditions)
	if r.Described != "" {
		s = fmt.Sprintf("%s: %d files match %s; %s", r.Name, c.Files, bundle.SumsFile, r.Described)
	}
	if r.OK() {
		s = "OK: " + s + "; every aggregate recomputed and equal"
	} else {
		s = fmt.Sprintf("FAILED: %s; %d problems", s, len(r.Problems))
	}
	// Then how far each condition can be trusted, one indented line each.
	for _, line := range r.Trust() {
		s += "\n  " + line
	}
	return s
}

// Trust says per condition how far its figures can be trusted, one line each: runs
// verified and lag-trusted of those that count, runs redone, runs on a noisy host, and
// whether the p99 is resolved (bundle.Resolved), as conditions.csv has them:
// "go/json-sync/slow: 3/3 verified, 2/3 lag-trusted, 1 redone; p99 4.1 ms not resolved (under 5 x the send-lag p99 of 0.9 ms)".
func (r *Result) Trust() []string {
	if r.Bundle == nil {
		return nil
	}
	var out []string
	for _, c := range r.Bundle.Conditions {
		out = append(out, TrustLine(c))
	}
	return out
}

// TrustLine is one condition's line of Trust.
func TrustLine(c bundle.ConditionRow) string {
	s := fmt.Sprintf("%s/%s/%s: %d/%d verified, %d/%d lag-trusted", c.API, c.Mode, c.Reader, c.RunsVerified, c.Runs, c.RunsTrusted, c.Runs)
	if c.RunsSuperseded > 0 {
		s += fmt.Sprintf(", %d redone", c.RunsSuperseded)
	}
	if c.RunsNoisy > 0 {
		s += fmt.Sprintf(", %d on a noisy host", c.RunsNoisy)
	}
	if c.RunsTrusted < c.Runs {
		s += "; STILL UNTRUSTED RUNS"
	}
	switch p99, lag := float64(c.P99Ms), float64(c.SendLagP99MaxMs); {
	case math.IsNaN(p99):
	case c.P99Resolved:
		s += fmt.Sprintf("; p99 %s ms resolved (send-lag p99 at most %s ms)", number3(p99), number3(lag))
	default:
		s += fmt.Sprintf("; p99 %s ms NOT resolved (under %g x the send-lag p99 of %s ms)", number3(p99), bundle.ResolutionFactor, number3(lag))
	}
	return s
}

func number3(f float64) string {
	if math.IsNaN(f) {
		return "-"
	}
	return strconv.FormatFloat(f, 'g', 3, 64)
}

// Verify checks everything a bundle's files say about each other (see the README's
// "Verify, archive, compare, report" for the list). It never stops at the first
// problem, and it only reads: a bundle on disk is never touched.
func Verify(f *bundle.Files) *Result {
	v := &verifier{res: &Result{Name: f.Name}, files: f.Data, ok: map[string]bool{}, absent: map[string][]string{}}
	v.entries(f)
	v.checksums()
	v.manifest()
	v.tables()
	v.dataPackage() // datapackage.go
	if v.ok[bundle.RunsFile] {
		v.index()
		if v.ok[bundle.RequestsFile] {
			v.runs()
		}
		if v.ok[bundle.ManifestFile] {
			v.manifestCounts()
		}
		if v.ok[bundle.ManifestFile] && v.ok[bundle.RequestsFile] && v.ok[bundle.ContainersFile] && v.ok[bundle.ConditionsFile] {
			v.conditions()
		}
	}
	return v.res
}

type verifier struct {
	res   *Result
	files map[string][]byte
	// ok says a file is present and parsed without a problem, so that checks that
	// rest on it can be made without a cascade of follow-on complaints.
	ok map[string]bool
	// absent are the columns each file lacks that verification does not rest on.
	absent map[string][]string

	manifestBody bundle.Manifest
	runRows      []bundle.RunRow
	runLines     []int
	requests     []bundle.RequestRow
	reqLines     []int
	containers   []bundle.ContainerRow
	ctLines      []int
	timeline     []bundle.TimelineRow
	tlLines      []int
	conds        []bundle.ConditionRow
	condLines    []int

	// recomputed are the runs' rows with every derived figure recomputed (runs), which
	// conditions.csv is checked against: a forged run figure is one problem, in runs.csv.
	recomputed map[int]bundle.RunRow

	byRun map[string]int // run_id -> index in runRows
	reqOf [][]int        // per run: indexes into requests
	ctOf  [][]int
	tlOf  [][]int
}

func (v *verifier) problem(p Problem) { v.res.Problems = append(v.res.Problems, p) }

// entries: a bundle holds its own files and nothing else.
func (v *verifier) entries(f *bundle.Files) {
	var extra []string
	for name := range f.Data {
		if !slices.Contains(bundle.Names(), name) {
			extra = append(extra, name)
		}
	}
	slices.Sort(extra)
	for _, e := range append(extra, f.Extra...) {
		v.problem(Problem{File: short(e), Msg: "not a bundle file (a bundle holds exactly " + strings.Join(bundle.Names(), ", ") + ")"})
	}
}

// checksums: SHA256SUMS lists every data file once, and each matches.
func (v *verifier) checksums() {
	body, ok := v.files[bundle.SumsFile]
	if !ok {
		v.problem(Problem{File: bundle.SumsFile, Msg: "missing: nothing can be checked against it"})
		for _, name := range bundle.DataFiles {
			if _, ok := v.files[name]; !ok {
				v.problem(Problem{File: name, Msg: "missing"})
			}
		}
		return
	}
	type listed struct {
		sum  string
		line int
	}
	want := map[string]listed{}
	lines := strings.Split(string(body), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, text := range lines {
		n := i + 1
		sum, name, ok := parseSumLine(text)
		switch {
		case !ok:
			v.problem(Problem{File: bundle.SumsFile, Line: n, Msg: fmt.Sprintf("not `<sha256>  <file>`: %s", short(text))})
		case name == bundle.SumsFile:
			v.problem(Problem{File: bundle.SumsFile, Line: n, Msg: "lists itself"})
		case !slices.Contains(bundle.Names(), name):
			v.problem(Problem{File: bundle.SumsFile, Line: n, Msg: fmt.Sprintf("lists %s, which is not a bundle file", strconv.Quote(name))})
		case want[name].line > 0:
			v.problem(Problem{File: bundle.SumsFile, Line: n, Msg: fmt.Sprintf("lists %s again (first on line %d)", name, want[name].line)})
		default:
			want[name] = listed{strings.ToLower(sum), n}
		}
	}
	for _, name := range bundle.DataFiles {
		data, present := v.files[name]
		w, isListed := want[name]
		switch {
		case !present && isListed:
			v.problem(Problem{File: name, Msg: fmt.Sprintf("missing (%s line %d lists it)", bundle.SumsFile, w.line)})
		case !present:
			v.problem(Problem{File: name, Msg: "missing, and not listed in " + bundle.SumsFile})
		case !isListed:
			v.problem(Problem{File: name, Msg: "not listed in " + bundle.SumsFile})
		default:
			sum := sha256.Sum256(data)
			if have := hex.EncodeToString(sum[:]); have != w.sum {
				v.problem(Problem{File: name, Column: "SHA-256", Have: have, Want: w.sum, Msg: fmt.Sprintf("%s line %d; %d bytes", bundle.SumsFile, w.line, len(data))})
			} else {
				v.res.Counts.Files++
			}
		}
	}
}

// parseSumLine reads one line as `sha256sum` writes it: 64 hex digits, a space, a
// space or '*' (binary mode), the name.
func parseSumLine(text string) (sum, name string, ok bool) {
	if len(text) < 67 || text[64] != ' ' || text[65] != ' ' && text[65] != '*' {
		return "", "", false
	}
	sum, name = text[:64], text[66:]
	if _, err := hex.DecodeString(sum); err != nil {
		return "", "", false
	}
	return sum, name, true
}

// manifest: it parses, and its schema_version is one this kit reads.
func (v *verifier) manifest() {
	body, ok := v.files[bundle.ManifestFile]
	if !ok {
		return
	}
	var head struct {
		SchemaVersion *int `json:"schema_version"`
	}
	if err := json.Unmarshal(body, &head); err != nil {
		v.problem(jsonProblem(body, err))
		return
	}
	switch {
	case head.SchemaVersion == nil:
		v.problem(Problem{File: bundle.ManifestFile, Column: "schema_version", Msg: "missing"})
		return
	case *head.SchemaVersion != bundle.SchemaVersion:
		v.problem(Problem{File: bundle.ManifestFile, Column: "schema_version", Have: strconv.Itoa(*head.SchemaVersion), Want: strconv.Itoa(bundle.SchemaVersion),
			Msg: "the only version this kit reads"})
		return
	}
	if err := json.Unmarshal(body, &v.manifestBody); err != nil {
		v.problem(jsonProblem(body, err))
		return
	}
	v.ok[bundle.ManifestFile] = true
	v.res.Common = &v.manifestBody.Common
}

func jsonProblem(body []byte, err error) Problem {
	p := Problem{File: bundle.ManifestFile, Msg: "not valid JSON: " + err.Error()}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		p.Line = lineAt(body, syn.Offset)
	case errors.As(err, &typ):
		p.Line, p.Column = lineAt(body, typ.Offset), typ.Field
		p.Msg = fmt.Sprintf("a JSON %s where the schema has %s", typ.Value, typ.Type)
	}
	return p
}

func lineAt(body []byte, offset int64) int {
	offset = min(max(offset, 0), int64(len(body)))
	return 1 + strings.Count(string(body[:offset]), "\n")
}

// tables parses every CSV file strictly.
func (v *verifier) tables() {
	decode(v, bundle.RunsFile, &v.runRows, &v.runLines)
	decode(v, bundle.RequestsFile, &v.requests, &v.reqLines)
	decode(v, bundle.ContainersFile, &v.containers, &v.ctLines)
	decode(v, bundle.TimelineFile, &v.timeline, &v.tlLines)
	decode(v, bundle.ConditionsFile, &v.conds, &v.condLines)
	c := &v.res.Counts
	c.Runs, c.Requests, c.Containers, c.Timeline, c.Conditions = len(v.runRows), len(v.requests), len(v.containers), len(v.timeline), len(v.conds)
	for _, r := range v.runRows {
		if r.Verified {
			c.Verified++
		}
		switch {
		case r.Superseded:
			c.Superseded++
		case r.Verified:
			if r.SendLagTrusted {
				c.Trusted++
			}
			if r.HostNoisy {
				c.Noisy++
			}
		}
	}
}

// required are the columns verification rests on. A column outside these that a file
// lacks comes from a bundle written before the kit added it: a note, not a problem.
var required = map[string][]string{
	bundle.RunsFile: {"run_id", "api", "mode", "reader", "verified", "failure", "requests", "errors",
		"p50_ms", "p99_ms", "mean_ms", "max_ms", "send_lag_p99_ms",
		"bytes_generated", "bytes_written", "bytes_read", "lines_written", "lines_read", "sha256_writer", "sha256_reader", "queue_drops",
		"span_generate_mean_us", "span_log_call_mean_us", "to_last_response_s", "to_logs_read_s", "drain_s",
		"backlog_max_bytes", "api_cpu_cores", "api_cpu_throttled_periods", "reader_rate_bytes_per_s"},
	bundle.RequestsFile:   {"run_id", "seq", "sent_ms", "latency_ms", "status", "error", "span_generate_us", "span_log_call_us"},
	bundle.ContainersFile: {"run_id", "role", "cpu_cores", "cpu_throttled_periods"},
	bundle.TimelineFile:   {"run_id", "series", "offset_s", "bytes"},
	bundle.ConditionsFile: {"api", "mode", "reader"},
}

func decode[T any](v *verifier, file string, rows *[]T, lines *[]int) {
	body, present := v.files[file]
	if !present {
		return
	}
	d := bundle.DecodeCSV[T](file, body, maxLineErrors)
	*rows, *lines = d.Rows, d.Lines
	for _, e := range d.Errs {
		p := Problem{File: file, Line: e.Line, Column: e.Column, Msg: e.Msg}
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
		v.problem(Problem{File: file, Line: 1, Msg: "no column " + strings.Join(lacking, ", ") + ": nothing that rests on it can be checked"})
	}
	if len(absent) > 0 {
		v.absent[file] = absent
		v.res.Notes = append(v.res.Notes, Problem{File: file, Line: 1,
			Msg: "no column " + strings.Join(absent, ", ") + " (a bundle written before the kit added it; read as empty)"})
	}
	v.ok[file] = len(d.Errs) == 0 && len(lacking) == 0
}

// index: run_ids are unique, and every row of the other files names a known one.
func (v *verifier) index() {
	v.byRun = map[string]int{}
	for i, r := range v.runRows {
		if r.RunID == "" {
			v.problem(Problem{File: bundle.RunsFile, Line: v.runLines[i], Column: "run_id", Msg: "empty"})
			continue
		}
		if j, dup := v.byRun[r.RunID]; dup {
			v.problem(Problem{File: bundle.RunsFile, Line: v.runLines[i], Column: "run_id", Msg: fmt.Sprintf("%s again (first on line %d)", strconv.Quote(r.RunID), v.runLines[j])})
			continue
		}
		v.byRun[r.RunID] = i
	}
	n := len(v.runRows)
	v.reqOf, v.ctOf, v.tlOf = make([][]int, n), make([][]int, n), make([][]int, n)
	group := func(file string, ok bool, count int, id func(int) string, line func(int) int, into [][]int) {
		if !ok {
			return
		}
		unknown := 0
		for i := range count {
			run, known := v.byRun[id(i)]
			if !known {
				if unknown++; unknown <= maxLineErrors {
					v.problem(Problem{File: file, Line: line(i), Column: "run_id", Msg: fmt.Sprintf("%s is not a run in %s", strconv.Quote(short(id(i))), bundle.RunsFile)})
				}
				continue
			}
			into[run] = append(into[run], i)
		}
		if unknown > maxLineErrors {
			v.problem(Problem{File: file, Column: "run_id", Msg: fmt.Sprintf("%d rows in all name runs that are not in %s", unknown, bundle.RunsFile)})
		}
	}
	group(bundle.RequestsFile, v.ok[bundle.RequestsFile], len(v.requests), func(i int) string { return v.requests[i].RunID }, func(i int) int { return v.reqLines[i] }, v.reqOf)
	group(bundle.ContainersFile, v.ok[bundle.ContainersFile], len(v.containers), func(i int) string { return v.containers[i].RunID }, func(i int) int { return v.ctLines[i] }, v.ctOf)
	group(bundle.TimelineFile, v.ok[bundle.TimelineFile], len(v.timeline), func(i int) string { return v.timeline[i].RunID }, func(i int) int { return v.tlLines[i] }, v.tlOf)

	b := &bundle.Bundle{Manifest: v.manifestBody, Conditions: v.conds}
	for i, r := range v.runRows {
		rows := bundle.Rows{Run: r}
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
	if v.ok[bundle.ManifestFile] && v.ok[bundle.RequestsFile] {
		v.res.Bundle, v.res.Own = b, b
	}
}

// runs recomputes each run's figures from its rows in the other files, with the one
// definition that wrote them (bundle.RunFigures), and names every column that differs.
func (v *verifier) runs() {
	bound := v.manifestBody.Parameters.MaxSendLagP99Ms
	if bound == 0 {
		bound = bundle.DefaultMaxSendLagP99Ms
		v.res.Notes = append(v.res.Notes, Problem{File: bundle.ManifestFile, Column: "parameters.max_send_lag_p99_ms",
			Msg: fmt.Sprintf("0: a bundle written before the kit recorded its bound; send_lag_trusted is checked against %g ms", bound)})
	}
	for i, r := range v.runRows {
		if r.RunID == "" || v.byRun[r.RunID] != i {
			continue // a duplicate: already a problem, and its rows went to the first
		}
		line, key := v.runLines[i], "run "+r.RunID
		at := func(column, have, want, msg string) {
			v.problem(Problem{File: bundle.RunsFile, Line: line, Key: key, Column: column, Have: have, Want: want, Msg: msg})
		}
		var reqs []bundle.RequestRow
		for _, j := range v.reqOf[i] {
			reqs = append(reqs, v.requests[j])
		}
		var cts []bundle.ContainerRow
		for _, j := range v.ctOf[i] {
			cts = append(cts, v.containers[j])
		}
		var tl []bundle.TimelineRow
		for _, j := range v.tlOf[i] {
			tl = append(tl, v.timeline[j])
			if s := v.timeline[j].Series; s != bundle.SeriesGenerated && s != bundle.SeriesRead {
				v.problem(Problem{File: bundle.TimelineFile, Line: v.tlLines[j], Column: "series", Msg: fmt.Sprintf("%s is neither generated nor read", strconv.Quote(short(s)))})
			}
		}
		want := bundle.RunFigures(r, reqs, cts, tl, bound)
		if v.recomputed == nil {
			v.recomputed = map[int]bundle.RunRow{}
		}
		v.recomputed[i] = want
		fromReqs := fmt.Sprintf("recomputed from %s %s", bundle.RequestsFile, lineSpan(v.reqOf[i], v.reqLines))
		fromTimeline := fmt.Sprintf("recomputed from %s %s", bundle.TimelineFile, lineSpan(v.tlOf[i], v.tlLines))
		fromAPI := "the api row of " + bundle.ContainersFile
		for _, f := range []struct {
			column     string
			have, want float64
			from       string
			rel        float64
			rests      bool // the file it is recomputed from parsed
		}{
			{"requests", float64(r.Requests), float64(want.Requests), "rows of this run in " + bundle.RequestsFile, 0, true},
			{"errors", float64(r.Errors), float64(want.Errors), "requests without status 200 or with an error, in " + bundle.RequestsFile, 0, true},
			{"p50_ms", float64(r.P50Ms), float64(want.P50Ms), fromReqs, 1e-9, true},
			{"p99_ms", float64(r.P99Ms), float64(want.P99Ms), fromReqs, 1e-9, true},
			{"mean_ms", float64(r.MeanMs), float64(want.MeanMs), fromReqs, 1e-9, true},
			{"max_ms", float64(r.MaxMs), float64(want.MaxMs), fromReqs, 1e-9, true},
			{"send_lag_p99_ms", float64(r.SendLagP99Ms), float64(want.SendLagP99Ms), fromReqs, 1e-9, true},
			{"span_generate_mean_us", float64(r.SpanGenerateMeanUs), float64(want.SpanGenerateMeanUs), fromReqs, 1e-9, true},
			{"span_log_call_mean_us", float64(r.SpanLogCallMeanUs), float64(want.SpanLogCallMeanUs), fromReqs, 1e-9, true},
			{"backlog_max_bytes", float64(r.BacklogMaxBytes), float64(want.BacklogMaxBytes), fromTimeline, 0, v.ok[bundle.TimelineFile]},
			{"reader_rate_bytes_per_s", r.ReaderRateBytesPerS, want.ReaderRateBytesPerS, fromTimeline + ", first to last read", 1e-6, v.ok[bundle.TimelineFile]},
			{"api_cpu_cores", r.APICPUCores, want.APICPUCores, fromAPI, 1e-9, v.ok[bundle.ContainersFile]},
			{"api_cpu_throttled_periods", float64(r.APICPUThrottledPeriods), float64(want.APICPUThrottledPeriods), fromAPI, 0, v.ok[bundle.ContainersFile]},
		} {
			if f.rests && !near(f.have, f.want, f.rel) && !(math.IsNaN(f.have) && math.IsNaN(f.want)) {
				at(f.column, number(f.have), number(f.want), f.from)
			}
		}
		if r.SendLagTrusted != want.SendLagTrusted {
			at("send_lag_trusted", strconv.FormatBool(r.SendLagTrusted), strconv.FormatBool(want.SendLagTrusted),
				fmt.Sprintf("send_lag_p99_ms %s against the manifest's bound of %g ms", number(float64(want.SendLagP99Ms)), bound))
		}
		if r.HostNoisy != want.HostNoisy {
			at("host_noisy", strconv.FormatBool(r.HostNoisy), strconv.FormatBool(want.HostNoisy),
				fmt.Sprintf("host_steal_pct %s over %g or host_cpu_pressure_pct %s over %g", number(float64(r.HostStealPct)), bundle.NoisyStealPct,
					number(float64(r.HostCPUPressurePct)), bundle.NoisyCPUPressurePct))
		}
		if r.Superseded && (!r.Verified || r.SendLagTrusted) {
			at("superseded", "true", "false", "only a verified run whose send lag was over the bound is redone")
		}
		v.proof(i, at)
	}
	v.attempts()
}

// attempts: each condition's round has one run that counts, its latest attempt, and
// the attempts before it are superseded, within the manifest's retries. A bundle
// written before the kit redid runs has attempt 0 everywhere and nothing superseded.
func (v *verifier) attempts() {
	type key struct {
		api, mode, reader string
		round             int
	}
	retries := v.manifestBody.Parameters.Retries
	byRound := map[key][]int{}
	var order []key
	for i, r := range v.runRows {
		if r.RunID == "" || v.byRun[r.RunID] != i {
			continue
		}
		k := key{r.API, r.Mode, r.Reader, r.Round}
		if _, ok := byRound[k]; !ok {
			order = append(order, k)
		}
		byRound[k] = append(byRound[k], i)
	}
	for _, k := range order {
		idx := byRound[k]
		name := fmt.Sprintf("%s/%s/%s round %d", k.api, k.mode, k.reader, k.round)
		var counting []int
		seen := map[int]int{}
		for _, i := range idx {
			r := v.runRows[i]
			if r.Attempt < 0 || (r.Attempt == 0 && (r.Superseded || len(idx) > 1)) {
				v.problem(Problem{File: bundle.RunsFile, Line: v.runLines[i], Key: "run " + r.RunID, Column: "attempt", Have: strconv.Itoa(r.Attempt),
					Want: "1 or more", Msg: "a run of a round performed more than once numbers its attempts"})
			}
			if j, dup := seen[r.Attempt]; dup && r.Attempt > 0 {
				v.problem(Problem{File: bundle.RunsFile, Line: v.runLines[i], Key: "run " + r.RunID, Column: "attempt",
					Msg: fmt.Sprintf("attempt %d of %s again (first on line %d)", r.Attempt, name, v.runLines[j])})
			}
			seen[r.Attempt] = i
			if r.Superseded && r.Attempt > retries {
				v.problem(Problem{File: bundle.RunsFile, Line: v.runLines[i], Key: "run " + r.RunID, Column: "superseded", Have: "true", Want: "false",
					Msg: fmt.Sprintf("attempt %d was redone, past the manifest's retries (%d)", r.Attempt, retries)})
			}
			if !r.Superseded {
				counting = append(counting, i)
			}
		}
		if len(counting) > 1 {
			v.problem(Problem{File: bundle.RunsFile, Line: v.runLines[counting[1]], Key: "run " + v.runRows[counting[1]].RunID, Column: "superseded",
				Msg: fmt.Sprintf("%d runs of %s count; all but the last attempt must be superseded", len(counting), name)})
			continue
		}
		if len(counting) == 1 {
			kept := v.runRows[counting[0]]
			for _, i := range idx {
				if r := v.runRows[i]; r.Superseded && r.Attempt >= kept.Attempt {
					v.problem(Problem{File: bundle.RunsFile, Line: v.runLines[i], Key: "run " + r.RunID, Column: "attempt", Have: strconv.Itoa(r.Attempt),
						Want: "below " + strconv.Itoa(kept.Attempt), Msg: "a superseded attempt came before the run that counts (run " + kept.RunID + ")"})
				}
			}
		}
	}
}

// proof: a verified run read every byte written, lines and digest alike; a failed one
// says why.
func (v *verifier) proof(i int, at func(column, have, want, msg string)) {
	r := v.runRows[i]
	if !r.Verified {
		if strings.TrimSpace(r.Failure) == "" {
			at("failure", `""`, "the reason", "a run marked not verified must say why")
		}
		return
	}
	const why = "a verified run"
	if r.Failure != "" {
		at("verified", "true", "false", "the run has a failure: "+short(r.Failure))
	}
	if r.BytesRead != r.BytesWritten {
		at("bytes_read", i64(r.BytesRead), i64(r.BytesWritten), why+" read every byte written (bytes_written)")
	}
	if r.BytesWritten != r.BytesGenerated {
		at("bytes_written", i64(r.BytesWritten), i64(r.BytesGenerated), why+" wrote every byte generated (bytes_generated)")
	}
	if r.LinesRead != r.LinesWritten {
		at("lines_read", i64(r.LinesRead), i64(r.LinesWritten), why+" read every line written (lines_written)")
	}
	if !isDigest(r.SHA256Writer) {
		at("sha256_writer", strconv.Quote(short(r.SHA256Writer)), "64 hex digits", why+" has the writer's SHA-256")
	}
	if r.SHA256Reader != r.SHA256Writer {
		at("sha256_reader", short(r.SHA256Reader), short(r.SHA256Writer), why+" read what was written (sha256_writer)")
	}
	if r.QueueDrops != 0 {
		at("queue_drops", i64(r.QueueDrops), "0", why+" dropped no record")
	}
}

// manifestCounts: the manifest counts the runs that runs.csv holds.
func (v *verifier) manifestCounts() {
	m := v.manifestBody
	at := func(column, have, want, msg string) {
		v.problem(Problem{File: bundle.ManifestFile, Column: column, Have: have, Want: want, Msg: msg})
	}
	c := v.res.Counts
	if m.RunsCompleted != c.Runs {
		at("runs_completed", strconv.Itoa(m.RunsCompleted), strconv.Itoa(c.Runs), "rows in "+bundle.RunsFile)
	}
	if m.RunsVerified != c.Verified {
		at("runs_verified", strconv.Itoa(m.RunsVerified), strconv.Itoa(c.Verified), "rows of "+bundle.RunsFile+" with verified true")
	}
	if m.RunsSuperseded != c.Superseded {
		at("runs_superseded", strconv.Itoa(m.RunsSuperseded), strconv.Itoa(c.Superseded), "rows of "+bundle.RunsFile+" with superseded true")
	}
	counting := m.RunsCompleted - m.RunsSuperseded
	if counting > m.RunsPlanned {
		at("runs_planned", strconv.Itoa(m.RunsPlanned), "at least "+strconv.Itoa(counting), "runs_completed - runs_superseded")
	}
	if want := counting == m.RunsPlanned; m.Complete != want {
		at("complete", strconv.FormatBool(m.Complete), strconv.FormatBool(want), "runs_completed - runs_superseded == runs_planned")
	}
	p := m.Parameters
	for i, r := range v.runRows {
		for _, f := range []struct {
			column, value, param string
			known                []string
		}{
			{"api", r.API, "apis", p.APIs},
			{"mode", r.Mode, "modes", p.Modes},
			{"reader", r.Reader, "readers", p.Readers},
		} {
			if !slices.Contains(f.known, f.value) {
				v.problem(Problem{File: bundle.RunsFile, Line: v.runLines[i], Key: "run " + r.RunID, Column: f.column,
					Msg: fmt.Sprintf("%s is not in %s parameters.%s %v", strconv.Quote(short(f.value)), bundle.ManifestFile, f.param, f.known)})
			}
		}
	}
}

// modelColumns are conditions.csv's columns that come from the model, not from the
// runs: a newer kit's model may say otherwise, which is a note, not a problem.
var modelColumns = map[string]bool{
	"offered_bytes_per_s": true, "reader_bound_bytes_per_s": true, "predicted_drain_s": true,
	"predicted_rps_to_last_response": true, "predicted_rps_to_logs_read": true, "predicted_backlog_max_bytes": true,
}

// conditions: conditions.csv is exactly what the runs give, recomputed.
func (v *verifier) conditions() {
	b := v.res.Bundle
	if b == nil {
		return
	}
	runs := slices.Clone(b.Runs)
	for i := range runs {
		if r, ok := v.recomputed[i]; ok {
			runs[i].Run = r
		}
	}
	want := bundle.DeriveConditions(runs, v.manifestBody.Parameters)
	type key struct{ api, mode, reader string }
	keyOf := func(c bundle.ConditionRow) key { return key{c.API, c.Mode, c.Reader} }
	name := func(k key) string { return "condition " + k.api + "/" + k.mode + "/" + k.reader }
	wantAt := map[key]int{}
	for i, c := range want {
		wantAt[keyOf(c)] = i
	}
	seen := map[key]int{}
	fields := bundle.FieldsOf[bundle.ConditionRow]()
	for i, have := range v.conds {
		k, line := keyOf(have), v.condLines[i]
		if first, dup := seen[k]; dup {
			v.problem(Problem{File: bundle.ConditionsFile, Line: line, Key: name(k), Msg: fmt.Sprintf("again (first on line %d)", first)})
			continue
		}
		seen[k] = line
		j, known := wantAt[k]
		if !known {
			v.problem(Problem{File: bundle.ConditionsFile, Line: line, Key: name(k), Msg: "no run of this condition in " + bundle.RunsFile})
			continue
		}
		hv, wv := reflect.ValueOf(have), reflect.ValueOf(want[j])
		for _, f := range fields {
			if slices.Contains(v.absent[bundle.ConditionsFile], f.Column) {
				continue // not in the file: nothing to compare
			}
			h, w := hv.FieldByIndex(f.Index), wv.FieldByIndex(f.Index)
			if equalValue(h, w) {
				continue
			}
			p := Problem{File: bundle.ConditionsFile, Line: line, Key: name(k), Column: f.Column, Have: show(h), Want: show(w),
				Msg: "recomputed from " + bundle.RunsFile + ", " + bundle.RequestsFile + " and " + bundle.ContainersFile}
			if modelColumns[f.Column] {
				p.Msg = "this kit's model; the bundle's measured figures are unaffected"
				v.res.Notes = append(v.res.Notes, p)
				continue
			}
			v.problem(p)
		}
	}
	for _, c := range want {
		if _, ok := seen[keyOf(c)]; !ok {
			v.problem(Problem{File: bundle.ConditionsFile, Key: name(keyOf(c)), Msg: fmt.Sprintf("no row, though %s has %d runs of it", bundle.RunsFile, c.Runs)})
		}
	}
}

func equalValue(h, w reflect.Value) bool {
	switch h.Kind() {
	case reflect.Float32, reflect.Float64:
		return same(h.Float(), w.Float())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return h.Int() == w.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return h.Uint() == w.Uint()
	case reflect.Bool:
		return h.Bool() == w.Bool()
	case reflect.String:
		return h.String() == w.String()
	}
	return reflect.DeepEqual(h.Interface(), w.Interface())
}

func show(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return number(v.Float())
	case reflect.String:
		return strconv.Quote(short(v.String()))
	}
	return fmt.Sprint(v.Interface())
}

// same compares a figure in a file with its recomputed value: both absent, or equal up
// to the last bits of a float64 (the files hold the shortest exact decimal, so a
// recomputation from them is bit-for-bit equal unless rows were reordered).
func same(have, want float64) bool { return near(have, want, 1e-9) }

func near(have, want, rel float64) bool {
	if math.IsNaN(have) || math.IsNaN(want) {
		return math.IsNaN(have) && math.IsNaN(want)
	}
	if have == want {
		return true
	}
	return math.Abs(have-want) <= rel*math.Max(math.Abs(have), math.Abs(want))
}

// number writes a figure as the files do; an absent one is "(empty)".
func number(f float64) string {
	if math.IsNaN(f) {
		return "(empty)"
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

func i64(n int64) string { return strconv.FormatInt(n, 10) }

func isDigest(s string) bool {
	_, err := hex.DecodeString(s)
	return err == nil && len(s) == 64
}

// short keeps a value from a hostile file to one readable piece of a line.
func short(s string) string {
	const most = 72
	if len(s) > most {
		s = s[:most] + "…"
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}

// lineSpan names the lines of a run's rows: "lines 2-161", "line 7", "(no rows)".
func lineSpan(idx []int, lines []int) string {
	switch len(idx) {
	case 0:
		return "(no rows)"
	case 1:
		return fmt.Sprintf("line %d", lines[idx[0]])
	}
	lo, hi := lines[idx[0]], lines[idx[0]]
	for _, j := range idx {
		lo, hi = min(lo, lines[j]), max(hi, lines[j])
	}
	return fmt.Sprintf("lines %d-%d", lo, hi)
}
