package main

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/fifostalltest"

	"github.com/logbench/logbench/internal/enginetest"
)

// runApp runs the CLI in-process and returns its output and error.
//
// A run or reproduction goes without the speed probe unless the test names
// --speed-probe: the probe's two pods around every run doubled the engine tests' time,
// and TestReproduceQPSOnTheEngine, which asks for it, is the probe's test on the engine.
func runApp(t *testing.T, args ...string) (string, error) {
	t.Helper()
	args = withoutProbeUnlessAsked(args)
	var out bytes.Buffer
	app := newApp()
	app.Writer, app.ErrWriter = &out, &out
	err := app.RunContext(context.Background(), experimentAsFirstArgument(append([]string{"logbench"}, args...)))
	return out.String(), err
}

func withoutProbeUnlessAsked(args []string) []string {
	if len(args) == 0 || (args[0] != "reproduce" && args[0] != "run") || slices.Contains(args, "--") {
		return args
	}
	for _, a := range args {
		if strings.HasPrefix(a, "--speed-probe") || a == "--resume" || strings.HasPrefix(a, "--resume=") {
			return args
		}
	}
	return append(slices.Clone(args), "--speed-probe=false")
}

func TestRunRejectsBadInputBeforeStartingAnything(t *testing.T) {
	existing := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--mode", "json-async"}, "--mode"},
		{[]string{"run", "--reader", "medium"}, "--reader"},
		{[]string{"run", "--rate", "0"}, "--rate"},
		{[]string{"run", "--rate", "-3"}, "--rate"},
		{[]string{"run", "--duration", "0s"}, "--duration"},
		{[]string{"run", "--api-memory", "lots"}, "--api-memory"},
		{[]string{"run", "--api-memory", "1KiB"}, "--api-memory"},
		{[]string{"run", "--api-cpus", "0"}, "--api-cpus"},
		{[]string{"run", "--max-run-time", "1s"}, "--max-run-time"},
		{[]string{"run", "--api", "rust"}, "--api"},
		{[]string{"run", "--out", existing}, "--out"},
		{[]string{"run", "--no-such-flag"}, "no-such-flag"},
		{[]string{"run", "extra"}, "no arguments"},
		{[]string{"bogus"}, "unknown command"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, err := runApp(t, tc.args...)
			var usage usageError
			if !errors.As(err, &usage) {
				t.Fatalf("err = %v (%T), want a usage error", err, err)
			}
			if !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %q, want one line naming %s", err, tc.want)
			}
		})
	}
}

func TestRunEndToEndOnTheEngine(t *testing.T) {
	eng := enginetest.Require(t)
	dir := filepath.Join(t.TempDir(), "bundle")
	out, err := runApp(t, "run", "--mode", "json-queue", "--reader", "slow", "--duration", "2s", "--out", dir)
	if err != nil {
		t.Fatalf("run failed: %v\n%s", err, out)
	}
	for _, want := range []string{"requests      40 (0 errors)", "sha-256       match", "verified      yes", "bundle: " + dir} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	b, err := fifostalltest.Load(dir) // checks SHA256SUMS too
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Runs) != 1 || !b.Manifest.Complete || b.Manifest.RunsVerified != 1 {
		t.Fatalf("manifest = %+v", b.Manifest)
	}
	run := b.Runs[0].Run
	if run.Requests != 40 || len(b.Runs[0].Requests) != 40 || run.BytesWritten != 40*16384 || run.BytesRead != run.BytesWritten ||
		run.LinesRead != 40 || run.SHA256Reader != run.SHA256Writer {
		t.Fatalf("run = %+v", run)
	}
	// 640 KiB at 256 KiB/s takes 2.5 s to read from the first send: about 0.5 s after
	// the last response at 2 s. The window is wide: it checks physics, not speed.
	if run.DrainS < 0.3 || run.DrainS > 1.0 {
		t.Errorf("drain %.3f s, the model predicts about 0.5 s", run.DrainS)
	}
	if run.PipeCapacityBytes < 4096 {
		t.Errorf("pipe capacity %d", run.PipeCapacityBytes)
	}
	limits := map[string]struct {
		cpu float64
		mem int64
	}{"api": {0.25, 128 << 20}, "reader": {0.25, 256 << 20}, "loadgen": {0.25, 256 << 20}}
	if len(b.Runs[0].Containers) != 3 {
		t.Fatalf("containers = %+v", b.Runs[0].Containers)
	}
	for _, c := range b.Runs[0].Containers {
		want := limits[c.Role]
		if c.CPULimitCores != want.cpu || c.MemoryLimitBytes != want.mem || c.SwapLimitBytes > 0 || c.CgroupVersion == 0 {
			t.Errorf("%s limits as read back: %+v, want %v CPU, %d bytes, no swap", c.Role, c, want.cpu, want.mem)
		}
	}
	assertHardened(t, b)
	for _, img := range b.Manifest.Images {
		if img.ID == "" || img.Architecture == "" || len(img.BinarySHA256) != 64 {
			t.Errorf("image record %+v", img)
		}
	}
	left, err := eng.FindOwn(context.Background(), "")
	if err != nil || !left.Empty() {
		t.Fatalf("left on the engine: %+v, %v", left, err)
	}

	// The same images serve a second run unchanged.
	out, err = runApp(t, "run", "--mode", "none", "--reader", "fast", "--duration", "1s", "--out", dir+"-2")
	if err != nil {
		t.Fatalf("second run: %v\n%s", err, out)
	}
	if images := strings.Count(out, "\nimage "); images < 3 || strings.Count(out, " unchanged (") != images {
		t.Errorf("images were rebuilt:\n%s", out)
	}
}

// assertHardened checks what each container read of itself: an unprivileged user, no
// capability, no_new_privs, and a read-only root file system.
func assertHardened(t *testing.T, b *fifostalltest.Bundle) {
	t.Helper()
	for _, r := range b.Runs {
		for _, c := range r.Containers {
			if c.UID != "65532" || c.CapEffective != "0" || c.NoNewPrivs != "true" || c.RootReadOnly != "true" {
				t.Errorf("%s container of %s is not hardened: uid %q, capabilities %q, no_new_privs %q, read-only root %q",
					c.Role, r.Run.RunID, c.UID, c.CapEffective, c.NoNewPrivs, c.RootReadOnly)
			}
		}
	}
}

func TestRunThePythonAPIOnTheEngine(t *testing.T) {
	enginetest.Require(t)
	dir := filepath.Join(t.TempDir(), "bundle")
	out, err := runApp(t, "run", "--api", "python", "--mode", "json-queue", "--reader", "slow", "--duration", "2s", "--out", dir)
	if err != nil {
		t.Fatalf("run failed: %v\n%s", err, out)
	}
	b, err := fifostalltest.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	run := b.Runs[0].Run
	if run.API != "python" || !run.Verified || run.BytesRead != 40*16384 || run.SHA256Reader != run.SHA256Writer {
		t.Fatalf("run %+v", run)
	}
	var runtime string
	for _, img := range b.Manifest.Images {
		if img.Role == "api-python" {
			runtime = img.Runtime
		}
	}
	if !strings.HasPrefix(runtime, "Python 3.11") {
		t.Fatalf("manifest records the Python API's runtime as %q", runtime)
	}
	assertHardened(t, b)
}
