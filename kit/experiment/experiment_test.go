package experiment_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// toyPlan is an experiment defined here: one axis ("size"), a pod of one container
// whose conductor reports a number, and a bundle that keeps one line per run.
type toyPlan struct {
	conds  []experiment.Condition
	rounds int
	b      *toyBundle
	// memory is the toy's container's memory limit; 0 for none.
	memory int64
}

func (p *toyPlan) Conditions() []experiment.Condition { return p.conds }
func (p *toyPlan) Rounds() int                        { return p.rounds }
func (p *toyPlan) SetRounds(n int)                    { p.rounds = n }
func (p *toyPlan) Images() []string                   { return []string{"toy"} }
func (p *toyPlan) Bundle() experiment.Bundle          { return p.b }
func (p *toyPlan) Target(experiment.Env) error        { return nil }
func (p *toyPlan) Pod(cond experiment.Condition, runID string, images map[string]string) experiment.PodSpec {
	return experiment.PodSpec{RunID: runID, Conductor: "toy", Containers: []experiment.ContainerSpec{{Role: "toy", Image: images["toy"], Cmd: strings.Split(cond.String(), "/"), MemoryBytes: p.memory}}}
}

type toyResult struct {
	Value   int    `json:"value"`
	Failure string `json:"failure"`
}

type toyBundle struct {
	common bundle.Common
	lines  []string
}

func (b *toyBundle) Common() *bundle.Common { return &b.common }
func (b *toyBundle) Measured(run experiment.Run) bool {
	return run.Pod.Result != nil
}
func (b *toyBundle) Add(run experiment.Run) (string, bool) {
	var r toyResult
	json.Unmarshal(run.Pod.Result, &r)
	failure := experiment.JoinFailures(run.Failure, r.Failure)
	line := fmt.Sprintf("%s r%d p%d value=%d failure=%q", run.Condition, run.Round, run.Position, r.Value, failure)
	b.lines = append(b.lines, line)
	return line, failure == ""
}
func (b *toyBundle) Has(cond experiment.Condition, round int) bool {
	for _, l := range b.lines {
		if strings.HasPrefix(l, fmt.Sprintf("%s r%d ", cond, round)) {
			return true
		}
	}
	return false
}
func (b *toyBundle) Files() (map[string][]byte, error) {
	return map[string][]byte{"runs.txt": []byte(strings.Join(b.lines, "\n"))}, nil
}
func (b *toyBundle) Summary(w io.Writer) error { return nil }

// fakePods plays the engine: each call answers from a script keyed by the pod's
// condition, and records the specs it was given.
type fakePods struct {
	specs  []experiment.PodSpec
	answer func(spec experiment.PodSpec) (experiment.PodResult, error)
}

func (f *fakePods) RunPod(ctx context.Context, spec experiment.PodSpec, _ io.Writer) (experiment.PodResult, error) {
	f.specs = append(f.specs, spec)
	return f.answer(spec)
}

func result(v int, failure string) []byte {
	b, _ := json.Marshal(toyResult{Value: v, Failure: failure})
	return b
}

func TestRotateStartsEachRoundElsewhere(t *testing.T) {
	conds := cross([]string{"a", "b"}, []string{"x", "y", "z"})
	if len(conds) != 6 || conds[0].String() != "a/x" || conds[5].String() != "b/z" {
		t.Fatalf("cross %v", conds)
	}
	runs := experiment.Rotate(conds, 3)
	firsts := map[string]bool{}
	count := map[string]int{}
	for _, r := range runs {
		count[r.Condition.String()]++
		if r.Position == 1 {
			firsts[r.Condition.String()] = true
		}
	}
	if len(runs) != 18 || len(firsts) != 3 || count["b/y"] != 3 {
		t.Fatalf("%d runs, firsts %v, counts %v", len(runs), firsts, count)
	}
}

// TestEngineFailureNamesTheMostPreciseReason: how each container ended comes first.
func TestEngineFailureNamesTheMostPreciseReason(t *testing.T) {
	spec := experiment.PodSpec{Conductor: "loadgen"}
	for _, tc := range []struct {
		name string
		out  experiment.PodResult
		want string
	}{
		{"all well", experiment.PodResult{Result: []byte("{}"), Exits: []contract.Exit{{Role: "api"}, {Role: "loadgen"}}}, ""},
		{"OOM", experiment.PodResult{Result: []byte("{}"), Exits: []contract.Exit{{Role: "api", OOMKilled: true, ExitCode: 137}}},
			"api container killed for exceeding its memory limit (OOM); api container exited with code 137"},
		{"killed with its last words", experiment.PodResult{Exits: []contract.Exit{{Role: "reader", ExitCode: 137, LogTail: "reading\nbye"}}, Failure: "reader container exited during the run"},
			"reader container exited with code 137: bye; reader container exited during the run"},
		{"the conductor's own failure status is the result's to explain", experiment.PodResult{Result: []byte("{}"), Exits: []contract.Exit{{Role: "loadgen", ExitCode: contract.ExitRunFailed}}}, ""},
		{"the conductor's other statuses are not", experiment.PodResult{Exits: []contract.Exit{{Role: "loadgen", ExitCode: 1}}}, "loadgen container exited with code 1"},
		{"a container still running was stopped", experiment.PodResult{Result: []byte("{}"), Exits: []contract.Exit{{Role: "api", Running: true, ExitCode: 143}}}, ""},
		{"the engine's account alone", experiment.PodResult{Failure: "no result from loadgen: gone"}, "no result from loadgen: gone"},
	} {
		if have := experiment.EngineFailure(spec, tc.out); have != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, have, tc.want)
		}
	}
}

// TestMatrixKeepsFailedRunsAndStopsOnlyForTheEngine runs a toy experiment against a
// fake engine: a container killed, a result that says the run failed (a drain that
// timed out), OOM, and then an engine error that measured nothing.
func TestMatrixKeepsFailedRunsAndStopsOnlyForTheEngine(t *testing.T) {
	p := &toyPlan{conds: cross([]string{"1", "2", "3", "4", "5"}), rounds: 1, b: &toyBundle{}}
	p.b.common.RunsPlanned = 5
	pods := &fakePods{answer: func(spec experiment.PodSpec) (experiment.PodResult, error) {
		switch spec.Containers[0].Cmd[0] {
		case "2":
			return experiment.PodResult{Result: result(2, ""), Exits: []contract.Exit{{Role: "toy", ExitCode: 137}}}, nil
		case "3":
			return experiment.PodResult{Result: result(3, "drain not finished within max-run-time")}, nil
		case "4":
			return experiment.PodResult{Result: result(4, ""), Exits: []contract.Exit{{Role: "toy", OOMKilled: true}}}, nil
		case "5":
			return experiment.PodResult{}, errors.New("engine: connection refused")
		}
		return experiment.PodResult{Result: result(1, "")}, nil
	}}
	saves := 0
	m := &experiment.Matrix{Pods: pods, Plan: p, Images: map[string]string{"toy": "sha256:toy"},
		Save: func(dir string, files map[string][]byte) error { saves++; return nil }}
	err := m.Run(context.Background(), experiment.Rotate(p.conds, 1))
	if err == nil || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("want the engine error to stop the matrix, got %v", err)
	}
	c := p.b.common
	if c.RunsCompleted != 4 || c.RunsVerified != 1 || saves != 5 || c.Complete {
		t.Fatalf("completed %d, verified %d, saves %d, complete %v", c.RunsCompleted, c.RunsVerified, saves, c.Complete)
	}
	for i, want := range []string{`failure=""`, `toy container exited with code 137`, `drain not finished`, `(OOM)`} {
		if !strings.Contains(p.b.lines[i], want) {
			t.Errorf("run %d: %s, want %s", i+1, p.b.lines[i], want)
		}
	}
	if pods.specs[0].Containers[0].Image != "sha256:toy" || !strings.HasPrefix(pods.specs[0].RunID, "1-r1-") {
		t.Errorf("pod %+v", pods.specs[0])
	}

	// Resuming runs only what the bundle lacks.
	missing := experiment.Missing(experiment.Rotate(p.conds, 1), p.b)
	if len(missing) != 1 || missing[0].Condition.String() != "5" {
		t.Fatalf("missing %+v", missing)
	}
}

// TestAnInterruptKeepsWhatWasMeasured: a cancelled context ends the matrix with the
// bundle marked interrupted and saved.
func TestAnInterruptKeepsWhatWasMeasured(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p := &toyPlan{conds: cross([]string{"1", "2", "3"}), rounds: 1, b: &toyBundle{}}
	pods := &fakePods{answer: func(spec experiment.PodSpec) (experiment.PodResult, error) {
		if spec.Containers[0].Cmd[0] == "2" {
			cancel()
			return experiment.PodResult{Failure: "interrupted"}, context.Canceled
		}
		return experiment.PodResult{Result: result(1, "")}, nil
	}}
	var saved map[string][]byte
	m := &experiment.Matrix{Pods: pods, Plan: p, Save: func(_ string, files map[string][]byte) error { saved = files; return nil }}
	err := m.Run(ctx, experiment.Rotate(p.conds, 1))
	if !errors.Is(err, context.Canceled) || !p.b.common.Interrupted || p.b.common.RunsCompleted != 1 || len(pods.specs) != 2 {
		t.Fatalf("err %v, bundle %+v, %d pods", err, p.b.common, len(pods.specs))
	}
	if !strings.Contains(string(saved["runs.txt"]), "1 r1") {
		t.Fatalf("saved %q", saved["runs.txt"])
	}
}

// retryBundle keeps toy runs and redoes one whose value (its "lag") is over bound, up
// to retries times: the fifo-stall experiment's rule, in miniature.
type retryBundle struct {
	toyBundle
	bound, retries int
	runs           []retryRun
}

type retryRun struct {
	cond           string
	round, attempt int
	value          int
	superseded     bool
}

func (b *retryBundle) Add(run experiment.Run) (string, bool) {
	var r toyResult
	json.Unmarshal(run.Pod.Result, &r)
	b.runs = append(b.runs, retryRun{cond: run.Condition.String(), round: run.Round, attempt: run.Attempt, value: r.Value})
	return fmt.Sprintf("%s value=%d", run.Condition, r.Value), true
}

func (b *retryBundle) Retry(run experiment.Run) bool {
	last := &b.runs[len(b.runs)-1]
	if last.value <= b.bound || run.Attempt > b.retries {
		return false
	}
	last.superseded = true
	return true
}

func (b *retryBundle) Attempts(cond experiment.Condition, round int) int {
	n := 0
	for _, r := range b.runs {
		if r.cond == cond.String() && r.round == round {
			n++
		}
	}
	return n
}

func (b *retryBundle) Has(cond experiment.Condition, round int) bool {
	for _, r := range b.runs {
		if r.cond == cond.String() && r.round == round && !r.superseded {
			return true
		}
	}
	return false
}

type retryPlan struct {
	toyPlan
	rb *retryBundle
}

func (p *retryPlan) Bundle() experiment.Bundle { return p.rb }

// scripted answers each condition's pods with its values in turn.
func scripted(values map[string][]int) *fakePods {
	return &fakePods{answer: func(spec experiment.PodSpec) (experiment.PodResult, error) {
		cond := spec.Containers[0].Cmd[0]
		v := values[cond][0]
		if len(values[cond]) > 1 {
			values[cond] = values[cond][1:]
		}
		return experiment.PodResult{Result: result(v, "")}, nil
	}}
}

// TestARunOverTheBoundIsRedoneAndKept: a redoes twice and then holds; b is still over
// the bound when its retries are spent and is kept as the round's run; c holds at once.
// Every attempt is in the bundle, the superseded ones marked, and the matrix is
// complete with 3 runs that count out of 7 performed.
func TestARunOverTheBoundIsRedoneAndKept(t *testing.T) {
	rb := &retryBundle{bound: 2, retries: 2}
	p := &retryPlan{toyPlan: toyPlan{conds: cross([]string{"a", "b", "c"}), rounds: 1}, rb: rb}
	rb.common.RunsPlanned = 3
	pods := scripted(map[string][]int{"a": {5, 5, 1}, "b": {5, 5, 5, 1}, "c": {1}})
	var lines []string
	m := &experiment.Matrix{Pods: pods, Plan: p, Save: func(string, map[string][]byte) error { return nil },
		OnRun: func(done int, line string, _ bool) { lines = append(lines, fmt.Sprintf("%d %s", done, line)) }}
	if err := m.Run(context.Background(), experiment.Rotate(p.conds, 1)); err != nil {
		t.Fatal(err)
	}
	want := []retryRun{
		{cond: "a", round: 1, attempt: 1, value: 5, superseded: true},
		{cond: "a", round: 1, attempt: 2, value: 5, superseded: true},
		{cond: "a", round: 1, attempt: 3, value: 1},
		{cond: "b", round: 1, attempt: 1, value: 5, superseded: true},
		{cond: "b", round: 1, attempt: 2, value: 5, superseded: true},
		{cond: "b", round: 1, attempt: 3, value: 5},
		{cond: "c", round: 1, attempt: 1, value: 1},
	}
	if fmt.Sprint(rb.runs) != fmt.Sprint(want) {
		t.Fatalf("runs\n%v\nwant\n%v", rb.runs, want)
	}
	c := rb.common
	if c.RunsCompleted != 7 || c.RunsSuperseded != 4 || !c.Complete {
		t.Fatalf("completed %d, superseded %d, complete %v", c.RunsCompleted, c.RunsSuperseded, c.Complete)
	}
	if len(lines) != 7 || lines[0] != "1 a value=5; redone (attempt 2)" || lines[2] != "1 a value=1" || lines[6] != "3 c value=1" {
		t.Fatalf("progress lines %q", lines)
	}
}

// TestAResumedMatrixRedoesASupersededRunAsItsNextAttempt: a bundle interrupted right
// after an attempt was superseded lacks the round's run; resuming performs it as
// attempt 2, not as a new attempt 1.
func TestAResumedMatrixRedoesASupersededRunAsItsNextAttempt(t *testing.T) {
	rb := &retryBundle{bound: 2, retries: 2, runs: []retryRun{{cond: "a", round: 1, attempt: 1, value: 5, superseded: true}}}
	rb.common.RunsPlanned, rb.common.RunsCompleted, rb.common.RunsSuperseded = 1, 1, 1
	p := &retryPlan{toyPlan: toyPlan{conds: cross([]string{"a"}), rounds: 1}, rb: rb}
	missing := experiment.Missing(experiment.Rotate(p.conds, 1), rb)
	if len(missing) != 1 {
		t.Fatalf("missing %+v", missing)
	}
	m := &experiment.Matrix{Pods: scripted(map[string][]int{"a": {1}}), Plan: p, Save: func(string, map[string][]byte) error { return nil }}
	if err := m.Run(context.Background(), missing); err != nil {
		t.Fatal(err)
	}
	if len(rb.runs) != 2 || rb.runs[1].attempt != 2 || rb.runs[1].superseded || !rb.common.Complete {
		t.Fatalf("runs %v, %+v", rb.runs, rb.common)
	}
}

// cond is a condition of the toy experiments here: a name.
type cond string

func (c cond) String() string { return string(c) }

// cross is every combination of the axes' values, joined by "/", the first axis varying
// slowest.
func cross(axes ...[]string) []experiment.Condition {
	names := []string{""}
	for _, values := range axes {
		var next []string
		for _, prefix := range names {
			for _, v := range values {
				if prefix != "" {
					v = prefix + "/" + v
				}
				next = append(next, v)
			}
		}
		names = next
	}
	out := make([]experiment.Condition, len(names))
	for i, n := range names {
		out[i] = cond(n)
	}
	return out
}

// TestARunIDNamesItsConditionAndRound: what NewRunID gives fits its condition and
// round, and no other.
func TestARunIDNamesItsConditionAndRound(t *testing.T) {
	c := testCond("go/json-file/-")
	id := experiment.NewRunID(c, 2)
	if !experiment.RunIDFits(id, c, 2) {
		t.Errorf("%s does not fit its own condition and round", id)
	}
	for _, other := range []string{id + "0", strings.Replace(id, "-r2-", "-r3-", 1), "no-such-run", id[:len(id)-1] + "g"} {
		if experiment.RunIDFits(other, c, 2) {
			t.Errorf("%s fits %s round 2", other, c)
		}
	}
	if experiment.RunIDFits(id, testCond("go/json-file/x"), 2) {
		t.Errorf("%s fits another condition", id)
	}
}

type testCond string

func (c testCond) String() string { return string(c) }

// Two engines try their service in the same second when they run at once (a cluster's
// nodes do): their try pods' IDs differ, so their Pods' names do too.
func TestTryIDsMadeInOneSecondDiffer(t *testing.T) {
	seen := map[string]bool{}
	for range 50 {
		id := experiment.NewTryID()
		if seen[id] {
			t.Fatalf("NewTryID gave %s twice", id)
		}
		seen[id] = true
		if !strings.HasPrefix(id, "probe-") || len(id) != len("probe-150405-abcdef") {
			t.Errorf("try ID %q: want probe-HHMMSS-hex", id)
		}
	}
}
