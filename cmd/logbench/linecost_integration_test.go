package main

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gocarina/gocsv"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments/linecost"
	"github.com/logbench/logbench/kit/host/enginetest"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// TestReproduceLineCostOnTheEngine measures three ways in Go and Python (Node.js has
// its own test below), a few short
// trials each, inside the API images under the default limits: every run verifies
// (every written line counted and hashed against the kit's own), the log files were on
// the run's volume (not the image's overlay), the cgroup's counters were read, and the
// bundle verifies, compares and reports.
func TestReproduceLineCostOnTheEngine(t *testing.T) {
	enginetest.Require(t)
	dir := filepath.Join(t.TempDir(), "bundle")
	out, err := runApp(t, "reproduce", "--experiment", "line-cost", "--languages", "go,python", "--ways", "disabled-lazy,buffered,fsync",
		"--lines", "1000", "--trials", "2", "--warmup", "0", "--reps", "1", "--out", dir)
	if err != nil {
		t.Fatalf("reproduce failed: %v\n%s", err, out)
	}
	files, err := bundle.ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	res := linecost.Experiment{}.Verify(files)
	if !res.OK() || res.Counts.Runs != 6 || res.Counts.Verified != 6 {
		t.Fatalf("%d runs, %d verified: %v\n%s", res.Counts.Runs, res.Counts.Verified, res.Problems, out)
	}
	var runs []linecost.RunRow
	if err := gocsv.UnmarshalBytes(files.Data[linecost.RunsFile], &runs); err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if r.Way == "disabled-lazy" {
			continue // writes no file
		}
		if r.FSMountPoint != linecost.RunDir || r.FSType == "overlay" || !strings.HasPrefix(r.Volume, "logbench-") || r.MountOptions == "" {
			t.Errorf("%s/%s: the log files were on %s (%s, %s), volume %s, not the run's volume", r.Language, r.Way, r.FSMountPoint, r.FSType, r.MountOptions, r.Volume)
		}
	}
	if !strings.Contains(out, "fsync >> unbuffered") || !strings.Contains(out, "515.903 us") {
		t.Errorf("no table beside the published figures:\n%s", out)
	}
	// A volume the engine does not have is refused before anything starts.
	out, err = runApp(t, "reproduce", "--experiment", "line-cost", "--volume", "logbench-no-such-volume-3f9a", "--out", filepath.Join(t.TempDir(), "b"))
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
	enginetest.Require(t)
	dir := filepath.Join(t.TempDir(), "bundle")
	out, err := runApp(t, "reproduce", "--experiment", "line-cost", "--languages", "node", "--ways", "unbuffered,queue",
		"--lines", "1000", "--trials", "2", "--warmup", "0", "--reps", "1", "--out", dir)
	if err != nil {
		t.Fatalf("reproduce failed: %v\n%s", err, out)
	}
	files, err := bundle.ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	res := linecost.Experiment{}.Verify(files)
	if !res.OK() || res.Counts.Runs != 2 || res.Counts.Verified != 2 {
		t.Fatalf("%d runs, %d verified: %v\n%s", res.Counts.Runs, res.Counts.Verified, res.Problems, out)
	}
	var runs []linecost.RunRow
	if err := gocsv.UnmarshalBytes(files.Data[linecost.RunsFile], &runs); err != nil {
		t.Fatal(err)
	}
	var trials []linecost.TrialRow
	if err := gocsv.UnmarshalBytes(files.Data[linecost.TrialsFile], &trials); err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if r.Language != linecost.Node || !strings.HasPrefix(r.Runtime, "Node.js v") || !strings.Contains(r.Library, "process.cpuUsage") ||
			r.FSMountPoint != linecost.RunDir || r.FSType == "overlay" {
			t.Errorf("%s/%s: runtime %q, library %q, files on %s (%s)", r.Language, r.Way, r.Runtime, r.Library, r.FSMountPoint, r.FSType)
		}
	}
	for _, tr := range trials {
		if tr.WriteCalls != tr.Lines || tr.Way == "queue" && tr.ThreadWriteSysc != 0 || tr.Way == "unbuffered" && tr.ThreadWriteSysc != tr.Lines {
			t.Errorf("%s trial %d: %d write calls, %d on the calling thread, for %d lines", tr.Way, tr.Trial, tr.WriteCalls, tr.ThreadWriteSysc, tr.Lines)
		}
	}
	if !strings.Contains(out, "node") {
		t.Errorf("no Node.js rows in the table:\n%s", out)
	}
}
