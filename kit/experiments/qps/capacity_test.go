package qps

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// openRun is what a pod of a search's step leaves: the open loop at the step's rate
// for a second, every request answered and logged, its p99 within the target up to
// the configuration's knee and far over it above.
func openRun(c tabular.Cell, rate, knee float64, at time.Time) experiment.Run {
	n := int64(rate)
	warm, measured := lines(10, 0), lines(int(n), 10)
	total, since := contract.CountStream(append(warm, measured...)), contract.CountStream(measured)
	p99 := 2.0
	if rate > knee {
		p99 = 50
	}
	res := contract.QPSResult{Warmup: contract.ClosedLoopResult{SentTotal: 10},
		Open: &contract.OpenLoopResult{RateRPS: rate, DurationS: 1, StartUnixNs: 1, Scheduled: n, Status2xx: n, RequestsPerSecond: []int64{n},
			LatencyMeanMs: 1, LatencyP50Ms: 1, LatencyP90Ms: 1.5, LatencyP99Ms: p99, LatencyMaxMs: p99 + 1, SendLagP50Ms: 0.05, SendLagP99Ms: 0.1, SendLagMaxMs: 0.2, GeneratorCPUS: 0.1},
		API: &contract.AccessLogReport{Implementation: "node", Requests: n, Sinks: map[string]contract.AccessLogSink{}}}
	res.API.Usage.CPUUserUs, res.API.Usage.CPUSystemUs, res.API.Usage.SinceResetMs = 300000, 50000, 1000
	pod := experiment.PodResult{Exits: []contract.Exit{{Role: "api", Running: true}, {Role: "loadgen"}}}
	if hasConsole(c[1]) {
		res.API.Sinks[Console] = contract.AccessLogSink{StreamCount: since, Total: total}
		pod.Logs = map[string][]byte{"api": append(warm, measured...)}
	}
	pod.Result, _ = json.Marshal(res)
	return experiment.Run{ID: experiment.NewRunID(c, 1), Condition: c, Round: 1, Position: 1, Attempt: 1, Started: at, Wall: 3 * time.Second, Pod: pod}
}

// grownSearch is a search of none and console planned, grown and run to its end
// against knees of 3,000 and 1,200 req/s: searches of each, in one round of the plan.
func grownSearch(t *testing.T, searches int) (experiment.Plan, *Bundle) {
	t.Helper()
	p := DefaultParams()
	if err := experiment.FlagSet(Name, p).Parse([]string{"--configs", "none,console", "--duration", "1s", "--warmup-time", "0s", "--engine-cpu=false",
		"--log-driver", "json-file", "--capacity", "--slo-p99", "10ms", "--capacity-max-steps", "20"}); err != nil {
		t.Fatal(err)
	}
	pl, err := Experiment.Plan(p, searches)
	if err != nil {
		t.Fatal(err)
	}
	g, ok := pl.(experiment.Grower)
	if !ok {
		t.Fatalf("a search's plan does not grow: %T", pl)
	}
	b := pl.Bundle().(*Bundle)
	knee := map[string]float64{NoLog: 3000, Console: 1200}
	at := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	c := b.Common()
	c.SchemaVersion, c.Command, c.CreatedUTC = bundle.SchemaVersion, "reproduce", at.Add(-time.Minute)
	done := map[string]bool{}
	for range 30 * searches {
		for _, cond := range pl.Conditions() {
			cell := cond.(tabular.Cell)
			if done[cell.String()] {
				continue
			}
			done[cell.String()] = true
			if _, verified := b.Add(openRun(cell, Search.RateOf(b.Params(), cell), knee[cell[1]], at)); !verified {
				t.Fatalf("%s: not verified: %+v", cell, b.Runs[len(b.Runs)-1].Failure)
			}
			at = at.Add(4 * time.Second)
			c.RunsCompleted++
			c.RunsVerified++
		}
		added, err := g.Grow()
		if err != nil {
			t.Fatal(err)
		}
		if len(added) == 0 {
			break
		}
	}
	c.RunsPlanned, c.Complete, c.FinishedUTC = len(pl.Conditions()), true, at
	return pl, b
}

// TestSearchesRepeatedVerifyEachAndStateAnInterval: --reps 2 with --capacity searches
// each condition twice in one round of the plan; verify replays both searches' rules,
// says the capacity with its interval, and refuses a forged step of the second search.
func TestSearchesRepeatedVerifyEachAndStateAnInterval(t *testing.T) {
	_, b := grownSearch(t, 2)
	if c := b.Common(); c.RunsPlanned != 34 || b.Params().Rounds != 1 || b.Params().Capacity.Rounds != 2 {
		t.Errorf("%d runs planned in %d rounds, %d searches; want 34 in 1, 2 searches", c.RunsPlanned, b.Params().Rounds, b.Params().Capacity.Rounds)
	}
	files, res := verifiedFiles(t, b)
	if want := "node/console: 1,200 req/s [1,200, 1,200] over 2 searches (1,200, 1,200) at p99 ≤ 10ms against 3,000 for the baseline node/none (−60% [−60%, −60%], p=0)"; !strings.Contains(res.Described, want) {
		t.Errorf("verify says %q, want %q", res.Described, want)
	}
	steps := string(files[StepsFile])
	forged := strings.Replace(steps, "node/console,2,5,1600,", "node/console,2,5,1700,", 1)
	if forged == steps {
		t.Fatalf("no step 5 of node/console's second search to forge:\n%s", steps)
	}
	files[StepsFile] = []byte(forged)
	if res := Experiment.Verify(withSums(files)); res.OK() {
		t.Error("verify passes a forged rate in the second search")
	}
}

// verifiedFiles are b's files, and verify's result on them, every problem an error.
func verifiedFiles(t *testing.T, b *Bundle) (map[string][]byte, *verify.Result) {
	t.Helper()
	files, err := b.Files()
	if err != nil {
		t.Fatal(err)
	}
	res := Experiment.Verify(withSums(files))
	for _, pr := range res.Problems {
		t.Errorf("problem: %s", pr)
	}
	return files, res
}

// TestASearchGrowsAndVerifyReplaysIt: qps --capacity plans each condition's first
// step, grows a step a condition after each is judged until every search ends, says
// each capacity against the same API's none, and verify refuses a step said held that
// failed.
func TestASearchGrowsAndVerifyReplaysIt(t *testing.T) {
	_, b := grownSearch(t, 1)
	c := b.Common()
	if c.RunsPlanned != 17 || b.Params().Rounds != 1 || b.Params().Wrk {
		t.Errorf("%d runs planned in %d rounds, wrk %v; want 17 in 1, no wrk", c.RunsPlanned, b.Params().Rounds, b.Params().Wrk)
	}
	files, res := verifiedFiles(t, b)
	if want := "capacity: node/none: 3,000 req/s (3,200 failed) at p99 ≤ 10ms; node/console: 1,200 req/s (1,300 failed) at p99 ≤ 10ms against 3,000 for the baseline node/none (−60%)"; !strings.Contains(res.Described, want) {
		t.Errorf("verify says %q, want %q", res.Described, want)
	}
	var sum strings.Builder
	if err := b.Summary(&sum); err != nil || !strings.Contains(sum.String(), "CAPACITY node/console: 1,200 req/s") {
		t.Errorf("summary: %v\n%s", err, sum.String())
	}

	// console's step 5, at 1,600 req/s, failed; said held, the capacity would read higher.
	steps := string(files[StepsFile])
	var forged []string
	for _, line := range strings.Split(steps, "\n") {
		if strings.HasPrefix(line, "node/console,1,5,") {
			line = strings.TrimSuffix(line, "false") + "true"
		}
		forged = append(forged, line)
	}
	files[StepsFile] = []byte(strings.Join(forged, "\n"))
	if files[StepsFile] == nil || string(files[StepsFile]) == steps {
		t.Fatal("no step 5 of node/console to forge")
	}
	res = Experiment.Verify(withSums(files))
	if res.OK() || !strings.Contains(strings.Join(problemTexts(res.Problems), "\n"), StepsFile) {
		t.Errorf("verify passes a forged step: %v", res.Problems)
	}
}

func problemTexts[T interface{ String() string }](ps []T) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.String())
	}
	return out
}

// TestCapacityFlagsOfQPS: the search's settings without it, and the closed loop's
// flags or wrk beside it, are bad input.
func TestCapacityFlagsOfQPS(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--slo-p99", "10ms"}, "--slo-p99: a setting of --capacity, which is not given"},
		{[]string{"--arrivals", "poisson"}, "--arrivals does nothing without --capacity"},
		{[]string{"--max-send-lag", "2ms"}, "--max-send-lag does nothing without --capacity"},
		{[]string{"--retries", "2"}, "--retries does nothing without --capacity"},
		{[]string{"--capacity", "--retries", "11"}, "--retries 11: want 0 to 10"},
		{[]string{"--capacity", "--pipelining", "2"}, "--pipelining does nothing with --capacity"},
		{[]string{"--vegeta"}, "--vegeta: vegeta checks a capacity search's open loop; add --capacity"},
		{[]string{"--capacity", "--wrk"}, "--wrk: wrk offers a closed loop"},
		{[]string{"--capacity", "--arrivals", "bursty"}, `--arrivals "bursty": want constant or poisson`},
		{[]string{"--capacity", "--capacity-max-steps", "1"}, "--capacity-max-steps 1"},
	} {
		_, err := parse(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: have %v, want %q", tc.args, err, tc.want)
		}
	}
	p, err := parse(t, "--capacity", "--api", "go", "--configs", "none,file", "--arrivals", "poisson")
	if err != nil {
		t.Fatal(err)
	}
	// parse plans 3 rounds: with --capacity, 3 searches of each condition, interleaved.
	if p.Wrk || len(p.Capacity.Steps) != 6 || p.Capacity.Rounds != 3 || p.Capacity.Steps[1].Config != "go/file" || p.Capacity.Steps[2].Round != 2 || p.Arrivals != contract.ArrivalsPoisson {
		t.Errorf("settled: wrk %v, steps %+v, arrivals %q", p.Wrk, p.Capacity.Steps, p.Arrivals)
	}
	spec := pod(&p, tabular.Cell{GoAPI, File, "step1"}, "go-file-step1-r1-abcdef", map[string]string{})
	load := spec.Containers[len(spec.Containers)-1].Cmd
	if !strings.Contains(strings.Join(load, " "), "-open=true") || !strings.Contains(strings.Join(load, " "), "-rate=100") {
		t.Errorf("the step's load: %v", load)
	}
}

// TestALateStepIsPerformedAgain: a step that missed its target while its sends were late
// (its p99 less each send lag within it) is the generator's, and is performed again once
// (--retries 1); the first attempt is kept, superseded, and counts in no figure; a
// second late attempt ends the search as the generator's limit. verify holds both.
func TestALateStepIsPerformedAgain(t *testing.T) {
	for _, tc := range []struct {
		name          string
		secondLate    bool
		wantRetry     bool
		wantSummaryOf string
	}{
		{"on time again", false, false, "CAPACITY node/none: "},
		{"late again", true, false, "none held: the generator was the limit at 100 req/s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := DefaultParams()
			if err := experiment.FlagSet(Name, p).Parse([]string{"--configs", "none", "--duration", "1s", "--warmup-time", "0s", "--engine-cpu=false",
				"--log-driver", "json-file", "--capacity", "--slo-p99", "10ms", "--capacity-max-steps", "2"}); err != nil {
				t.Fatal(err)
			}
			pl, err := Experiment.Plan(p, 1)
			if err != nil {
				t.Fatal(err)
			}
			b := pl.Bundle().(*Bundle)
			if b.Params().Retries != DefaultRetries {
				t.Fatalf("retries %d", b.Params().Retries)
			}
			at := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
			c := b.Common()
			c.SchemaVersion, c.Command, c.CreatedUTC = bundle.SchemaVersion, "reproduce", at.Add(-time.Minute)
			cell := pl.Conditions()[0].(tabular.Cell)
			late := func(attempt int) experiment.Run {
				run := openRun(cell, 100, 3000, at.Add(time.Duration(attempt-1)*4*time.Second))
				var res contract.QPSResult
				if err := json.Unmarshal(run.Pod.Result, &res); err != nil {
					t.Fatal(err)
				}
				res.Open.SendLagP99Ms, res.Open.SendLagMaxMs, res.Open.LatencyP99Ms, res.Open.LatencyMaxMs, res.Open.NetLatencyP99Ms = 5, 6, 50, 51, 2
				run.Pod.Result, _ = json.Marshal(res)
				run.Attempt = attempt
				return run
			}
			first := late(1)
			b.Add(first)
			if !b.Retry(first) {
				t.Fatalf("a late first attempt is not performed again: %+v", b.Runs[0])
			}
			second := openRun(cell, 100, 3000, at.Add(4*time.Second))
			second.Attempt = 2
			if tc.secondLate {
				second = late(2)
			}
			b.Add(second)
			if b.Retry(second) != tc.wantRetry {
				t.Errorf("the second attempt performed again: %v", !tc.wantRetry)
			}
			c.RunsCompleted, c.RunsVerified = 2, 2
			if g := pl.(experiment.Grower); !tc.secondLate {
				if _, err := g.Grow(); err != nil {
					t.Fatal(err)
				}
				third := openRun(pl.Conditions()[1].(tabular.Cell), 200, 3000, at.Add(8*time.Second))
				b.Add(third)
				c.RunsCompleted, c.RunsVerified = 3, 3
			}
			c.RunsPlanned, c.RunsSuperseded, c.Complete, c.FinishedUTC = len(pl.Conditions()), 1, true, at.Add(time.Minute)
			if !b.Runs[0].Superseded || b.Runs[1].Superseded || b.Runs[1].Attempt != 2 {
				t.Errorf("attempts: %+v %+v", b.Runs[0].Superseded, b.Runs[1].Superseded)
			}
			verifiedFiles(t, b)
			var sum strings.Builder
			if err := b.Summary(&sum); err != nil || !strings.Contains(sum.String(), tc.wantSummaryOf) || !strings.Contains(sum.String(), "redone") {
				t.Errorf("summary: %v\n%s", err, sum.String())
			}
		})
	}
}
