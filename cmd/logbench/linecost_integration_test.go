package main

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gocarina/gocsv"

	"github.com/logbench/logbench/internal/enginetest"
	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments/linecost"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// TestReproduceLineCostOnTheEngine measures three ways in Go and Python (Node.js has
// its own test below), a few short
// trials each, inside the API images under the default limits: every run verifies
// (every written line counted and hashed against the kit's own), the log files were on
// the run's volume (not the image's overlay), the cgroup's counters were read, and the
// bundle verifies, compares and reports.
func TestReproduceLineCostOnTheEngine(t *testing.T) {
	dir, out, _, runs := reproduceLineCost(t, 6, "--languages", "go,python", "--ways", "disabled-lazy,buffered,fsync")
	for _, r := range runs {
		if r.Way == "disabled-lazy" {
			continue // writes no file
		}
		if r.FSMountPoint != contract.RunDir || r.FSType == "overlay" || !strings.HasPrefix(r.Volume, "logbench-") || r.MountOptions == "" {
			t.Errorf("%s/%s: the log files were on %s (%s, %s), volume %s, not the run's volume", r.Language, r.Way, r.FSMountPoint, r.FSType, r.MountOptions, r.Volume)
		}
	}
	if !strings.Contains(out, "fsync >> unbuffered") || !strings.Contains(out, "515.903 us") {
		t.Errorf("no table beside the published figures:\n%s", out)
	}
	// A volume the engine does not have is refused before anything starts.
	out, err := runApp(t, "reproduce", "--experiment", "line-cost", "--volume", "logbench-no-such-volume-3f9a", "--out", filepath.Join(t.TempDir(), "b"))
	var usage experiment.UsageError
	if !errors.As(err, &usage) || !strings.Contains(usage.Msg, "no such volume") || strings.Contains(out, "reproducing") {
		t.Errorf("a missing volume: %v\n%s", err, out)
	}
	for _, args := range [][]string{{"verify", dir}, {"compare", dir, "--published"}, {"report", dir}} {
		if out, err := runApp(t, args...); err != nil {
			t.Errorf("%s: %v\n%s", args[0], err, out)
		}
	}
}

// TestReproduceLineCostNodeOnTheEngine measures two ways of the Node.js program in the
// api-node image (its entrypoint replaced by node /app/logbench_linecost.js), a few
// short trials: both runs verify, the queue's lines were written by its worker thread
// (not the calling one), and the bundle verifies.
func TestReproduceLineCostNodeOnTheEngine(t *testing.T) {
	_, out, files, runs := reproduceLineCost(t, 2, "--languages", "node", "--ways", "unbuffered,queue")
	var trials []linecost.TrialRow
	if err := gocsv.UnmarshalBytes(files.Data[linecost.TrialsFile], &trials); err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if r.Language != linecost.Node || !strings.HasPrefix(r.Runtime, "Node.js v") || !strings.Contains(r.Library, "process.cpuUsage") ||
			r.FSMountPoint != contract.RunDir || r.FSType == "overlay" {
			t.Errorf("%s/%s: runtime %q, library %q, files on %s (%s)", r.Language, r.Way, r.Runtime, r.Library, r.FSMountPoint, r.FSType)
		}
	}
	for _, tr := range trials {
		if tr.WriteCalls != tr.Lines || tr.Way == "queue" && tr.ThreadWriteSysc != 0 || tr.Way == "unbuffered" && tr.ThreadWriteSysc != bundle.Opt(tr.Lines) {
			t.Errorf("%s trial %d: %d write calls, %v on the calling thread, for %d lines", tr.Way, tr.Trial, tr.WriteCalls, tr.ThreadWriteSysc, tr.Lines)
		}
	}
	if !strings.Contains(out, "node") {
		t.Errorf("no Node.js rows in the table:\n%s", out)
	}
}

// TestReproduceLineCostLibrariesOnTheEngine measures three ways of every library of
// every language (Go: slog, zap, zerolog, logrus; Python: logging, structlog, loguru from the
// Python base's Debian packages; Node.js: util.format, winston from the Node base's),
// each writing its own default line, time stamp included: every run verifies (every
// written line regenerated from the kit's template, time stamps masked), the plan says
// which ways are not offered (structlog's and loguru's queues), and the table has a row
// for each library.
func TestReproduceLineCostLibrariesOnTheEngine(t *testing.T) {
	libs := "slog,zap,zerolog,logrus,logging,structlog,loguru,util,winston"
	dir, out, _, runs := reproduceLineCost(t, 25, "--libraries", libs, "--ways", "disabled-lazy,unbuffered,queue") // 9 x 3, less structlog's and loguru's queues
	seen := map[string]bool{}
	for _, r := range runs {
		seen[r.LibraryID] = true
		if !strings.Contains(r.LineFormat, "{time}") || r.Line == "" {
			t.Errorf("%s/%s/%s: line %s %q has no time stamp", r.Language, r.LibraryID, r.Way, r.Line, r.LineFormat)
		}
	}
	if !strings.Contains(out, "python/structlog/queue: not offered") || !strings.Contains(out, "python/loguru/queue: not offered") {
		t.Errorf("the plan does not say which ways are not offered:\n%s", out)
	}
	for _, id := range strings.Split(libs, ",") {
		if !seen[id] || !strings.Contains(out, id+" ") {
			t.Errorf("no run or row of %s:\n%s", id, out)
		}
	}
	if out, err := runApp(t, "verify", dir); err != nil {
		t.Errorf("verify: %v\n%s", err, out)
	}
}

// reproduceLineCost runs a short line-cost reproduction (1,000 lines, 2 trials, no
// warm-up, 1 round) with args into a folder of the test's, and returns the folder,
// the output, the bundle's files and its runs, all want of them verified.
func reproduceLineCost(t *testing.T, want int, args ...string) (string, string, *bundle.Files, []linecost.RunRow) {
	t.Helper()
	enginetest.Require(t)
	dir := filepath.Join(t.TempDir(), "bundle")
	out, err := runApp(t, append(append([]string{"reproduce", "--experiment", "line-cost"}, args...),
		"--lines", "1000", "--trials", "2", "--warmup-trials", "0", "--reps", "1", "--out", dir)...)
	if err != nil {
		t.Fatalf("reproduce failed: %v\n%s", err, out)
	}
	files, err := bundle.ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	res := linecost.Experiment.Verify(files)
	if !res.OK() || res.Counts.Runs != want || res.Counts.Verified != want {
		t.Fatalf("%d runs, %d verified, want %d: %v\n%s", res.Counts.Runs, res.Counts.Verified, want, res.Problems, out)
	}
	var runs []linecost.RunRow
	if err := gocsv.UnmarshalBytes(files.Data[linecost.RunsFile], &runs); err != nil {
		t.Fatal(err)
	}
	return dir, out, files, runs
}
