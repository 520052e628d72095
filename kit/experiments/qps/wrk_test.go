package qps

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/incontainer/closedloop"
)

// TestParseWrkReadsItsRealOutput reads wrk 4.1.0's output as Debian's package printed
// it (testdata/wrk-python-http-server.txt: wrk -t1 -c 10 -d 2s --latency against
// python3 -m http.server on loopback).
func TestParseWrkReadsItsRealOutput(t *testing.T) {
	body, err := os.ReadFile("testdata/wrk-python-http-server.txt")
	if err != nil {
		t.Fatal(err)
	}
	f, err := ParseWrk(string(body))
	if err != nil {
		t.Fatal(err)
	}
	if f.Requests != 518 || f.DurationS != 2.01 || f.RequestsPerS != 258.09 || f.Errors != 0 ||
		float64(f.LatencyP50Ms) != 18.81 || float64(f.LatencyP99Ms) != 60.38 {
		t.Errorf("parsed %+v", f)
	}
	// Errors and other units, as wrk prints them when it sees any.
	more := strings.Replace(string(body), "Requests/sec:", "  Socket errors: connect 1, read 2, write 0, timeout 3\n  Non-2xx or 3xx responses: 4\nRequests/sec:", 1)
	more = strings.Replace(more, "518 requests in 2.01s", "518 requests in 1.00m", 1)
	if f, err := ParseWrk(more); err != nil || f.Errors != 10 || f.DurationS != 60 {
		t.Errorf("with errors: %+v, %v", f, err)
	}
	for _, bad := range []string{"", strings.Replace(string(body), "Requests/sec:", "Req:", 1), strings.Replace(string(body), "requests in 2.01s", "requests in 2.01", 1)} {
		if _, err := ParseWrk(bad); err == nil {
			t.Errorf("no error for %q", bad)
		}
	}
}

// withWrk is run with the conductor's result carrying a wrk phase that printed out.
func withWrk(t *testing.T, run experiment.Run, w *closedloop.WrkRun) experiment.Run {
	t.Helper()
	var res closedloop.RunResult
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
		wrk    *closedloop.WrkRun
		ok     bool
		reason string
	}{
		{&closedloop.WrkRun{Output: wrkOutput(1000/1.04, 2885)}, true, ""},
		{&closedloop.WrkRun{Output: wrkOutput(1000/0.96, 3125)}, true, ""},
		{&closedloop.WrkRun{Output: wrkOutput(1000/1.06, 2830)}, true, ""}, // verified, not confirmed
		{&closedloop.WrkRun{Output: wrkOutput(2000, 6000)}, true, ""},
		{&closedloop.WrkRun{Failure: "wrk exited with status 1", ExitCode: 1}, false, "wrk: wrk exited with status 1"},
		{&closedloop.WrkRun{Output: "unable to connect to 127.0.0.1:8080 Connection refused\n"}, false, "no Requests/sec line"},
		{nil, false, "no wrk phase in the conductor's result"},
	}
	var runs []experiment.Run
	for i, c := range cases {
		run := withWrk(t, kit.run(fmt.Sprintf("n%d", i), i+1), c.wrk)
		runs = append(runs, run)
		r, _ := Record(run, p)
		if r.Verified != c.ok || !strings.Contains(r.Failure, c.reason) {
			t.Errorf("case %d: verified %v, failure %q; want %v, %q", i, r.Verified, r.Failure, c.ok, c.reason)
		}
		if agrees := i < 2; c.ok && (!present(r.WrkAgreement) || WrkAgrees(float64(r.WrkAgreement)) != agrees) {
			t.Errorf("case %d: agreement %v, want agreeing %v", i, r.WrkAgreement, agrees)
		}
	}
	b, files := fill(t, p, runs...)
	mustVerify(t, files)
	// Four runs are data (two confirmed, two not); the condition's agreement is their mean.
	if c := b.Conditions[0]; c.RunsVerified != 4 || !present(c.WrkRequestsPerS) || !present(c.WrkAgreement) || math.Abs(float64(c.WrkAgreement)-0.89) > 1e-3 {
		t.Errorf("condition %+v", c)
	}
	var summary strings.Builder
	if err := b.Summary(&summary); err != nil || !strings.Contains(summary.String(), "NOT CONFIRMED: node's rates") {
		t.Errorf("the summary does not say the rate is not confirmed (%v):\n%s", err, summary.String())
	}
	if !b.M.Parameters.Wrk || !strings.Contains(b.M.Parameters.WrkCommand, "wrk -t1 -c 10 -d 3s --latency http://127.0.0.1:8080/") {
		t.Errorf("manifest: wrk %v, %q", b.M.Parameters.Wrk, b.M.Parameters.WrkCommand)
	}
	// An edited wrk figure no longer gives the agreement written beside it.
	edited := strings.Replace(string(files.Data[RunsFile]), "961.54", "900", 1)
	if edited == string(files.Data[RunsFile]) {
		t.Fatal("no wrk figure to edit")
	}
	files.Data[RunsFile] = []byte(edited)
	delete(files.Data, SumsFile)
	res := Experiment{}.Verify(withSums(files.Data))
	if res.OK() || !strings.Contains(fmt.Sprint(res.Problems), "wrk_agreement") {
		t.Errorf("an edited wrk figure: %v", res.Problems)
	}
}

// TestOnlyNoneRunsWrkAndTheFlagTurnsItOff: the pod of none has the wrk container
// between the API and the conductor, which is told where it waits; console has none;
// with --wrk=false no run has it and the manifest says what was not checked.
func TestOnlyNoneRunsWrkAndTheFlagTurnsItOff(t *testing.T) {
	p := testParams(NoLog, Console)
	p.Wrk = true
	plan := NewPlan(p)
	imgs := map[string]string{"api-node": "api", "qpsload": "gen", "wrk": "wrk"}
	spec := plan.Pod(experiment.Condition{NodeAPI, NoLog}, "r1", imgs)
	var roles []string
	for _, c := range spec.Containers {
		roles = append(roles, c.Role)
	}
	if strings.Join(roles, ",") != "api,wrk,loadgen" || spec.Containers[1].Image != "wrk" ||
		!strings.Contains(strings.Join(spec.Containers[2].Cmd, " "), "-wrk-dir "+RunDir) ||
		strings.Join(spec.Containers[1].Cmd, " ") != "wrk -t1 -c 10 -d 3s --latency http://127.0.0.1:8080/" {
		t.Errorf("none's pod: %+v", spec.Containers)
	}
	if !strings.Contains(strings.Join(plan.Images(), ","), "wrk") {
		t.Errorf("images %v", plan.Images())
	}
	if spec := plan.Pod(experiment.Condition{NodeAPI, Console}, "r2", imgs); len(spec.Containers) != 2 {
		t.Errorf("console's pod has %d containers", len(spec.Containers))
	}
	p.Wrk = false
	off := NewPlan(p)
	if spec := off.Pod(experiment.Condition{NodeAPI, NoLog}, "r3", imgs); len(spec.Containers) != 2 ||
		strings.Contains(strings.Join(spec.Containers[1].Cmd, " "), "wrk") || strings.Contains(strings.Join(off.Images(), ","), "wrk") {
		t.Errorf("--wrk=false: %+v %v", spec.Containers, off.Images())
	}
	if m := off.QPS().M; m.Parameters.Wrk || !strings.Contains(strings.Join(m.Unmeasured, ";"), "not checked against wrk (--wrk=false)") {
		t.Errorf("manifest: %+v", m)
	}
}
