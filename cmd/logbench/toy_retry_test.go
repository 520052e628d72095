package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
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
)

// retryRow is a run of the retrying toy: the toy's run with its attempt, and whether a
// later attempt superseded it.
type retryRow struct {
	RunID      string  `csv:"run_id" doc:"The run."`
	Lines      string  `csv:"lines" unit:"1" doc:"Lines the run was to write: its condition."`
	Round      int     `csv:"round" unit:"1" doc:"The round, from 1."`
	Attempt    int     `csv:"attempt" unit:"1" doc:"The attempt at this condition and round, from 1."`
	Superseded bool    `csv:"superseded" doc:"A later attempt redid this run: kept, and in no figure."`
	WriteMs    float64 `csv:"write_ms" unit:"ms" doc:"How long writing the lines took."`
	Observed   string  `csv:"observed_failure" doc:"What the engine saw go wrong."`
	Verified   bool    `csv:"verified" doc:"The run is data."`
	Failure    string  `csv:"failure" doc:"Why the run is not data."`
}

// newRetryingToy is the toy whose every first attempt is redone (Own.Retry).
func newRetryingToy() *tabular.Experiment[*toyParams, retryRow] {
	toy := newToy()
	return &tabular.Experiment[*toyParams, retryRow]{
		About: experiment.Info{Name: "toy-retry", Summary: "the toy, each run performed twice", Source: "none"}, Defaults: toy.Defaults,
		Axes: toy.Axes, Conditions: toy.Conditions, Images: toy.Images, Pod: toy.Pod,
		Observe: func(p *toyParams, run experiment.Run) retryRow {
			res, _ := toyResultOf(run)
			var ms float64
			for _, c := range res.Chunks {
				ms += c
			}
			return retryRow{RunID: run.ID, Lines: run.Condition.String(), Round: run.Round, Attempt: run.Attempt, WriteMs: ms, Observed: run.Failure}
		},
		Judge:   func(p *toyParams, r *retryRow, _ tabular.Rows) { r.Failure, r.Verified = r.Observed, r.Observed == "" },
		Runs:    toy.Runs,
		Metrics: toy.Metrics,
		Own:     tabular.Own[*toyParams, retryRow]{Retry: func(p *toyParams, r retryRow) bool { return r.Attempt == 1 }},
	}
}

// TestARunRedoneIsKeptAndCountsNowhere: a tabular experiment that has a run redone
// (Own.Retry) keeps every attempt, the redone one marked superseded; the bundle is
// complete with the plan's runs counting, verify counts the redone ones, and refuses a
// run marked superseded that the experiment would not have redone.
func TestARunRedoneIsKeptAndCountsNowhere(t *testing.T) {
	was := experiments.All
	experiments.All = append(slices.Clone(experiments.All), newRetryingToy())
	t.Cleanup(func() { experiments.All = was })
	wasReach := reach
	reach = func(c *cli.Context, ep engine.Endpoint, out io.Writer) (*target, error) {
		return &target{Target: &lab.Target{Engine: &fakeEngine{}, Facts: contract.EngineFacts{Host: "fake", Platform: "linux/amd64"},
			Platform: "linux/amd64", Images: fakeImages{}, Out: out}}, nil
	}
	t.Cleanup(func() { reach = wasReach })

	dir := filepath.Join(t.TempDir(), "b")
	if out, err := runApp(t, "reproduce", "toy-retry", "--sizes", "10,100", "--reps", "1", "--out", dir); err != nil || strings.Count(out, "redone (attempt 2)") != 2 {
		t.Fatalf("reproduce: %v\n%s", err, out)
	}
	out, err := runApp(t, "verify", dir)
	if err != nil || !strings.Contains(out, "toy-retry: 4 runs (4 verified, 2 redone") {
		t.Fatalf("verify: %v\n%s", err, out)
	}
	body, _ := os.ReadFile(filepath.Join(dir, bundle.ManifestFile))
	if !strings.Contains(string(body), `"runs_superseded": 2`) || !strings.Contains(string(body), `"complete": true`) {
		t.Errorf("the manifest does not count the redone runs, or the plan as complete:\n%s", body)
	}
	runs, _ := os.ReadFile(filepath.Join(dir, "runs.csv"))
	if n := strings.Count(string(runs), ",1,true,"); n != 2 {
		t.Errorf("%d first attempts marked superseded, want 2:\n%s", n, runs)
	}

	// The second attempt of a round marked superseded in its place, the manifest's
	// counts kept: the experiment would not have redone it.
	forged := filepath.Join(t.TempDir(), "forged")
	copyBundle(t, dir, forged)
	edited := strings.Replace(strings.Replace(string(runs), ",1,true,", ",1,false,", 1), ",2,false,", ",2,true,", 1)
	os.WriteFile(filepath.Join(forged, "runs.csv"), []byte(edited), 0o644)
	resum(t, forged)
	if out, err := runApp(t, "verify", forged); err == nil || !strings.Contains(out, "would not have redone") {
		t.Errorf("verify accepted a run marked superseded that was not to be redone: %v\n%s", err, out)
	}
}
