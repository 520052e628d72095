package tabular_test

import (
	"context"
	"errors"
	"flag"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// tinyParams are a tiny experiment's parameters: the runs' sizes, its conditions.
type tinyParams struct {
	Sizes []int `json:"sizes"`
}

func (p *tinyParams) Bind(*flag.FlagSet) {}
func (p *tinyParams) Check() error {
	if len(p.Sizes) == 0 {
		return experiment.Usagef("--sizes: want at least one")
	}
	return nil
}

// TinyRow is a run of it: the size its pod said it wrote. (Exported: a row type that
// embeds it has its columns.)
type TinyRow struct {
	RunID    string `csv:"run_id" doc:"The run."`
	Size     string `csv:"size" unit:"1" doc:"The run's condition."`
	Round    int    `csv:"round" unit:"1" doc:"The round, from 1."`
	Written  int    `csv:"written" unit:"1" doc:"What the pod says it wrote."`
	Verified bool   `csv:"verified" doc:"It wrote its size."`
}

func tiny() *tabular.Experiment[*tinyParams, TinyRow] {
	return &tabular.Experiment[*tinyParams, TinyRow]{
		About:    experiment.Info{Name: "tiny", Summary: "a test's", Source: "none"},
		Defaults: func() *tinyParams { return &tinyParams{Sizes: []int{1, 2}} },
		Axes:     []string{"size"},
		Conditions: func(p *tinyParams) []tabular.Cell {
			var out []tabular.Cell
			for _, n := range p.Sizes {
				out = append(out, tabular.Cell{strconv.Itoa(n)})
			}
			return out
		},
		Images: []string{"tiny"},
		Pod: func(p *tinyParams, c tabular.Cell, runID string, images map[string]string) experiment.PodSpec {
			return experiment.PodSpec{RunID: runID, Conductor: "tiny", MountPath: contract.RunDir, ResultPath: contract.RunDir + "/result.json", User: contract.User,
				Containers: []experiment.ContainerSpec{{Role: "tiny", Image: images["tiny"], Cmd: []string{c[0]}}}}
		},
		Observe: func(p *tinyParams, run experiment.Run) TinyRow {
			n, _ := strconv.Atoi(string(run.Pod.Result))
			return TinyRow{RunID: run.ID, Size: run.Condition.String(), Round: run.Round, Written: n}
		},
		Judge: func(p *tinyParams, r *TinyRow, _ tabular.Rows) { r.Verified = strconv.Itoa(r.Written) == r.Size },
		Runs:  bundle.Table{File: "runs.csv", Name: "runs", Text: "One row per run."},
	}
}

// tinyPods run each pod at once: it writes its size.
type tinyPods struct{}

func (tinyPods) RunPod(_ context.Context, spec experiment.PodSpec, _ io.Writer) (experiment.PodResult, error) {
	return experiment.PodResult{Result: []byte(spec.Containers[0].Cmd[0]), Exits: []contract.Exit{{Role: "tiny"}}}, nil
}

// tinyBundle writes a bundle of a tiny experiment as command would: its plan of sizes
// and rounds, of which it performs the first runs runs.
func tinyBundle[R any](t *testing.T, exp *tabular.Experiment[*tinyParams, R], command string, sizes []int, rounds, runs int) string {
	t.Helper()
	p, err := exp.Plan(&tinyParams{Sizes: sizes}, rounds)
	if err != nil {
		t.Fatal(err)
	}
	all := experiment.Rotate(p.Conditions(), p.Rounds())
	c := p.Bundle().Common()
	c.Command, c.SchemaVersion, c.RunsPlanned = command, bundle.SchemaVersion, len(all)
	c.CreatedUTC = time.Now().UTC().Add(-time.Minute)
	dir := filepath.Join(t.TempDir(), command)
	m := &experiment.Matrix{Pods: tinyPods{}, Plan: p, Images: map[string]string{"tiny": "sha256:tiny"}, Dir: dir, Save: bundle.WriteFiles, Progress: io.Discard}
	if err := m.Run(context.Background(), all[:runs]); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestResumeTakesOnlyReproducesBundles: --resume continues a bundle reproduce left
// partial; a bundle `logbench run` wrote (one condition, complete) is refused in one
// line, though it verifies, for every tabular experiment alike.
func TestResumeTakesOnlyReproducesBundles(t *testing.T) {
	exp := tiny()
	partial := tinyBundle(t, exp, "reproduce", []int{1, 2}, 2, 1)
	p, err := exp.Resume(partial)
	if err != nil {
		t.Fatalf("resume of reproduce's partial bundle: %v", err)
	}
	if c := p.Bundle().Common(); c.RunsCompleted != 1 || c.RunsPlanned != 4 {
		t.Errorf("resumed %d of %d runs, want 1 of 4", c.RunsCompleted, c.RunsPlanned)
	}

	one := tinyBundle(t, exp, "run", []int{2}, 1, 1)
	files, err := bundle.ReadFolder(one)
	if err != nil {
		t.Fatal(err)
	}
	if res := exp.Verify(files); !res.OK() {
		t.Fatalf("run's bundle does not verify: %+v", res.Problems)
	}
	_, err = exp.Resume(one)
	var usage experiment.UsageError
	if !errors.As(err, &usage) || !strings.Contains(err.Error(), "--resume "+one+`: a bundle of "run", not of reproduce`) {
		t.Errorf("resume of run's bundle: %v, want a usage error saying it is not reproduce's", err)
	}
}
