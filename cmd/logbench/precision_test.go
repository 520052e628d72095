package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
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
)

// spreadEngine is an engine whose runs of the toy take known times: the k-th run of a
// condition of N lines takes N x 10 ms x (1 - spread) when k is odd and (1 + spread)
// when k is even, with spread 1% for 10 lines and 0.5% for 100. So 10 lines' figure
// after k runs has a known 95% interval (Student's t over k values, alternating 99 and
// 101 ms). stopAfter, when set, interrupts the reproduction as that many pods have run.
type spreadEngine struct {
	fakeEngine
	runs      map[string]int
	stopAfter int
	cancel    context.CancelFunc
}

func (e *spreadEngine) RunPod(ctx context.Context, spec experiment.PodSpec, _ io.Writer) (experiment.PodResult, error) {
	if e.stopAfter > 0 && e.pods >= e.stopAfter {
		e.cancel()
		return experiment.PodResult{}, ctx.Err()
	}
	e.pods++
	lines := spec.Containers[0].Cmd[1]
	n, _ := strconv.Atoi(lines)
	e.runs[lines]++
	spread := map[string]float64{"10": 0.01, "100": 0.005}[lines]
	if e.runs[lines]%2 == 1 {
		spread = -spread
	}
	ms := float64(n) * 10 * (1 + spread)
	body, _ := json.Marshal(map[string]any{"lines": n, "chunks_ms": []float64{ms / 4, ms * 3 / 4}})
	return experiment.PodResult{Result: body, Exits: []contract.Exit{{Role: "toy"}}}, nil
}

// withToy registers the toy experiment and has reproduce reach eng.
func withToy(t *testing.T, eng lab.Engine) {
	t.Helper()
	was := experiments.All
	experiments.All = append(slices.Clone(experiments.All), newToy())
	t.Cleanup(func() { experiments.All = was })
	wasReach := reach
	reach = func(c *cli.Context, ep engine.Endpoint, out io.Writer) (*target, error) {
		return &target{Target: &lab.Target{Engine: eng, Facts: contract.EngineFacts{Host: "fake", Platform: "linux/amd64"},
			Platform: "linux/amd64", Images: fakeImages{}, Out: out}}, nil
	}
	t.Cleanup(func() { reach = wasReach })
}

// precisionOf reads a bundle's record of --precision, and the rounds its parameters plan.
func precisionOf(t *testing.T, dir string) (*bundle.Precision, int) {
	t.Helper()
	body, err := os.ReadFile(filepath.Join(dir, bundle.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		bundle.Common
		Rounds int `json:"rounds"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	if m.Precision == nil {
		t.Fatalf("%s has no precision record", dir)
	}
	return m.Precision, m.Rounds
}

// TestPrecisionAddsRoundsUntilTheIntervalIsNarrowEnough: 10 lines' runs alternate 99
// and 101 ms, so its interval's half-width is t(k-1) x sd / sqrt(k): 12.7% of the mean
// after 2 runs (t 12.71, sd 1.41), 2.88% after 3 (t 4.30, sd 1.15, mean 99.67), 1.84%
// after 4 (t 3.18, sd 1.15), 1.36% after 5 (t 2.78, sd 1.10, mean 99.8). 100 lines'
// spread is half as wide, so 10 lines' is the widest figure throughout. A target of 2%
// stops after round 4; one of 1% is not reached in 5 rounds.
func TestPrecisionAddsRoundsUntilTheIntervalIsNarrowEnough(t *testing.T) {
	for _, tc := range []struct {
		name, target string
		maxReps      int
		rounds       int
		stopped      string
		relative     float64
	}{
		{"reached", "2%", 10, 4, bundle.Reached, 0.0184},
		{"a fraction", "0.029", 10, 3, bundle.Reached, 0.0288},
		{"max-rounds", "1%", 5, 5, bundle.MaxRounds, 0.0136},
	} {
		t.Run(tc.name, func(t *testing.T) {
			withToy(t, &spreadEngine{runs: map[string]int{}})
			dir := filepath.Join(t.TempDir(), "b")
			out, err := runApp(t, "reproduce", "toy", "--sizes", "10,100", "--reps", "2", "--precision", tc.target, "--max-reps", strconv.Itoa(tc.maxReps), "--out", dir)
			if err != nil {
				t.Fatalf("reproduce: %v\n%s", err, out)
			}
			rec, rounds := precisionOf(t, dir)
			if rec.Rounds != tc.rounds || rounds != tc.rounds || rec.Stopped != tc.stopped || rec.MinRounds != 2 || rec.MaxRounds != tc.maxReps {
				t.Fatalf("record %+v, parameters' rounds %d; want %d rounds, stopped %s", rec, rounds, tc.rounds, tc.stopped)
			}
			if w := rec.Widest; w == nil || w.Condition != "lines=10" || w.Metric != "write_ms" || w.Runs != tc.rounds || w.Relative == nil || math.Abs(*w.Relative-tc.relative) > 0.0001 {
				t.Errorf("widest %+v, want 10 lines' write_ms at %g", w, tc.relative)
			}
			// A line after each round from the first judged, in order.
			for r := 2; r <= tc.rounds; r++ {
				if !strings.Contains(out, "round "+strconv.Itoa(r)+"/"+strconv.Itoa(tc.maxReps)+": widest interval write_ms (lines=10)") {
					t.Errorf("no line after round %d:\n%s", r, out)
				}
			}
			if strings.Contains(out, "round "+strconv.Itoa(tc.rounds+1)+"/") {
				t.Errorf("a round after the rule stopped:\n%s", out)
			}
			// Every run of each round numbered once, in one sequence.
			if last := strconv.Itoa(2*tc.rounds) + "/" + strconv.Itoa(2*tc.rounds) + " "; !strings.Contains(out, last) {
				t.Errorf("no line %q:\n%s", last, out)
			}
			if out, err := runApp(t, "verify", dir); err != nil || !strings.Contains(out, "toy: "+strconv.Itoa(2*tc.rounds)+" runs") {
				t.Errorf("verify: %v\n%s", err, out)
			}
		})
	}
}

// TestVerifyRefusesAForgedPrecisionRecord: a record that does not follow from the
// bundle's rows is a problem, whatever the forger made consistent elsewhere.
func TestVerifyRefusesAForgedPrecisionRecord(t *testing.T) {
	withToy(t, &spreadEngine{runs: map[string]int{}})
	dir := t.TempDir()
	reached, short := filepath.Join(dir, "reached"), filepath.Join(dir, "short")
	for _, b := range []struct{ dir, target, max string }{{reached, "2%", "10"}, {short, "1%", "5"}} {
		if out, err := runApp(t, "reproduce", "toy", "--sizes", "10,100", "--reps", "2", "--precision", b.target, "--max-reps", b.max, "--out", b.dir); err != nil {
			t.Fatalf("reproduce: %v\n%s", err, out)
		}
	}
	for _, tc := range []struct {
		name, from string
		edit       func(p *bundle.Precision)
		want       string
	}{
		{"reached, said of a bundle short of it", short, func(p *bundle.Precision) { p.Stopped = bundle.Reached }, "precision.stopped"},
		{"a target that the widest figure meets", short, func(p *bundle.Precision) { p.Target = 0.02 }, "precision.stopped"},
		{"a narrower widest figure", reached, func(p *bundle.Precision) { *p.Widest.Relative = 0.005 }, "precision.widest"},
		{"max-rounds, said of a bundle that reached it", reached, func(p *bundle.Precision) { p.Stopped, p.MaxRounds = bundle.MaxRounds, 4 }, "precision.stopped"},
		{"max-rounds before the last round", short, func(p *bundle.Precision) { p.MaxRounds = 6 }, "precision.rounds"},
		{"rounds the runs do not hold", reached, func(p *bundle.Precision) { p.Rounds = 3 }, "precision.rounds"},
		{"an unknown stop", reached, func(p *bundle.Precision) { p.Stopped = "bored" }, "precision.stopped"},
		{"a target of 150%", reached, func(p *bundle.Precision) { p.Target = 1.5 }, "precision.target"},
		{"one round the least", reached, func(p *bundle.Precision) { p.MinRounds = 1 }, "precision.min_rounds"},
		{"interrupted, though within the target", reached, func(p *bundle.Precision) { p.Stopped = bundle.Interrupted }, "precision.rounds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forged := filepath.Join(t.TempDir(), "forged")
			copyBundle(t, tc.from, forged)
			editManifest(t, forged, func(m map[string]any) {
				body, _ := json.Marshal(m["precision"])
				var p bundle.Precision
				if err := json.Unmarshal(body, &p); err != nil {
					t.Fatal(err)
				}
				tc.edit(&p)
				m["precision"] = p
			})
			resum(t, forged)
			out, err := runApp(t, "verify", forged)
			if err == nil || !strings.Contains(out, tc.want) {
				t.Errorf("verify: %v, want a problem with %s:\n%s", err, tc.want, out)
			}
		})
	}
}

// editManifest rewrites a bundle's manifest.json through edit, keys in JSON's order.
func editManifest(t *testing.T, dir string, edit func(map[string]any)) {
	t.Helper()
	path := filepath.Join(dir, bundle.ManifestFile)
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	body, _ = json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(path, append(body, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestResumeContinuesTheRoundsOfAPrecision: a reproduction interrupted in its third
// round leaves a bundle that verifies and says "interrupted"; --resume runs the rest of
// the round and goes on by the same rule, to the same end as an uninterrupted one.
func TestResumeContinuesTheRoundsOfAPrecision(t *testing.T) {
	eng := &spreadEngine{runs: map[string]int{}, stopAfter: 5}
	withToy(t, eng)
	dir := filepath.Join(t.TempDir(), "b")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	eng.cancel = cancel
	app := newApp()
	var out strings.Builder
	app.Writer, app.ErrWriter = &out, &out
	err := app.RunContext(ctx, []string{"logbench", "reproduce", "toy", "--sizes", "10,100", "--reps", "2", "--precision", "2%", "--max-reps", "10", "--out", dir})
	var interrupted interruptedError
	if !errors.As(err, &interrupted) {
		t.Fatalf("want an interrupt, got %v\n%s", err, out.String())
	}
	rec, rounds := precisionOf(t, dir)
	if rec.Stopped != bundle.Interrupted || rec.Rounds != 2 || rounds != 3 {
		t.Fatalf("interrupted in round 3: record %+v, parameters' rounds %d", rec, rounds)
	}
	if out, err := runApp(t, "verify", dir); err != nil || !strings.Contains(out, "interrupted after 2") {
		t.Fatalf("verify of the interrupted bundle: %v\n%s", err, out)
	}
	eng.stopAfter = 0
	if out, err := runApp(t, "reproduce", "--resume", dir); err != nil || !strings.Contains(out, "round 4/10") {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	rec, rounds = precisionOf(t, dir)
	if rec.Stopped != bundle.Reached || rec.Rounds != 4 || rounds != 4 {
		t.Errorf("resumed: record %+v, parameters' rounds %d; want reached after 4", rec, rounds)
	}
	if out, err := runApp(t, "verify", dir); err != nil || !strings.Contains(out, "reached after 4 of at most 10 rounds") {
		t.Errorf("verify: %v\n%s", err, out)
	}
}

// TestPrecisionFlagsRefuseWhatCannotWork: bad --precision, --reps and --max-reps are
// bad input, one line and exit status 2, before anything is created.
func TestPrecisionFlagsRefuseWhatCannotWork(t *testing.T) {
	withToy(t, &spreadEngine{runs: map[string]int{}})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--precision", "0"}, "--precision 0: want the widest 95% interval allowed, as a half-width above 0% and below 100% of the figure"},
		{[]string{"--precision", "150%"}, "--precision 150%: want"},
		{[]string{"--precision", "two"}, "--precision two: want"},
		{[]string{"--precision", "2%", "--reps", "1"}, "--reps 1: --precision needs at least 2 rounds, as one run gives no interval"},
		{[]string{"--precision", "2%", "--reps", "5", "--max-reps", "4"}, "--max-reps 4: want 5 (--reps) to 100"},
		{[]string{"--precision", "2%", "--max-reps", "101"}, "--max-reps 101: want 3 (--reps) to 100"},
		{[]string{"--max-reps", "8"}, "--max-reps: the most rounds of --precision, which is not given"},
	} {
		out := filepath.Join(t.TempDir(), "b")
		_, err := runApp(t, append([]string{"reproduce", "toy", "--out", out}, tc.args...)...)
		var usage usageError
		if !errors.As(err, &usage) || err.Error() != tc.want && !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%v: %v, want bad input %q", tc.args, err, tc.want)
		}
		if _, statErr := os.Stat(out); statErr == nil {
			t.Errorf("%v: a bundle folder was created", tc.args)
		}
	}
}
