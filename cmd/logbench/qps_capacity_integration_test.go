package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/enginetest"
	"github.com/logbench/logbench/kit/experiments/qps"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// TestQPSCapacityOfTheGoAPI searches, briefly, the capacity at p99 ≤ 10 ms of the Go
// API without logs and with its access log on the console: 1 s steps from 200 req/s,
// at most 3 a search, two searches of each configuration (--reps 2), their steps
// interleaved. Every step is a kept run whose every access line was read back and
// verified, the bundle verifies (each search replayed from its rows), and the summary
// says each configuration's capacity over its searches, or the bound the steps reached.
func TestQPSCapacityOfTheGoAPI(t *testing.T) {
	enginetest.Require(t)
	dir := filepath.Join(t.TempDir(), "qps-capacity")
	out, err := runApp(t, "reproduce", "qps", "--api", "go", "--configs", "none,console",
		"--capacity", "--slo-p99", "10ms", "--capacity-start", "200", "--capacity-max-steps", "3",
		"--reps", "2", "--duration", "1s", "--warmup-time", "500ms", "--out", dir)
	t.Log(out)
	if err != nil {
		t.Fatalf("reproduce: %v", err)
	}
	files, err := bundle.ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	res := qps.Experiment.Verify(files)
	if !res.OK() {
		t.Fatalf("the bundle does not verify: %v", res.Problems)
	}
	b := res.Own.(*qps.Bundle)
	// A step whose generator was the limit is performed again (--retries, 1 by default):
	// the search is judged by each step's last attempt, and the earlier one is kept too.
	steps := map[string][]float64{}
	redone := 0
	for _, s := range qps.Search.Steps(b.Params(), b.Runs) {
		if s.Superseded {
			redone++
			continue
		}
		key := fmt.Sprintf("%s search %d", s.Config, s.Search)
		steps[key] = append(steps[key], s.RateRPS)
	}
	for _, config := range []string{"go/none", "go/console"} {
		for _, search := range []int{1, 2} {
			key := fmt.Sprintf("%s search %d", config, search)
			if rates := steps[key]; len(rates) == 0 || len(rates) > 3 || rates[0] != 200 {
				t.Errorf("%s's steps %v: want 1 to 3, from 200 req/s", key, rates)
			}
		}
		if !strings.Contains(out, "CAPACITY "+config+": ") {
			t.Errorf("the summary says nothing of %s's capacity", config)
		}
	}
	for _, r := range b.Runs {
		if r.Step == "" || !r.SendLagP99Ms.Present() {
			t.Errorf("run %s: step %q, send lag %v: not a step of the open loop", r.RunID, r.Step, r.SendLagP99Ms)
		}
		if r.Config == "console" && r.Verified && r.ConsoleVerified != "equal" {
			t.Errorf("run %s: a verified step whose console check is %q", r.RunID, r.ConsoleVerified)
		}
	}
	if len(b.Runs) != len(b.Params().Capacity.Steps)+redone || b.M.Head().RunsPlanned != len(b.Runs)-redone {
		t.Errorf("%d runs for %d steps planned and %d redone, %d runs planned", len(b.Runs), len(b.Params().Capacity.Steps), redone, b.M.Head().RunsPlanned)
	}
	if vout, err := runApp(t, "verify", dir); err != nil || !strings.Contains(vout, "capacity: go/none: ") {
		t.Errorf("verify: %v\n%s", err, vout)
	}
}
