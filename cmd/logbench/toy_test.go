package main

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/experiments"
	"github.com/logbench/logbench/kit/host/engine"
	"github.com/logbench/logbench/kit/host/lab"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
)

// The toy is an experiment that lives in this test, to show what adding one takes: its
// parameters, its conditions and pod, its tables (the runs, each run's chunks, each
// condition's count) and how a run becomes rows. Its pod writes a number of lines and
// says how long each chunk took; a fake engine stands in for Docker. The kit does everything else: flags, the matrix, the bundle and its data
// package, verify, compare in every format, and the report.
// toy: begin
type toyParams struct {
	Sizes toySizes `json:"sizes"`
}

// Bind declares the toy's flag bound to its field; Check refuses, flag or manifest
// alike, what no plan can have.
func (p *toyParams) Bind(fs *flag.FlagSet) {
	fs.Var(&p.Sizes, "sizes", "lines each run writes, comma-separated counts")
}
func (p *toyParams) Check() error {
	if len(p.Sizes) == 0 || len(p.Sizes) > experiment.MaxListValues || slices.Min(p.Sizes) < 1 {
		return experiment.Usagef("--sizes %s: want 1 to %d counts of lines, each at least 1", p.Sizes.String(), experiment.MaxListValues)
	}
	return nil
}

// toySizes are the lines each run writes: a flag.Value, "10,1000".
type toySizes []int

func (s *toySizes) String() string {
	return strings.Trim(strings.Join(strings.Fields(fmt.Sprint(*s)), ","), "[]")
}
func (s *toySizes) Set(v string) error {
	*s = nil
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return fmt.Errorf("want counts of lines, such as 10,1000")
		}
		*s = append(*s, n)
	}
	return nil
}

// toyRow is one run of the toy (runs.csv).
type toyRow struct {
	RunID    string  `csv:"run_id" doc:"The run."`
	Lines    string  `csv:"lines" unit:"1" doc:"Lines the run was to write: its condition."`
	Round    int     `csv:"round" unit:"1" doc:"The round, from 1."`
	Written  int     `csv:"lines_written" unit:"1" doc:"Lines the pod says it wrote."`
	WriteMs  float64 `csv:"write_ms" unit:"ms" doc:"How long writing them took."`
	Observed string  `csv:"observed_failure" doc:"What the engine saw go wrong."`
	Verified bool    `csv:"verified" doc:"The run is data: nothing went wrong and every line was written."`
	Failure  string  `csv:"failure" doc:"Why the run is not data."`
}

func newToy() *tabular.Experiment[*toyParams, toyRow] {
	return &tabular.Experiment[*toyParams, toyRow]{
		About:    experiment.Info{Name: "toy", Summary: "how long a pod takes to write N lines (an example that lives in a test)", Source: "none: it has no published figures"},
		Defaults: func() *toyParams { return &toyParams{Sizes: toySizes{10, 1000}} },
		Axes:     []string{"lines"},
		Conditions: func(p *toyParams) []tabular.Cell {
			var out []tabular.Cell
			for _, n := range p.Sizes {
				out = append(out, tabular.Cell{strconv.Itoa(n)})
			}
			return out
		},
		Images: []string{"toy"},
		Pod: func(p *toyParams, c tabular.Cell, runID string, images map[string]string) experiment.PodSpec {
			return experiment.PodSpec{RunID: runID, Conductor: "toy", MountPath: contract.RunDir, ResultPath: contract.RunDir + "/result.json", User: contract.User,
				Containers: []experiment.ContainerSpec{{Role: "toy", Image: images["toy"], Cmd: []string{"-lines", c[0]}, NanoCPUs: experiment.NanoCPUs(0.25)}}}
		},
		Observe: func(p *toyParams, run experiment.Run) toyRow {
			row := toyRow{RunID: run.ID, Lines: run.Condition.String(), Round: run.Round, Observed: run.Failure}
			res, err := toyResultOf(run)
			if err != nil {
				row.Observed = experiment.JoinFailures(row.Observed, "unreadable result: "+err.Error())
			}
			row.Written = res.Lines
			return row
		},
		Judge: func(p *toyParams, r *toyRow, own tabular.Rows) {
			r.WriteMs = 0
			for _, c := range tabular.Of[toyChunk](own, "chunks.csv") {
				r.WriteMs += c.Ms
			}
			r.Failure = r.Observed
			if strconv.Itoa(r.Written) != r.Lines {
				r.Failure = experiment.JoinFailures(r.Failure, fmt.Sprintf("wrote %d lines of %s", r.Written, r.Lines))
			}
			r.Verified = r.Failure == ""
		},
		Runs: bundle.Table{File: "runs.csv", Name: "runs", Text: "One row per run, failed ones too."},
		Tables: []tabular.Table[*toyParams]{
			tabular.PerRun(bundle.Table{File: "chunks.csv", Name: "chunks", Text: "Each run's lines in chunks, as the pod timed them.", Key: []string{"run_id", "chunk"}},
				func(p *toyParams, run experiment.Run) []toyChunk {
					res, _ := toyResultOf(run)
					var out []toyChunk
					for i, ms := range res.Chunks {
						out = append(out, toyChunk{RunID: run.ID, Chunk: i, Ms: ms})
					}
					return out
				}),
			tabular.Derived(bundle.Table{File: "conditions.csv", Name: "conditions", Text: "Each condition's verified runs.", Key: []string{"lines"}},
				func(p *toyParams, runs []toyRow, _ tabular.Rows) []toyCondition {
					var out []toyCondition
					for _, n := range p.Sizes {
						c := toyCondition{Lines: strconv.Itoa(n)}
						for _, r := range runs {
							if r.Lines == c.Lines && r.Verified {
								c.Runs++
							}
						}
						out = append(out, c)
					}
					return out
				}),
		},
		Metrics: []compare.Metric{{Name: "write_ms", Title: "time to write the lines"}},
	}
}

// toyChunk is a chunk of a run's lines (chunks.csv); toyCondition a condition's count
// of verified runs (conditions.csv).
type toyChunk struct {
	RunID string  `csv:"run_id" doc:"The run."`
	Chunk int     `csv:"chunk" unit:"1" doc:"The chunk, from 0."`
	Ms    float64 `csv:"ms" unit:"ms" doc:"How long writing the chunk took."`
}
type toyCondition struct {
	Lines string `csv:"lines" unit:"1" doc:"Lines each run was to write."`
	Runs  int    `csv:"runs_verified" unit:"1" doc:"Its verified runs."`
}

// toyResultOf reads what the toy's pod says: the lines it wrote, and the time of each chunk.
func toyResultOf(run experiment.Run) (res struct {
	Lines  int       `json:"lines"`
	Chunks []float64 `json:"chunks_ms"`
}, err error) {
	err = json.Unmarshal(run.Pod.Result, &res)
	return res, err
}

// toy: end

// fakeEngine is an engine that runs nothing: each pod writes its lines at once and
// takes 0.01 ms a line. It is all a test of the orchestration needs of Docker.
type fakeEngine struct{ pods int }

func (e *fakeEngine) RunPod(ctx context.Context, spec experiment.PodSpec, _ io.Writer) (experiment.PodResult, error) {
	e.pods++
	n, _ := strconv.Atoi(spec.Containers[0].Cmd[1])
	ms := float64(n)*0.01 + float64(e.pods%3)*0.001
	body, _ := json.Marshal(map[string]any{"lines": n, "chunks_ms": []float64{ms / 4, ms * 3 / 4}})
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
	experiments.All = append(slices.Clone(experiments.All), newToy()) // the one registration line
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
	if html, _ := os.ReadFile(page); !strings.Contains(string(html), "time to write the lines") {
		t.Errorf("the report draws no figure of the toy")
	}

	// The data package describes the table from the row type's own tags.
	var dp bundle.DataPackage
	if body, err := os.ReadFile(filepath.Join(a, bundle.DataPackageFile)); err != nil || json.Unmarshal(body, &dp) != nil {
		t.Fatalf("datapackage.json: %v", err)
	}
	if r, ok := dp.Resource("runs.csv"); !ok || !slices.ContainsFunc(r.Schema.Fields, func(f bundle.SchemaField) bool {
		return f.Name == "write_ms" && f.Unit == "ms" && f.Description != ""
	}) {
		t.Errorf("datapackage.json does not describe write_ms in ms: %+v", dp.Resources)
	}
	// JSON names the experiment and holds its figures.
	stdout, _, err = runAppSplit(t, "compare", a, b, "--format", "json")
	if err != nil || !strings.Contains(stdout, `"experiment": "toy"`) || !strings.Contains(stdout, `"metric": "write_ms"`) {
		t.Fatalf("compare --format json: %v\n%s", err, stdout)
	}

	// verify recomputes what the toy derives, and holds the manifest to the plan.
	for name, edit := range map[string]func(string) string{
		"a derived column":  func(s string) string { return strings.Replace(s, ",true,", ",false,", 1) },
		"the planned runs":  func(s string) string { return strings.Replace(s, `"runs_planned": 4`, `"runs_planned": 6`, 1) },
		"an observed count": func(s string) string { return strings.Replace(s, ",10,", ",11,", 1) },
		"a run's own row":   func(s string) string { return strings.Replace(s, ",0,", ",0,1", 1) },
		"a derived table":   func(s string) string { return strings.Replace(s, "10,2", "10,1", 1) },
	} {
		forged := filepath.Join(dir, "forged-"+strings.ReplaceAll(name, " ", "-"))
		copyBundle(t, b, forged)
		file := map[string]string{"the planned runs": bundle.ManifestFile, "a run's own row": "chunks.csv", "a derived table": "conditions.csv"}[name]
		if file == "" {
			file = "runs.csv"
		}
		body, _ := os.ReadFile(filepath.Join(forged, file))
		if edited := edit(string(body)); edited != string(body) {
			os.WriteFile(filepath.Join(forged, file), []byte(edited), 0o644)
		} else {
			t.Fatalf("%s: the edit changed nothing", name)
		}
		resum(t, forged)
		if out, err := runApp(t, "verify", forged); err == nil {
			t.Errorf("verify accepted %s edited:\n%s", name, out)
		}
	}
}

// TestTheToyIsSmall: what an experiment must write, on top of the kit, stays small.
func TestTheToyIsSmall(t *testing.T) {
	body, err := os.ReadFile("toy_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, after, _ := strings.Cut(string(body), "// toy: begin\n")
	decl, _, found := strings.Cut(after, "// toy: end\n")
	if n := strings.Count(decl, "\n"); !found || n > 150 {
		t.Fatalf("the toy experiment's declaration is %d lines (found %v): the kit must keep an experiment to 150", n, found)
	}
}

// copyBundle copies a bundle folder.
func copyBundle(t *testing.T, from, to string) {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
}

// resum writes a folder's SHA256SUMS anew, as a forger would.
func resum(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	var b strings.Builder
	for _, e := range entries {
		if e.Name() == bundle.SumsFile {
			continue
		}
		body, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		fmt.Fprintf(&b, "%x  %s\n", sha256.Sum256(body), e.Name())
	}
	os.WriteFile(filepath.Join(dir, bundle.SumsFile), []byte(b.String()), 0o644)
}
