package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gocarina/gocsv"

	"github.com/logbench/logbench/internal/enginetest"
	"github.com/logbench/logbench/kit/experiments/logdriver"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// TestLogDriverStallsOrLosesOnTheEngine: the Go API's console through json-file and
// through syslog over TCP to rsyslog, whose output a reader takes at 8 KiB/s, blocking
// and non-blocking, at 200 requests a second (25.6 KB/s of lines). Every run verifies;
// json-file loses nothing; behind the slow consumer the blocking driver loses nothing
// and holds the requests (its p99 far above the non-blocking one's), the non-blocking
// driver loses lines, each range of them named. Figures are not held to the model: the
// machine is shared.
func TestLogDriverStallsOrLosesOnTheEngine(t *testing.T) {
	enginetest.Require(t)
	dir := filepath.Join(t.TempDir(), "log-driver")
	out, err := runApp(t, "reproduce", "log-driver", "--drivers", "json-file,syslog-tcp", "--driver-modes", "blocking,non-blocking",
		"--buffer-sizes", "64k", "--consumers", "slow", "--receivers", "rsyslog", "--rates", "200", "--consumer-rate", "8k",
		"--queue-messages", "100", "--duration", "6s", "--quiet", "2s", "--reps", "1", "--out", dir)
	t.Log(out)
	if err != nil {
		t.Fatalf("reproduce: %v", err)
	}
	files, err := bundle.ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	res := logdriver.Experiment.Verify(files)
	if !res.OK() || res.Counts.Runs != 4 || res.Counts.Verified != 4 {
		t.Fatalf("%d runs, %d verified, want 4 of 4: %v", res.Counts.Runs, res.Counts.Verified, res.Problems)
	}
	var runs []logdriver.Row
	if err := gocsv.UnmarshalBytes(files.Data["runs.csv"], &runs); err != nil {
		t.Fatal(err)
	}
	by := map[string]logdriver.Row{}
	for _, r := range runs {
		by[r.Driver+"/"+r.Mode] = r
		if r.LinesWritten < 1000 || r.LinesCorrupted != 0 {
			t.Errorf("%s/%s: %d lines written, %d corrupted", r.Driver, r.Mode, r.LinesWritten, r.LinesCorrupted)
		}
	}
	for _, k := range []string{"json-file/blocking", "json-file/non-blocking", "syslog-tcp/blocking"} {
		if r := by[k]; r.LinesLost != 0 {
			t.Errorf("%s lost %d lines (%s)", k, r.LinesLost, r.LostRanges)
		}
	}
	blocking, dropping := by["syslog-tcp/blocking"], by["syslog-tcp/non-blocking"]
	if dropping.LinesLost <= 0 || dropping.LostRanges == "" {
		t.Errorf("the non-blocking driver behind a slow consumer lost no line: %+v", dropping)
	}
	if !(blocking.LatencyP99Ms > 2*dropping.LatencyP99Ms) {
		t.Errorf("blocking p99 %.1f ms, non-blocking %.1f ms: the blocking driver held no request", blocking.LatencyP99Ms, dropping.LatencyP99Ms)
	}
	if v, err := runApp(t, "verify", dir); err != nil || !strings.Contains(v, "log-driver: 4 runs (4 verified") {
		t.Errorf("verify: %v\n%s", err, v)
	}
}
