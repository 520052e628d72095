package yourapi

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// Layout is the bundle's files in archive order, SHA256SUMS last.
func (Experiment) Layout() []string {
	return bundle.Layout(dataFilesOf(true)...)
}

// Verify checks every file and checksum of a bundle, and recomputes every derived
// figure from the rows: each run's from its observed columns and series, the marks
// from the runs of each configuration, each configuration from its runs.
func (Experiment) Verify(files *bundle.Files) *verify.Result {
	res, _ := verifyFiles(files)
	return res
}

func bundleOf(res *verify.Result) (*Bundle, error) { return verify.OwnOf[Bundle](res, Name) }

func verifyFiles(files *bundle.Files) (*verify.Result, *Bundle) {
	_, search := files.Data[StepsFile]
	res := verify.Begin(files, Name, Experiment{}.Layout(), dataFilesOf(search))
	problem := res.Problem
	b := &Bundle{}
	manifestOK := experiment.ReadManifest(res, files.Data, &b.M, b.Common, Name, &b.M.Parameters)
	runLines, runsOK, _ := verify.Rows(res, files.Data, RunsFile, &b.Runs, nil)
	seriesLines, seriesOK, _ := verify.Rows(res, files.Data, SeriesFile, &b.Series, nil)
	condLines, condsOK, _ := verify.Rows(res, files.Data, ConditionsFile, &b.Conditions, nil)
	parsed := map[string]bool{ManifestFile: manifestOK, RunsFile: runsOK, SeriesFile: seriesOK, ConditionsFile: condsOK}
	stepLines, stepsOK := searchRows(res, files, b, manifestOK, search)
	parsed[StepsFile] = stepsOK
	search = search || b.M.Parameters.Capacity.On()
	verify.CheckDataPackage(res, files.Data, dataFilesOf(search), dataPackageOf(search), func(name string) bool { return parsed[name] })
	verify.Tables(res, files.Data, tablesOf(search), func(name string) bool { return parsed[name] }, experiment.PlannedRuns(manifestOK, b.M.Parameters.Planned))
	c := &res.Counts
	c.Conditions = len(b.Conditions)
	c.Trusted = -1
	var requests int64
	for _, r := range b.Runs {
		if r.Verified {
			requests += r.Requests
			if r.HostNoisy && !r.Superseded {
				c.Noisy++
			}
		}
	}
	if !(manifestOK && runsOK && seriesOK && condsOK && stepsOK) {
		return res, b
	}
	p := b.M.Parameters
	if p.Load == "open" {
		c.Trusted = 0
		for _, r := range b.Runs {
			if r.Verified && r.Trusted {
				c.Trusted++
			}
		}
	}
	if b.M.Counted != Counted {
		problem(verify.Problem{File: ManifestFile, Column: "counted", Msg: "the manifest must say that lines are counted, not verified"})
	}
	names := p.ConfigNames()
	if len(names) == 0 || !slices.Contains(names, p.Baseline) {
		problem(verify.Problem{File: ManifestFile, Column: "parameters.baseline", Have: strconv.Quote(p.Baseline), Msg: "not one of the configurations"})
	}
	// Runs: of a configuration, each derived column as its row and series give.
	want := DeriveRuns(b.Runs, b.Series, p)
	legacy := 0
	for i := range b.Runs {
		// An earlier kit wrote 0 for a rate over no measured interval: that 0 was never
		// a measurement, and is read as the missing value written now.
		legacy += bundle.EarlierZeros([2]*Opt{&b.Runs[i].RequestsPerS, &want[i].RequestsPerS}, [2]*Opt{&b.Runs[i].RequestsPerSOver, &want[i].RequestsPerSOver})
	}
	if legacy > 0 {
		res.Notes = append(res.Notes, verify.Problem{File: RunsFile, Column: "requests_per_s, requests_per_s_over_interval",
			Msg: fmt.Sprintf("%d written 0 by an earlier kit without a measured interval, read as missing (empty)", legacy)})
	}
	for i, r := range b.Runs {
		key := "run " + r.RunID
		if !slices.Contains(names, r.Config) {
			problem(verify.Problem{File: RunsFile, Line: runLines[i], Key: key, Msg: fmt.Sprintf("%s is not a configuration of the manifest's parameters", r.Config)})
		}
		verify.Differ(res, RunsFile, runLines[i], key, r, want[i], "responses", nil, "recomputed from the run's observed columns, "+SeriesFile+" and its configuration's runs")
	}
	conds := DeriveConditions(b.Runs, p)
	if len(conds) != len(b.Conditions) {
		problem(verify.Problem{File: ConditionsFile, Have: strconv.Itoa(len(b.Conditions)) + " rows", Want: strconv.Itoa(len(conds)), Msg: "one per configuration of the manifest"})
	}
	for i := range min(len(conds), len(b.Conditions)) {
		verify.Differ(res, ConditionsFile, condLines[i], "config "+b.Conditions[i].Config, b.Conditions[i], conds[i], "", nil, "recomputed from "+RunsFile)
	}
	res.Own = b
	verify.RunProbes(res, files.Data, b.Runs, func(r RunRow) string { return r.RunID })
	physics(res, b, runLines, seriesLines, condLines, time.Now()) // rules.go
	res.Described = fmt.Sprintf("%d responses measured, %d per-second rows; log lines counted, not verified", requests, len(b.Series))
	if p.Capacity.On() {
		checkSearch(res, b, stepLines) // capacity.go
	}
	experiment.CheckPrecision(res, func() int { return b.M.Parameters.Rounds }, Experiment{}.Figures)
	return res, b
}
