package qps

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// Layout is the bundle's files in archive order: the data files, datapackage.json (which
// a bundle written before the kit described its files lacks), SHA256SUMS last.
func (Experiment) Layout() []string {
	return bundle.Layout(DataFiles...)
}

// Verify checks every file, checksum and figure of a bundle: each run's derived
// columns are recomputed from its observed ones and its series (DeriveRun), and every
// condition from the runs (DeriveConditions), the functions that wrote them.
func (Experiment) Verify(files *bundle.Files) *verify.Result {
	res, _ := verifyFiles(files)
	return res
}

// bundleOf is the bundle a verification of this experiment read.
func bundleOf(res *verify.Result) (*Bundle, error) { return verify.OwnOf[Bundle](res, Name) }

func verifyFiles(files *bundle.Files) (*verify.Result, *Bundle) {
	v := &verifier{res: verify.Begin(files, Name, Experiment{}.Layout(), DataFiles), files: files.Data}
	b := &Bundle{}
	manifestOK := experiment.ReadManifest(v.res, v.files, &b.M, b.Common, Name, &b.M.Parameters)
	runLines, runsOK, runAbsent := verify.Rows(v.res, v.files, RunsFile, &b.Runs, addedLater[RunsFile])
	legacyDash(v.res, b.Runs)
	seriesLines, seriesOK, _ := verify.Rows(v.res, v.files, SeriesFile, &b.Series, nil)
	condLines, condsOK, condAbsent := verify.Rows(v.res, v.files, ConditionsFile, &b.Conditions, addedLater[ConditionsFile])
	parsed := map[string]bool{ManifestFile: manifestOK, RunsFile: runsOK, SeriesFile: seriesOK, ConditionsFile: condsOK}
	verify.CheckDataPackage(v.res, v.files, DataFiles, DataPackage(), func(name string) bool { return parsed[name] })
	verify.Tables(v.res, v.files, tables, func(name string) bool { return parsed[name] }, experiment.PlannedRuns(manifestOK, b.M.Parameters.Planned))
	c := &v.res.Counts
	c.Conditions = len(b.Conditions)
	c.Trusted = -1 // a closed loop has no send-lag bound: no run is more or less trusted
	requests := 0
	for _, r := range b.Runs {
		if r.Verified {
			requests += int(r.Requests)
			if r.HostNoisy {
				c.Noisy++
			}
		}
	}
	if runsOK && seriesOK && manifestOK {
		v.runs(b, runLines)
		v.rules(b, runLines) // rules.go
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
				verify.Differ(v.res, ConditionsFile, condLines[i], "condition "+h.API+"/"+h.Config, h, want[i], "", condAbsent, "recomputed from "+RunsFile)
			}
		}
	}
	// Compare and report need the rows; a bundle that could not be read far enough
	// has none, and its verification says why.
	if manifestOK && runsOK && seriesOK && condsOK {
		v.res.Own = b
		verify.RunProbes(v.res, v.files, b.Runs, func(r RunRow) string { return r.RunID })
		v.physics(b, runLines, seriesLines, condLines, map[string]map[string]bool{RunsFile: runAbsent, ConditionsFile: condAbsent}, time.Now()) // rules.go
		v.res.Described = fmt.Sprintf("%d requests, %d per-second rows", requests, len(b.Series))
		v.weakened(b)
		experiment.CheckPrecision(v.res, func() int { return b.M.Parameters.Rounds }, Experiment{}.Figures)
	}
	return v.res, b
}

type verifier struct {
	res   *verify.Result
	files map[string][]byte
}

func (v *verifier) problem(p verify.Problem) { v.res.Problems = append(v.res.Problems, p) }

// The kits that added columns, as addedLater names them.
const (
	kitWrkCheck = "the wrk check"
	kitWrkEvery = "wrk checked every configuration"
)

// addedLater are columns a bundle of an earlier kit lacks, by file, and what added
// them: the wrk check's, then its interval and counts per condition.
var addedLater = map[string]map[string]string{
	RunsFile: {"wrk_requests": kitWrkCheck, "wrk_duration_s": kitWrkCheck, "wrk_requests_per_s": kitWrkCheck, "wrk_latency_p50_ms": kitWrkCheck,
		"wrk_latency_p99_ms": kitWrkCheck, "wrk_errors": kitWrkCheck, "wrk_failure": kitWrkCheck, "wrk_agreement": kitWrkCheck,
		"wrk_host_cpu_busy_pct": kitWrkEvery, "wrk_after_kit": kitWrkEvery},
	ConditionsFile: {"wrk_requests_per_s": kitWrkCheck, "wrk_agreement": kitWrkCheck,
		"wrk_agreement_ci_low": kitWrkEvery, "wrk_agreement_ci_high": kitWrkEvery, "runs_wrk": kitWrkEvery, "runs_wrk_agreeing": kitWrkEvery},
}

// runs: every run's derived columns are what its observed columns and series give.
func (v *verifier) runs(b *Bundle, lines []int) {
	seriesOf := map[string][]SeriesRow{}
	for _, s := range b.Series {
		seriesOf[s.RunID] = append(seriesOf[s.RunID], s)
	}
	p := b.M.Parameters
	legacy := 0
	for i, r := range b.Runs {
		key := "run " + r.RunID
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
		if n := legacyZeros(&b.Runs[i], want); n > 0 {
			r, legacy = b.Runs[i], legacy+n
		}
		verify.Differ(v.res, RunsFile, lines[i], key, r, want, "responses", nil, "recomputed from the run's observed columns and "+SeriesFile)
	}
	if legacy > 0 {
		v.res.Notes = append(v.res.Notes, verify.Problem{File: RunsFile, Column: "requests_per_s, requests_per_s_stdev, requests_per_s_over_interval, generator_cpu_cores",
			Msg: fmt.Sprintf("%d figures written 0 by an earlier kit where they are undefined (no measured interval, or no whole second), read as missing (empty)", legacy)})
	}
}

// legacyZeros reads as absent the derived figures of a run that an earlier kit wrote
// 0 where they are undefined (bundle.EarlierZeros), and says how many.
func legacyZeros(r *RunRow, want RunRow) int {
	return bundle.EarlierZeros([2]*Opt{&r.RequestsPerS, &want.RequestsPerS}, [2]*Opt{&r.RequestsPerSStdev, &want.RequestsPerSStdev},
		[2]*Opt{&r.RequestsPerSOver, &want.RequestsPerSOver}, [2]*Opt{&r.GeneratorCores, &want.GeneratorCores})
}

// legacyDash reads a check a bundle of an earlier kit spelled "-" (no such log) as the
// missing value it is, so that it compares with the check derived afresh; a note says so.
func legacyDash(res *verify.Result, runs []RunRow) {
	n := 0
	for i := range runs {
		for _, check := range []*string{&runs[i].ConsoleVerified, &runs[i].FileVerified} {
			if *check == "-" {
				*check, n = "", n+1
			}
		}
	}
	if n > 0 {
		res.Notes = append(res.Notes, verify.Problem{File: RunsFile, Column: "console_check, file_check",
			Msg: fmt.Sprintf("%d checks spelled - by an earlier kit, read as missing (empty)", n)})
	}
}
