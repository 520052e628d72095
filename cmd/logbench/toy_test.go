package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments"
	"github.com/logbench/logbench/kit/host/engine"
	"github.com/logbench/logbench/kit/host/lab"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/report"
	"github.com/logbench/logbench/kit/offline/verify"
)

// toy is an experiment that lives in this test, to show what adding one takes: this
// type, its plan and bundle, and one registration line. Its pod writes a number of
// lines and says how long that took; a fake engine stands in for Docker.
type toy struct{}

const toyRuns = "runs.csv"

// toyRow is one run of the toy (runs.csv).
type toyRow struct {
	RunID    string  `csv:"run_id"`
	Lines    int     `csv:"lines"`
	Round    int     `csv:"round"`
	Verified bool    `csv:"verified"`
	Failure  string  `csv:"failure"`
	Written  int     `csv:"lines_written"`
	WriteMs  float64 `csv:"write_ms"`
}

type toyManifest struct {
	bundle.Common
	Sizes  []int `json:"sizes"`
	Rounds int   `json:"rounds"`
}

func (toy) Name() string { return "toy" }
func (toy) Summary() string {
	return "how long a pod takes to write N lines (an example that lives in a test)"
}
func (toy) Source() string { return "none: it has no published figures" }

func (toy) DeclareFlags(fs *flag.FlagSet) {
	fs.String("sizes", "10,1000", "lines each run writes, comma-separated counts")
}

func (toy) Plan(f *experiment.Flags, rounds int) (experiment.Plan, error) {
	var sizes []int
	for _, s := range strings.Split(f.String("sizes"), ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return nil, experiment.Usagef("--sizes %q: want counts of lines, such as 10,1000", f.String("sizes"))
		}
		sizes = append(sizes, n)
	}
	b := &toyBundle{M: toyManifest{Sizes: sizes, Rounds: rounds}}
	b.M.Experiment = "toy"
	return &toyPlan{b: b}, nil
}

func (t toy) Resume(dir string) (experiment.Plan, error) {
	files, err := bundle.ReadFolder(dir)
	if err != nil {
		return nil, experiment.Usagef("--resume %s: %v", dir, err)
	}
	res := t.Verify(files)
	if !res.OK() {
		return nil, experiment.Usagef("--resume %s: does not verify", dir)
	}
	return &toyPlan{b: res.Own.(*toyBundle)}, nil
}

func (toy) Layout() []string {
	return []string{bundle.ManifestFile, toyRuns, bundle.DataPackageFile, bundle.SumsFile}
}

// Verify: the shared checks, then the toy's own rule: a verified run wrote its lines.
func (t toy) Verify(files *bundle.Files) *verify.Result {
	res := &verify.Result{Name: files.Name, Experiment: "toy"}
	verify.Entries(res, files, t.Layout())
	verify.Checksums(res, files.Data, t.Layout(), []string{bundle.ManifestFile, toyRuns})
	b := &toyBundle{}
	okManifest := verify.Manifest(res, files.Data, &b.M, func() *bundle.Common { return &b.M.Common })
	d := bundle.DecodeCSV[toyRow](toyRuns, files.Data[toyRuns], verify.MaxLineErrors)
	for _, e := range d.Errs {
		res.Problem(verify.Problem{File: toyRuns, Line: e.Line, Column: e.Column, Msg: e.Msg})
	}
	verify.CheckDataPackage(res, files.Data, []string{bundle.ManifestFile, toyRuns}, func(string) bool { return len(d.Errs) == 0 })
	b.Runs = d.Rows
	for i, r := range b.Runs {
		res.Counts.Runs++
		if r.Verified {
			res.Counts.Verified++
			if r.Written != r.Lines {
				res.Problem(verify.Problem{File: toyRuns, Line: d.Lines[i], Column: "lines_written", Have: strconv.Itoa(r.Written), Want: strconv.Itoa(r.Lines), Msg: "a verified run wrote every line"})
			}
		}
	}
	res.Counts.Trusted, res.Counts.Conditions = -1, len(b.M.Sizes)
	if okManifest && len(d.Errs) == 0 {
		res.Own = b
	}
	return res
}

func (toy) Figures(res *verify.Result) ([]compare.Row, error) {
	b := res.Own.(*toyBundle)
	var rows []compare.Row
	for _, size := range b.M.Sizes {
		var runs [][]float64
		for _, r := range b.Runs {
			if r.Lines == size && r.Verified {
				runs = append(runs, []float64{r.WriteMs})
			}
		}
		rows = append(rows, compare.Measured([]compare.KV{{Key: "lines", Value: strconv.Itoa(size)}}, "write_ms", "ms", compare.Mean{}, runs))
	}
	return rows, nil
}

func (t toy) Compare(out, warn io.Writer, sources []experiment.Source, opt experiment.CompareOptions) error {
	in := compare.Input{Experiment: "toy", Metrics: []compare.Metric{{Name: "write_ms", Title: "time to write the lines"}}}
	for _, s := range sources {
		b := s.Result.Own.(*toyBundle)
		rows, _ := t.Figures(s.Result)
		in.Sides = append(in.Sides, compare.Side{Label: s.Label, Rows: rows, Common: &b.M.Common, Manifest: b.M})
	}
	return compare.Write(out, warn, in, compare.Options{Match: opt.Match, Threshold: opt.Threshold}, opt.Format, opt.Wide)
}

func (toy) Report(w io.Writer, sources []experiment.Source, version string) error {
	p := report.Page{Experiment: "toy", Version: version}
	g := &report.Grouped{}
	var cats []string
	for i, s := range sources {
		b := s.Result.Own.(*toyBundle)
		p.Bundles = append(p.Bundles, report.StatusOf(s.Label, report.Colour(i), s.Result))
		series := report.Series{Name: s.Label, Colour: report.Colour(i)}
		for _, size := range b.M.Sizes {
			if i == 0 {
				cats = append(cats, strconv.Itoa(size)+" lines")
			}
			var ms []float64
			for _, r := range b.Runs {
				if r.Lines == size && r.Verified {
					ms = append(ms, r.WriteMs)
				}
			}
			v := report.Absent
			if len(ms) > 0 {
				v = report.Value{V: ms[0], Lo: slices.Min(ms), Hi: slices.Max(ms)}
			}
			series.Values = append(series.Values, v)
		}
		g.Series = append(g.Series, series)
	}
	p.Sections = []report.Section{{ID: "time", Title: "Time to write", Figures: []report.Figure{report.Bars("Time to write", "ms", cats, g, false)}}}
	return report.Write(w, p)
}

type toyPlan struct{ b *toyBundle }

// toyCond is a condition of the toy: the lines a run writes.
type toyCond int

func (c toyCond) String() string { return strconv.Itoa(int(c)) }

func (p *toyPlan) Conditions() []experiment.Condition {
	var out []experiment.Condition
	for _, n := range p.b.M.Sizes {
		out = append(out, toyCond(n))
	}
	return out
}
func (p *toyPlan) Rounds() int                     { return p.b.M.Rounds }
func (p *toyPlan) Images() []string                { return []string{"toy"} }
func (p *toyPlan) Bundle() experiment.Bundle       { return p.b }
func (p *toyPlan) Target(env experiment.Env) error { return nil }
func (p *toyPlan) Pod(cond experiment.Condition, runID string, images map[string]string) experiment.PodSpec {
	return experiment.PodSpec{RunID: runID, Conductor: "toy", MountPath: contract.RunDir, ResultPath: contract.RunDir + "/result.json", User: contract.User,
		Containers: []experiment.ContainerSpec{{Role: "toy", Image: images["toy"], Cmd: []string{"-lines", cond.String()}, NanoCPUs: experiment.NanoCPUs(0.25)}}}
}

type toyBundle struct {
	M    toyManifest
	Runs []toyRow
}

func (b *toyBundle) Common() *bundle.Common           { return &b.M.Common }
func (b *toyBundle) Measured(run experiment.Run) bool { return run.Pod.Result != nil }
func (b *toyBundle) Add(run experiment.Run) (string, bool) {
	var res struct {
		Lines int     `json:"lines"`
		Ms    float64 `json:"ms"`
	}
	n := int(run.Condition.(toyCond))
	row := toyRow{RunID: run.ID, Lines: n, Round: run.Round, Failure: run.Failure}
	if err := json.Unmarshal(run.Pod.Result, &res); err != nil {
		row.Failure = experiment.JoinFailures(row.Failure, "unreadable result: "+err.Error())
	}
	row.Written, row.WriteMs = res.Lines, res.Ms
	row.Verified = row.Failure == "" && row.Written == n
	b.Runs = append(b.Runs, row)
	return fmt.Sprintf("%d lines in %.2f ms", n, row.WriteMs), row.Verified
}
func (b *toyBundle) Has(cond experiment.Condition, round int) bool {
	return slices.ContainsFunc(b.Runs, func(r toyRow) bool { return strconv.Itoa(r.Lines) == cond.String() && r.Round == round })
}
func (b *toyBundle) Files() (map[string][]byte, error) {
	docs := map[string]map[string]bundle.Doc{toyRuns: {
		"run_id": {Unit: "", Text: "The run."}, "lines": {Unit: "1", Text: "Lines the run was to write."},
		"round": {Unit: "1", Text: "The round."}, "verified": {Unit: "", Text: "The run is data."}, "failure": {Unit: "", Text: "Why not."},
		"lines_written": {Unit: "1", Text: "Lines the pod wrote."}, "write_ms": {Unit: "ms", Text: "How long that took."},
	}}
	dp := bundle.Describe("toy", "toy bundle", "An example.", "The manifest.",
		[]bundle.Table{{File: toyRuns, Name: "runs", Text: "One row per run.", Row: reflect.TypeFor[toyRow](), Key: []string{"run_id"}}}, docs)
	return bundle.Encode(b.M, map[string]any{toyRuns: &b.Runs}, dp)
}
func (b *toyBundle) Summary(w io.Writer) error {
	for _, size := range b.M.Sizes {
		for _, r := range b.Runs {
			if r.Lines == size {
				fmt.Fprintf(w, "%d lines: %.2f ms\n", size, r.WriteMs)
			}
		}
	}
	return nil
}

// fakeEngine is an engine that runs nothing: each pod writes its lines at once and
// takes 0.01 ms a line. It is all a test of the orchestration needs of Docker.
type fakeEngine struct{ pods int }

func (e *fakeEngine) RunPod(ctx context.Context, spec experiment.PodSpec, _ io.Writer) (experiment.PodResult, error) {
	e.pods++
	n, _ := strconv.Atoi(spec.Containers[0].Cmd[1])
	body, _ := json.Marshal(map[string]any{"lines": n, "ms": float64(n)*0.01 + float64(e.pods%3)*0.001})
	return experiment.PodResult{Result: body, Exits: []contract.Exit{{Role: "toy"}}}, nil
}
func (e *fakeEngine) Facts(context.Context) (contract.EngineFacts, error) {
	return contract.EngineFacts{Host: "fake", Platform: "linux/amd64", CPUs: 2, EngineVersion: "fake"}, nil
}
func (e *fakeEngine) VolumeExists(context.Context, string) (bool, error) { return false, nil }
func (e *fakeEngine) ImageID(context.Context, string) (string, bool, error) {
	return "", false, nil
}
func (e *fakeEngine) Close() error { return nil }

type fakeImages struct{}

func (fakeImages) Build(_ context.Context, platform string, names []string, _ io.Writer) (map[string]string, []bundle.Image, error) {
	ids := map[string]string{}
	var imgs []bundle.Image
	for _, n := range names {
		ids[n] = "sha256:" + n
		imgs = append(imgs, bundle.Image{Role: n, ID: ids[n], Architecture: "amd64"})
	}
	return ids, imgs, nil
}

// TestAToyExperimentGoesEndToEnd: an experiment registered by one line is reproduced,
// verified, archived, compared and reported by the kit's own commands, with nothing of
// it in the kit.
func TestAToyExperimentGoesEndToEnd(t *testing.T) {
	was := experiments.All
	experiments.All = append(slices.Clone(experiments.All), toy{}) // the one registration line
	t.Cleanup(func() { experiments.All = was })
	wasReach := reach
	reach = func(c *cli.Context, ep engine.Endpoint, out io.Writer) (*target, error) {
		return &target{Target: &lab.Target{Engine: &fakeEngine{}, Facts: contract.EngineFacts{Host: "fake", Platform: "linux/amd64"},
			Platform: "linux/amd64", Images: fakeImages{}, Out: out}}, nil
	}
	t.Cleanup(func() { reach = wasReach })

	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, out := range []string{a, b} {
		if out, err := runApp(t, "reproduce", "toy", "--sizes", "10,100", "--reps", "2", "--out", out); err != nil {
			t.Fatalf("reproduce toy: %v\n%s", err, out)
		}
	}
	if out, err := runApp(t, "reproduce", "toy", "--rate", "3"); err == nil || !strings.Contains(err.Error(), "reproduce toy has no --rate") {
		t.Errorf("another experiment's flag: %v\n%s", err, out)
	}
	out, err := runApp(t, "verify", a, b)
	if err != nil || !strings.Contains(out, "toy: 4 runs (4 verified") {
		t.Fatalf("verify: %v\n%s", err, out)
	}
	if out, err := runApp(t, "archive", a); err != nil {
		t.Fatalf("archive: %v\n%s", err, out)
	}
	stdout, _, err := runAppSplit(t, "compare", a+".tar.gz", b)
	t.Log(stdout)
	if err != nil || !strings.Contains(stdout, "time to write the lines") || !strings.Contains(stdout, "of 2 conditions changed") {
		t.Fatalf("compare: %v\n%s", err, stdout)
	}
	page := filepath.Join(dir, "toy.html")
	if out, err := runApp(t, "report", "--out", page, a, b); err != nil {
		t.Fatalf("report: %v\n%s", err, out)
	}
}
