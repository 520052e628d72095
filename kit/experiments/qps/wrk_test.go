package qps

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// withWrk is run with the conductor's result carrying a wrk phase that printed out.
func withWrk(t *testing.T, run experiment.Run, w *contract.WrkRun) experiment.Run {
	t.Helper()
	var res contract.QPSResult
	if err := json.Unmarshal(run.Pod.Result, &res); err != nil {
		t.Fatal(err)
	}
	res.Wrk = w
	body, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	run.Pod.Result = body
	return run
}

func wrkOutput(rate float64, requests int) string {
	return fmt.Sprintf("Running 3s test @ http://127.0.0.1:8080/\n  1 threads and 10 connections\n  %d requests in 3.00s, 1.00MB read\nRequests/sec: %10.2f\nTransfer/sec:      1.00MB\n", requests, rate)
}

// TestTheKitMustAgreeWithWrkWithinFivePercent: the none runs carry wrk's rate and the
// kit's over it; within 5% the rate is confirmed, past it (either way) the run stays
// data and the rate is not confirmed (the summary says so); without wrk's figure when it
// was due the run fails and says why; verify recomputes all of it.
func TestTheKitMustAgreeWithWrkWithinFivePercent(t *testing.T) {
	p := testParams(NoLog)
	p.Wrk = true
	kit := fakeRun{config: NoLog, series: []int64{1000, 1000, 1000}} // 1000 req/s over 3 s
	cases := []struct {
		wrk    *contract.WrkRun
		ok     bool
		reason string
	}{
		{&contract.WrkRun{Output: wrkOutput(1000/1.04, 2885)}, true, ""},
		{&contract.WrkRun{Output: wrkOutput(1000/0.96, 3125)}, true, ""},
		{&contract.WrkRun{Output: wrkOutput(1000/1.06, 2830)}, true, ""}, // verified, not confirmed
		{&contract.WrkRun{Output: wrkOutput(2000, 6000)}, true, ""},
		{&contract.WrkRun{Failure: "wrk exited with status 1", ExitCode: 1}, false, "wrk: wrk exited with status 1"},
		{&contract.WrkRun{Output: "unable to connect to 127.0.0.1:8080 Connection refused\n"}, false, "no Requests/sec line"},
		{nil, false, "no wrk phase in the conductor's result"},
	}
	p.Rounds = len(cases) // a run of each case, one a round
	var runs []experiment.Run
	for i, c := range cases {
		run := withWrk(t, kit.run(fmt.Sprintf("n%d", i), i+1), c.wrk)
		runs = append(runs, run)
		r, _ := record(run, p)
		if r.Verified != c.ok || !strings.Contains(r.Failure, c.reason) {
			t.Errorf("case %d: verified %v, failure %q; want %v, %q", i, r.Verified, r.Failure, c.ok, c.reason)
		}
		if agrees := i < 2; c.ok && (!r.WrkAgreement.Present() || WrkAgrees(float64(r.WrkAgreement)) != agrees) {
			t.Errorf("case %d: agreement %v, want agreeing %v", i, r.WrkAgreement, agrees)
		}
	}
	b, files := fill(t, p, runs...)
	mustVerify(t, files)
	// Four runs are data (two confirmed, two not); the condition's agreement is their mean.
	if c := ConditionsOf(b)[0]; c.RunsVerified != 4 || !c.WrkRequestsPerS.Present() || !c.WrkAgreement.Present() || math.Abs(float64(c.WrkAgreement)-0.89) > 1e-3 {
		t.Errorf("condition %+v", c)
	}
	var summary strings.Builder
	if err := b.Summary(&summary); err != nil || !strings.Contains(summary.String(), "NOT CONFIRMED: node's rates") {
		t.Errorf("the summary does not say the rate is not confirmed (%v):\n%s", err, summary.String())
	}
	if !b.Params().Wrk || !strings.Contains(b.Params().WrkCommand, "wrk -t1 -c 10 -d 3s --latency http://127.0.0.1:8080/") {
		t.Errorf("manifest: wrk %v, %q", b.Params().Wrk, b.Params().WrkCommand)
	}
	// An edited wrk figure no longer gives the agreement written beside it.
	edited := strings.Replace(string(files.Data[RunsFile]), "961.54", "900", 1)
	if edited == string(files.Data[RunsFile]) {
		t.Fatal("no wrk figure to edit")
	}
	files.Data[RunsFile] = []byte(edited)
	delete(files.Data, SumsFile)
	res := Experiment.Verify(withSums(files.Data))
	if res.OK() || !strings.Contains(fmt.Sprint(res.Problems), "wrk_agreement") {
		t.Errorf("an edited wrk figure: %v", res.Problems)
	}
}

// TestEveryConfigRunsWrkAndTheFlagTurnsItOff: every configuration's pod has the wrk
// container between the API and the conductor, in the pod (whose network namespace is
// the API's, as the generator's is), with the generator's limits, and the conductor is
// told where it waits; the manifest says in which configurations and in what order;
// with --wrk=false no run has it and the manifest says what was not checked.
func TestEveryConfigRunsWrkAndTheFlagTurnsItOff(t *testing.T) {
	p := testParams(Configs...)
	p.Wrk, p.EngineCPU = true, true
	plan := NewPlan(p)
	imgs := map[string]string{"api-node": "api", "qpsload": "gen", "wrk": "wrk"}
	for i, config := range Configs {
		spec := plan.Pod(Cond{NodeAPI, config}, fmt.Sprintf("r%d", i), imgs)
		if loadArgs(t, spec.Containers[3].Cmd).WrkAfter {
			t.Errorf("%s's first pod: wrk after the kit's load", config)
		}
		var roles []string
		for _, c := range spec.Containers {
			roles = append(roles, c.Role)
		}
		w, gen := spec.Containers[2], spec.Containers[3]
		if strings.Join(roles, ",") != "api,enginecpu,wrk,loadgen" || w.Image != "wrk" || w.HostPIDs ||
			w.NanoCPUs != gen.NanoCPUs || w.MemoryBytes != gen.MemoryBytes ||
			loadArgs(t, gen.Cmd).WrkDir != contract.RunDir ||
			strings.Join(w.Cmd, " ") != "wrk -t1 -c 10 -d 3s --latency http://127.0.0.1:8080/" {
			t.Errorf("%s's pod: %+v", config, spec.Containers)
		}
	}
	if !strings.Contains(strings.Join(plan.Images(), ","), "wrk") {
		t.Errorf("images %v", plan.Images())
	}
	// A condition's second pod has wrk after the kit's load, its third before again.
	for i, want := range []bool{true, false} {
		spec := plan.Pod(Cond{NodeAPI, Console}, fmt.Sprintf("o%d", i), imgs)
		if after := loadArgs(t, spec.Containers[3].Cmd).WrkAfter; after != want {
			t.Errorf("console's pod %d: -wrk-after %v, want %v", i+2, after, want)
		}
	}
	if m := plan.QPS().M.Parameters; !slices.Equal(m.WrkConfigs, Configs) || m.WrkOrder != WrkAlternate {
		t.Errorf("manifest: wrk in %v, order %q", m.WrkConfigs, m.WrkOrder)
	}
	p.Wrk = false
	off := NewPlan(p)
	for _, config := range Configs {
		if spec := off.Pod(Cond{NodeAPI, config}, "r3", imgs); len(spec.Containers) != 3 ||
			loadArgs(t, spec.Containers[2].Cmd).WrkDir != "" || strings.Contains(strings.Join(off.Images(), ","), "wrk") {
			t.Errorf("--wrk=false: %+v %v", spec.Containers, off.Images())
		}
	}
	if m := off.QPS().M; m.Parameters.Wrk || m.Parameters.WrkConfigs != nil || !strings.Contains(strings.Join(m.Unmeasured, ";"), "not checked against wrk (--wrk=false)") {
		t.Errorf("manifest: %+v", m)
	}
}

// TestAnEarlierKitsBundleHadWrkInNoneOnly: a manifest without wrk_configs is of a kit
// whose wrk ran in none only; its console runs without a wrk phase are data.
func TestAnEarlierKitsBundleHadWrkInNoneOnly(t *testing.T) {
	p := testParams(NoLog, Console)
	p.Wrk = true
	if !wrkRuns(p, NoLog) || wrkRuns(p, Console) {
		t.Error("an earlier kit's bundle: wrk in none only")
	}
	p.WrkConfigs = []string{NoLog, Console}
	if !wrkRuns(p, Console) {
		t.Error("this kit's: wrk in every configuration")
	}
}

// TestTheAgreementOfAConditionHasAnIntervalThatVerifyRecomputes: a console condition's
// runs each carry wrk's rate; the condition has the agreement's mean, its 95%
// t-interval over the runs and how many agree within 5%; verify recomputes them and
// refuses an edited one.
func TestTheAgreementOfAConditionHasAnIntervalThatVerifyRecomputes(t *testing.T) {
	p := testParams(Console)
	p.Wrk = true
	p.WrkConfigs = []string{Console}
	kit := fakeRun{config: Console, lines: 3000, series: []int64{1000, 1000, 1000}}
	agreements := []float64{0.97, 1.01, 0.90}
	p.Rounds = len(agreements)
	var runs []experiment.Run
	for i, a := range agreements {
		runs = append(runs, withWrk(t, kit.run(fmt.Sprintf("c%d", i), i+1), &contract.WrkRun{Output: wrkOutput(1000/a, 3000)}))
	}
	var res contract.QPSResult
	if err := json.Unmarshal(runs[0].Pod.Result, &res); err != nil {
		t.Fatal(err)
	}
	res.WrkHost = &contract.HostSample{CPUBusyPct: 42}
	runs[0].Pod.Result, _ = json.Marshal(res)
	// A run without its wrk phase fails: every configuration is checked.
	r, _ := record(withWrk(t, kit.run("c9", 9), nil), p)
	if r.Verified || !strings.Contains(r.Failure, "no wrk phase") {
		t.Errorf("a console run without wrk: verified %v, %q", r.Verified, r.Failure)
	}
	b, files := fill(t, p, runs...)
	mustVerify(t, files)
	if r := b.Runs[0]; r.WrkHostBusyPct != 42 || b.Runs[1].WrkHostBusyPct.Present() {
		t.Errorf("the host over wrk's phase: %v, %v", r.WrkHostBusyPct, b.Runs[1].WrkHostBusyPct)
	}
	c := ConditionsOf(b)[0]
	var got []float64
	for _, r := range b.Runs {
		got = append(got, float64(r.WrkAgreement))
	}
	m, lo, hi := bundle.MeanCI(got)
	if c.RunsWrk != 3 || c.RunsWrkAgreeing != 2 || !near(float64(c.WrkAgreement), 0.96) ||
		c.WrkAgreement != m || c.WrkAgreementCILow != lo || c.WrkAgreementCIHigh != hi || !(lo < m && m < hi) {
		t.Errorf("condition: agreement %v [%v, %v], %v of %v runs agree", c.WrkAgreement, c.WrkAgreementCILow, c.WrkAgreementCIHigh, c.RunsWrkAgreeing, c.RunsWrk)
	}
	var summary strings.Builder
	if err := b.Summary(&summary); err != nil || !strings.Contains(summary.String(), "before the kit's load in odd runs, after it in even ones") || !strings.Contains(summary.String(), "2 of 3 runs within 5%") {
		t.Errorf("summary (%v):\n%s", err, summary.String())
	}
	edited := strings.Replace(string(files.Data[ConditionsFile]), fmt.Sprint(float64(c.WrkAgreementCILow))[:6], "0.5", 1)
	if edited == string(files.Data[ConditionsFile]) {
		t.Fatal("no interval to edit")
	}
	files.Data[ConditionsFile] = []byte(edited)
	delete(files.Data, SumsFile)
	if res := (Experiment).Verify(withSums(files.Data)); res.OK() || !strings.Contains(fmt.Sprint(res.Problems), "wrk_agreement_ci_low") {
		t.Errorf("an edited interval: %v", res.Problems)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-3 }

// TestWrkAfterTheKitsLoadIsInTheTotals: in a run where wrk loaded the API after the
// kit's load, the console and the file hold wrk's lines too; the API's report after wrk
// and the file read back after it are what they are checked against, so the run
// verifies; without them the extra lines would be a mismatch.
func TestWrkAfterTheKitsLoadIsInTheTotals(t *testing.T) {
	p := testParams(ConsoleFile)
	p.Wrk, p.WrkConfigs, p.WrkOrder = true, []string{ConsoleFile}, WrkAlternate
	kit := fakeRun{config: ConsoleFile, warm: 5, lines: 3000, series: []int64{1000, 1000, 1000}}
	run := withWrk(t, kit.run("a1", 2), &contract.WrkRun{Output: wrkOutput(1000, 3000)})
	var res contract.QPSResult
	if err := json.Unmarshal(run.Pod.Result, &res); err != nil {
		t.Fatal(err)
	}
	all := append(append(lines(5, 0), lines(3000, 5)...), lines(3000, 3005)...) // warm-up, kit, wrk
	total := contract.CountStream(all)
	res.WrkAfterKit = true
	run.Pod.Logs["api"] = all
	before := res
	after := *res.API
	after.Requests += 3000 // wrk's, as the API counts them
	after.Sinks = map[string]contract.AccessLogSink{}
	for k, s := range res.API.Sinks {
		s.Total = total
		after.Sinks[k] = s
	}
	res.APIAfterWrk = &after
	res.FileAfterWrk = &contract.FileReadback{Path: res.File.Path, Whole: total, FromOffset: contract.CountStream(all[len(lines(5, 0)):])}
	run.Pod.Result, _ = json.Marshal(res)
	r, _ := record(run, p)
	if !r.Verified || !r.WrkAfterKit || r.ConsoleReadLines != 6005 || r.FileReadLines != 6005 || r.LogLinesWritten != 2*6005 {
		t.Errorf("wrk after the kit: verified %v (%s), after %v, read %v console and %v file lines, %d written", r.Verified, r.Failure, r.WrkAfterKit, r.ConsoleReadLines, r.FileReadLines, r.LogLinesWritten)
	}
	_, files := fill(t, p, run)
	mustVerify(t, files)
	before.WrkAfterKit = true
	run.Pod.Result, _ = json.Marshal(before)
	if r, _ := record(run, p); r.Verified {
		t.Error("wrk's lines without the report after wrk: verified")
	}
}

// loadArgs reads a conductor's command line as the program does.
func loadArgs(t *testing.T, cmd []string) contract.QPSLoadArgs {
	t.Helper()
	fs := flag.NewFlagSet("qpsload", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	a := contract.DefaultQPSLoadArgs()
	a.Bind(fs)
	if err := fs.Parse(cmd); err != nil {
		t.Fatalf("%v: %v", cmd, err)
	}
	return a
}

// TestAResumedPlanRunsWrkInItsOrder: a bundle read back for --resume makes its pods
// with wrk in the order a fresh plan would (a resumed plan once had no count of its
// pods, and making the first one panicked).
func TestAResumedPlanRunsWrkInItsOrder(t *testing.T) {
	p := testParams(Console)
	p.Wrk = true
	kit := fakeRun{config: Console, lines: 3000, series: []int64{1000, 1000, 1000}}
	_, files := fill(t, p, withWrk(t, kit.run("c1", 1), &contract.WrkRun{Output: wrkOutput(1000, 3000)}))
	dir := filepath.Join(t.TempDir(), "bundle")
	delete(files.Data, SumsFile) // WriteFiles sums them
	if err := bundle.WriteFiles(dir, files.Data); err != nil {
		t.Fatal(err)
	}
	resumed, err := Experiment.Resume(dir)
	if err != nil {
		t.Fatal(err)
	}
	imgs := map[string]string{"api-node": "api", "qpsload": "gen", "wrk": "wrk"}
	for i, after := range []bool{false, true} {
		spec := resumed.Pod(Cond{NodeAPI, Console}, fmt.Sprintf("r%d", i), imgs)
		gen := loadArgs(t, spec.Containers[len(spec.Containers)-1].Cmd)
		if gen.WrkDir == "" || gen.WrkAfter != after {
			t.Errorf("resumed pod %d: wrk in %q, after the kit's load %v, want %v", i+1, gen.WrkDir, gen.WrkAfter, after)
		}
	}
}
