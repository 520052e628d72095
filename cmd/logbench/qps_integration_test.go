package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/enginetest"
	"github.com/logbench/logbench/kit/experiments/qps"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// TestReproduceQPSOnTheEngine runs a short qps matrix of every API (Node.js, Go, Python),
// none and console+file, on the real engine: the console lines come back through the
// json-file driver and the file lines from the volume, each equal to what the API
// wrote; the engine's own CPU is measured; the bundle verifies, compares and reports.
func TestReproduceQPSOnTheEngine(t *testing.T) {
	dir, out, files, res := reproduceQPS(t, "--api", "all", "--configs", "none,console+file", "--reps", "1", "--duration", "1s", "--warmup-time", "500ms", "--wrk=false", "--speed-probe")
	body := string(files.Data[qps.RunsFile])
	equal, none := 0, 0
	for _, r := range res.Own.(*qps.Bundle).Runs {
		switch {
		case !r.Verified:
		case r.Config == qps.ConsoleFile && r.ConsoleVerified == "equal" && r.FileVerified == "equal":
			equal++
		case r.Config == qps.NoLog && r.ConsoleVerified == "" && r.FileVerified == "": // no log, no check
			none++
		}
	}
	if equal != 3 || none != 3 {
		t.Errorf("want a console+file run with both sinks equal and a none run per API, verified:\n%s", body)
	}
	if !strings.Contains(string(files.Data[qps.ConditionsFile]), "go,console+file,1,1,") || !strings.Contains(string(files.Data[qps.ConditionsFile]), "python,console+file,1,1,") {
		t.Errorf("no Go or Python API condition:\n%s", files.Data[qps.ConditionsFile])
	}
	// The speed probe ran around every run, the request path's loops with it: inside
	// the probe's container, loopback and /dev/null answered.
	probes := bundle.DecodeCSV[bundle.ProbeRow](bundle.ProbeFile, files.Data[bundle.ProbeFile], 1)
	if len(probes.Errs) > 0 || len(probes.Missing) > 0 || len(probes.Rows) != 6 {
		t.Errorf("probes.csv: %v, missing %v, %d rows, want 6:\n%s", probes.Errs, probes.Missing, len(probes.Rows), files.Data[bundle.ProbeFile])
	}
	for _, r := range probes.Rows {
		// NaN (absent) fails every comparison: !(x > 0) catches it.
		if !(r.BeforeMBPerS > 0) || !(r.AfterMBPerS > 0) || !(r.BeforeReqPerS > 0) || !(r.AfterReqPerS > 0) || !(r.BeforeRequestCPUUs > 0) ||
			!(r.AfterRequestCPUUs > 0) || !(r.RelativeRequestPath > 0) || !(r.BeforeSyscallNs > 0) || !(r.AfterSyscallNs > 0) {
			t.Errorf("%s: a probe figure absent: %+v", r.Condition, r)
		}
		t.Logf("%s: %.0f MB/s, %.0f req/s, %.1f µs a request, %.0f ns a write (before); %.0f, %.0f, %.1f, %.0f (after)", r.Condition,
			r.BeforeMBPerS, r.BeforeReqPerS, r.BeforeRequestCPUUs, r.BeforeSyscallNs, r.AfterMBPerS, r.AfterReqPerS, r.AfterRequestCPUUs, r.AfterSyscallNs)
	}
	if sp := res.Common.SpeedProbe; sp == nil || sp.RequestPath == nil || sp.RequestPath.Runs != 6 {
		t.Errorf("the manifest's speed_probe sums up no request path of 6 runs: %+v", sp)
	}
	if !strings.Contains(out, "console+file") || !strings.Contains(out, "published req/s") {
		t.Errorf("no table beside the published figures:\n%s", out)
	}
	for _, args := range [][]string{{"verify", dir}, {"compare", dir, "--published"}, {"report", dir}} {
		if out, err := runApp(t, args...); err != nil {
			t.Errorf("%s: %v\n%s", args[0], err, out)
		}
	}
}

// TestQPSWrkCrossCheckOnTheEngine runs console+file and none twice with Debian's wrk in
// the pod, before the kit's load in the first round and after it in the second, for 1 s
// each: every run has both rates, the
// agreement is theirs, the console's and the file's lines (wrk's among them) are all
// read back, the verdict follows the 5% rule, and the bundle verifies whichever way it
// went. It does not require agreement: a shared host decides that, not the kit.
func TestQPSWrkCrossCheckOnTheEngine(t *testing.T) {
	enginetest.Require(t)
	dir := filepath.Join(t.TempDir(), "bundle")
	out, _ := runApp(t, "reproduce", "--experiment", "qps", "--configs", "console+file,none", "--reps", "2", "--duration", "1s", "--warmup-time", "500ms", "--engine-cpu=false", "--out", dir)
	files, err := bundle.ReadFolder(dir)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	res := qps.Experiment.Verify(files)
	if !res.OK() {
		t.Fatalf("the bundle does not verify: %v", res.Problems)
	}
	b := res.Own.(*qps.Bundle)
	if !b.Params().Wrk || len(b.Runs) != 4 || b.Params().WrkOrder != qps.WrkAlternate {
		t.Fatalf("wrk %v in %v (%q), %d runs", b.Params().Wrk, b.Params().WrkConfigs, b.Params().WrkOrder, len(b.Runs))
	}
	for _, r := range b.Runs {
		wrk, agree, kit := float64(r.WrkRequestsPerS), float64(r.WrkAgreement), float64(r.RequestsPerSOver)
		// NaN (absent) fails every comparison: !(x > 0) catches it.
		if r.WrkFailure != "" || !(wrk > 0) || !(kit > 0) || !(r.WrkRequests > 0) || math.Abs(agree-kit/wrk) > 1e-9 {
			t.Fatalf("%s: wrk %q, %v req/s, kit %v req/s, agreement %v\n%s", r.Config, r.WrkFailure, wrk, kit, agree, out)
		}
		// Agreeing or not, the run is data (its log lines were read back); a
		// disagreement is said in the summary, never hidden.
		if !r.Verified {
			t.Errorf("%s: run not verified: %s", r.Config, r.Failure)
		}
		if r.Config == qps.ConsoleFile && (!(int64(r.ConsoleReadLines) > r.ConsoleLines) || !(int64(r.FileReadLines) > r.FileLines) || !r.ConsoleReadLines.Present() || !r.FileReadLines.Present()) {
			t.Errorf("console+file: read back %v console and %v file lines, %d and %d since the reset: wrk's lines are not in them",
				r.ConsoleReadLines, r.FileReadLines, r.ConsoleLines, r.FileLines)
		}
		if r.WrkAfterKit != (r.Round == 2) {
			t.Errorf("%s round %d: wrk after the kit's load %v", r.Config, r.Round, r.WrkAfterKit)
		}
		t.Logf("%s round %d (wrk after the kit: %v): kit %.0f req/s, wrk %.0f req/s, kit/wrk %.3f", r.Config, r.Round, r.WrkAfterKit, kit, wrk, agree)
	}
	for _, c := range qps.ConditionsOf(b) {
		if notConfirmed := strings.Contains(out, "NOT CONFIRMED: "+c.API+"'s"); !notConfirmed && !qps.WrkAgrees(float64(c.WrkAgreement)) {
			t.Errorf("%s: agreement %.3f, and the summary does not say NOT CONFIRMED\n%s", c.Config, float64(c.WrkAgreement), out)
		}
	}
}

// TestReproduceQPSUntilPreciseOnTheEngine adds rounds of a short qps matrix until the
// Go API's requests/s is known to ±50%, at most 4 rounds: the bundle records why it
// stopped, consistently with its rows, and verifies. Whether a busy host reaches the
// target in 3 rounds or runs out at 4 is the host's to decide, not the test's.
func TestReproduceQPSUntilPreciseOnTheEngine(t *testing.T) {
	dir, out, _, res := reproduceQPS(t, "--api", "go", "--configs", "none", "--duration", "2s", "--precision", "50%", "--max-reps", "4")
	rec, b := res.Common.Precision, res.Own.(*qps.Bundle)
	if rec == nil || rec.Target != 0.5 || rec.MinRounds != 3 || rec.MaxRounds != 4 {
		t.Fatalf("record %+v", rec)
	}
	switch {
	case rec.Stopped == bundle.Reached && (rec.Rounds == 3 || rec.Rounds == 4) && rec.Widest != nil && rec.Widest.Relative != nil && *rec.Widest.Relative <= 0.5:
	case rec.Stopped == bundle.MaxRounds && rec.Rounds == 4:
	default:
		t.Fatalf("stopped %q after %d rounds, widest %+v", rec.Stopped, rec.Rounds, rec.Widest)
	}
	if len(b.Runs) != rec.Rounds || b.Params().Rounds != rec.Rounds {
		t.Errorf("%d runs and %d rounds planned for %d rounds judged", len(b.Runs), b.Params().Rounds, rec.Rounds)
	}
	if w := rec.Widest; w == nil || w.Metric != "requests_per_s" || w.Condition != "api=go config=none" {
		t.Errorf("widest %+v, want the Go API's requests_per_s", w)
	}
	for r := 3; r <= rec.Rounds; r++ {
		if !strings.Contains(out, fmt.Sprintf("round %d/4: widest interval requests_per_s (api=go config=none)", r)) {
			t.Errorf("no line after round %d:\n%s", r, out)
		}
	}
	if out, err := runApp(t, "verify", dir); err != nil || !strings.Contains(out, "rounds until ±50%") {
		t.Errorf("verify: %v\n%s", err, out)
	}
}

// reproduceQPS runs a qps reproduction with args into a folder of the test's, and
// returns the folder, the output, the bundle's files and its verification, which must
// hold.
func reproduceQPS(t *testing.T, args ...string) (string, string, *bundle.Files, *verify.Result) {
	t.Helper()
	enginetest.Require(t)
	dir := filepath.Join(t.TempDir(), "bundle")
	out, err := runApp(t, append(append([]string{"reproduce", "qps"}, args...), "--out", dir)...)
	if err != nil {
		t.Fatalf("reproduce failed: %v\n%s", err, out)
	}
	files, err := bundle.ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	res := qps.Experiment.Verify(files)
	if !res.OK() {
		t.Fatalf("the bundle does not verify: %v\n%s", res.Problems, out)
	}
	return dir, out, files, res
}
