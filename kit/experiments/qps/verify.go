package qps

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// maxLineErrors bounds the parse problems reported per file.
const maxLineErrors = 20

// Layout is the bundle's files in archive order: the data files, datapackage.json (which
// a bundle written before the kit described its files lacks), SHA256SUMS last.
func (Experiment) Layout() []string {
	return append(slices.Clone(DataFiles), DataPackageFile, SumsFile)
}

// Verify checks every file, checksum and figure of a bundle: each run's derived
// columns are recomputed from its observed ones and its series (DeriveRun), and every
// condition from the runs (DeriveConditions), the functions that wrote them.
func (Experiment) Verify(files *bundle.Files) *verify.Result {
	res, _ := verifyFiles(files)
	return res
}

// bundleOf is the bundle a verification of this experiment read.
func bundleOf(res *verify.Result) (*Bundle, error) {
	if b, ok := res.Own.(*Bundle); ok && b != nil {
		return b, nil
	}
	return nil, fmt.Errorf("%s: not verified as a bundle of the %s experiment", res.Name, Name)
}

func verifyFiles(files *bundle.Files) (*verify.Result, *Bundle) {
	v := &verifier{res: &verify.Result{Name: files.Name}, files: files.Data}
	b := &Bundle{}
	v.entries(files)
	v.checksums()
	manifestOK := v.manifest(b)
	runLines, runsOK := decode(v, RunsFile, &b.Runs)
	_, seriesOK := decode(v, SeriesFile, &b.Series)
	condLines, condsOK := decode(v, ConditionsFile, &b.Conditions)
	parsed := map[string]bool{ManifestFile: manifestOK, RunsFile: runsOK, SeriesFile: seriesOK, ConditionsFile: condsOK}
	verify.CheckDataPackage(v.res, v.files, DataFiles, func(name string) bool { return parsed[name] })
	c := &v.res.Counts
	c.Runs, c.Timeline, c.Conditions = len(b.Runs), len(b.Series), len(b.Conditions)
	for _, r := range b.Runs {
		if r.Verified {
			c.Verified++
			c.Trusted++ // no send-lag bound in a closed loop: every verified run counts
			c.Requests += int(r.Requests)
			if r.HostNoisy {
				c.Noisy++
			}
		}
	}
	if runsOK && seriesOK && manifestOK {
		v.runs(b, runLines)
	}
	if runsOK && manifestOK {
		m := b.M
		if m.RunsCompleted != len(b.Runs) {
			v.problem(verify.Problem{File: ManifestFile, Column: "runs_completed", Have: strconv.Itoa(m.RunsCompleted), Want: strconv.Itoa(len(b.Runs)), Msg: "rows in " + RunsFile})
		}
		if m.RunsVerified != c.Verified {
			v.problem(verify.Problem{File: ManifestFile, Column: "runs_verified", Have: strconv.Itoa(m.RunsVerified), Want: strconv.Itoa(c.Verified), Msg: "rows of " + RunsFile + " with verified true"})
		}
		if want := m.RunsCompleted == m.RunsPlanned; m.Complete != want {
			v.problem(verify.Problem{File: ManifestFile, Column: "complete", Have: strconv.FormatBool(m.Complete), Want: strconv.FormatBool(want), Msg: "runs_completed == runs_planned"})
		}
	}
	if runsOK && condsOK && manifestOK {
		pub, err := LoadPublished()
		if err != nil {
			v.problem(verify.Problem{File: ConditionsFile, Msg: "the published figures cannot be read: " + err.Error()})
		} else {
			want := DeriveConditions(b.Runs, b.M.Parameters, pub)
			if len(want) != len(b.Conditions) {
				v.problem(verify.Problem{File: ConditionsFile, Have: strconv.Itoa(len(b.Conditions)) + " rows", Want: strconv.Itoa(len(want)),
					Msg: "one per api x config of the manifest's parameters"})
			}
			for i := range min(len(want), len(b.Conditions)) {
				h := b.Conditions[i]
				differ(v, ConditionsFile, condLines[i], "condition "+h.API+"/"+h.Config, h, want[i], 0, "recomputed from "+RunsFile)
			}
		}
	}
	// Compare and report need the rows; a bundle that could not be read far enough
	// has none, and its verification says why.
	if manifestOK && runsOK && seriesOK && condsOK {
		v.res.Own = b
		verified := 0
		for _, r := range b.Runs {
			if r.Verified {
				verified++
			}
		}
		v.res.Counts.Runs, v.res.Counts.Verified, v.res.Counts.Conditions = len(b.Runs), verified, len(b.Conditions)
		v.res.Described = fmt.Sprintf("%d runs (%d verified), %d per-second rows, %d conditions", len(b.Runs), verified, len(b.Series), len(b.Conditions))
	}
	return v.res, b
}

type verifier struct {
	res   *verify.Result
	files map[string][]byte
}

func (v *verifier) problem(p verify.Problem) { v.res.Problems = append(v.res.Problems, p) }

// entries: a bundle holds its own files and nothing else.
func (v *verifier) entries(f *bundle.Files) {
	names := Experiment{}.Layout()
	var extra []string
	for name := range f.Data {
		if !slices.Contains(names, name) {
			extra = append(extra, name)
		}
	}
	slices.Sort(extra)
	for _, e := range append(extra, f.Extra...) {
		v.problem(verify.Problem{File: e, Msg: "not a bundle file (a qps bundle holds exactly " + strings.Join(names, ", ") + ")"})
	}
}

// checksums: SHA256SUMS lists every data file, and each matches; it may list
// datapackage.json, whose sum verify.CheckDataPackage checks.
func (v *verifier) checksums() {
	body, ok := v.files[SumsFile]
	if !ok {
		v.problem(verify.Problem{File: SumsFile, Msg: "missing: nothing can be checked against it"})
		return
	}
	sums, err := bundle.ParseSums(body)
	if err != nil {
		v.problem(verify.Problem{File: SumsFile, Msg: err.Error()})
		return
	}
	for name := range sums {
		if !slices.Contains(DataFiles, name) && name != DataPackageFile {
			v.problem(verify.Problem{File: SumsFile, Msg: fmt.Sprintf("lists %s, which is not a bundle file", strconv.Quote(name))})
		}
	}
	for _, name := range DataFiles {
		data, present := v.files[name]
		want, listed := sums[name]
		switch {
		case !present:
			v.problem(verify.Problem{File: name, Msg: "missing"})
		case !listed:
			v.problem(verify.Problem{File: name, Msg: "not listed in " + SumsFile})
		default:
			sum := sha256.Sum256(data)
			if have := hex.EncodeToString(sum[:]); have != strings.ToLower(want) {
				v.problem(verify.Problem{File: name, Column: "SHA-256", Have: have, Want: want, Msg: fmt.Sprintf("%s; %d bytes", SumsFile, len(data))})
			} else {
				v.res.Counts.Files++
			}
		}
	}
}

func (v *verifier) manifest(b *Bundle) bool {
	body, ok := v.files[ManifestFile]
	if !ok {
		return false
	}
	if err := json.Unmarshal(body, &b.M); err != nil {
		v.problem(verify.Problem{File: ManifestFile, Msg: "not valid JSON for this experiment: " + err.Error()})
		return false
	}
	switch {
	case b.M.SchemaVersion != bundle.SchemaVersion:
		v.problem(verify.Problem{File: ManifestFile, Column: "schema_version", Have: strconv.Itoa(b.M.SchemaVersion), Want: strconv.Itoa(bundle.SchemaVersion)})
		return false
	case b.M.Experiment != Name:
		v.problem(verify.Problem{File: ManifestFile, Column: "experiment", Have: strconv.Quote(b.M.Experiment), Want: strconv.Quote(Name)})
		return false
	}
	v.res.Common = &b.M.Common
	return true
}

func decode[T any](v *verifier, file string, rows *[]T) ([]int, bool) {
	body, ok := v.files[file]
	if !ok {
		return nil, false
	}
	d := bundle.DecodeCSV[T](file, body, maxLineErrors)
	for _, e := range d.Errs {
		v.problem(verify.Problem{File: file, Line: e.Line, Column: e.Column, Msg: e.Msg})
	}
	missing := 0
	for _, col := range d.Missing {
		if addedLater[file][col] {
			// Read as absent (DecodeCSV): the run had no wrk phase, and its figures
			// recompute as they were written.
			v.res.Notes = append(v.res.Notes, verify.Problem{File: file, Column: col, Msg: "missing: written by a kit before the wrk check; read as absent"})
			continue
		}
		missing++
		v.problem(verify.Problem{File: file, Column: col, Msg: "missing column"})
	}
	*rows = d.Rows
	return d.Lines, len(d.Errs) == 0 && missing == 0
}

// addedLater are columns a bundle of an earlier kit lacks, by file: the wrk check's.
var addedLater = map[string]map[string]bool{
	RunsFile: {"wrk_requests": true, "wrk_duration_s": true, "wrk_requests_per_s": true, "wrk_latency_p50_ms": true,
		"wrk_latency_p99_ms": true, "wrk_errors": true, "wrk_failure": true, "wrk_agreement": true},
	ConditionsFile: {"wrk_requests_per_s": true, "wrk_agreement": true},
}

// runs: every run's derived columns are what its observed columns and series give.
func (v *verifier) runs(b *Bundle, lines []int) {
	seriesOf := map[string][]SeriesRow{}
	for _, s := range b.Series {
		seriesOf[s.RunID] = append(seriesOf[s.RunID], s)
	}
	seen := map[string]bool{}
	p := b.M.Parameters
	first := derivedFrom()
	for i, r := range b.Runs {
		key := "run " + r.RunID
		if seen[r.RunID] {
			v.problem(verify.Problem{File: RunsFile, Line: lines[i], Key: key, Msg: "run_id appears more than once"})
		}
		seen[r.RunID] = true
		if !slices.Contains(p.APIs, r.API) || !slices.Contains(p.Configs, r.Config) {
			v.problem(verify.Problem{File: RunsFile, Line: lines[i], Key: key, Msg: fmt.Sprintf("%s/%s is not a condition of the manifest's parameters", r.API, r.Config)})
		}
		series := seriesOf[r.RunID]
		for j, s := range series {
			if s.Second != j {
				v.problem(verify.Problem{File: SeriesFile, Key: key, Column: "second", Have: strconv.Itoa(s.Second), Want: strconv.Itoa(j), Msg: "each run's seconds in order from 0"})
				break
			}
		}
		want := DeriveRun(r, series, p.NonBlocking)
		differ(v, RunsFile, lines[i], key, r, want, first, "recomputed from the run's observed columns and "+SeriesFile)
	}
	for id := range seriesOf {
		if !seen[id] {
			v.problem(verify.Problem{File: SeriesFile, Key: "run " + id, Msg: "no such run in " + RunsFile})
		}
	}
}

// derivedFrom is the index of RunRow's first derived field.
func derivedFrom() int {
	f, _ := reflect.TypeFor[RunRow]().FieldByName("Requests")
	return f.Index[0]
}

// differ reports every field of have from index from on that is not want's.
func differ(v *verifier, file string, line int, key string, have, want any, from int, why string) {
	h, w := reflect.ValueOf(have), reflect.ValueOf(want)
	t := h.Type()
	for i := from; i < t.NumField(); i++ {
		hv, wv := h.Field(i), w.Field(i)
		if equal(hv, wv) {
			continue
		}
		v.problem(verify.Problem{File: file, Line: line, Key: key, Column: t.Field(i).Tag.Get("csv"), Have: show(hv), Want: show(wv), Msg: why})
	}
}

func equal(h, w reflect.Value) bool {
	switch h.Kind() {
	case reflect.Float64:
		a, b := h.Float(), w.Float()
		if math.IsNaN(a) || math.IsNaN(b) {
			return math.IsNaN(a) && math.IsNaN(b)
		}
		return a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
	}
	return h.Interface() == w.Interface()
}

func show(v reflect.Value) string {
	if v.Kind() == reflect.Float64 {
		if math.IsNaN(v.Float()) {
			return "(empty)"
		}
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	}
	if v.Kind() == reflect.String {
		return strconv.Quote(v.String())
	}
	return fmt.Sprint(v.Interface())
}
