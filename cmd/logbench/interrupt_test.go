package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/host/enginetest"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// buildKit compiles the logbench binary, for tests that signal it as a user would.
func buildKit(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "logbench")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func runsCompleted(dir string) int {
	body, err := os.ReadFile(filepath.Join(dir, bundle.ManifestFile))
	if err != nil {
		return 0
	}
	var m bundle.Manifest
	if json.Unmarshal(body, &m) != nil {
		return 0
	}
	return m.RunsCompleted
}

func TestInterruptKeepsAValidPartialBundleAndResumeCompletesIt(t *testing.T) {
	eng := enginetest.Require(t)
	bin := buildKit(t)
	before, err := eng.FindLabelled(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "bundle")
	cmd := exec.Command(bin, "reproduce", "--modes", "none,short1", "--readers", "fast", "--reps", "2", "--duration", "2s", "--api", "go", "--calibrate=false", "--retries", "0", "--out", dir)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for runsCompleted(dir) < 1 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(time.Second) // into the second run
	// Ctrl-C, then Ctrl-C again: the kit still cleans up and exits.
	cmd.Process.Signal(syscall.SIGINT)
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	stopped := time.Now()
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("exit %v, want status 130\n%s", err, out.String())
	}
	if took := time.Since(stopped); took > 10*time.Second {
		t.Errorf("stopping took %v", took)
	}
	if !strings.Contains(out.String(), "reproduce --resume "+dir) {
		t.Errorf("the message does not say how to resume:\n%s", out.String())
	}
	b, err := bundle.Load(dir)
	if err != nil {
		t.Fatalf("the partial bundle is not intact: %v", err)
	}
	if b.Manifest.Complete || !b.Manifest.Interrupted || b.Manifest.RunsPlanned != 4 || len(b.Runs) == 0 || len(b.Runs) >= 4 {
		t.Fatalf("partial manifest %+v with %d runs", b.Manifest, len(b.Runs))
	}
	after, err := eng.FindLabelled(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if added := newNames(before.Containers, after.Containers); len(added) > 0 {
		t.Fatalf("containers left on the engine after the interrupt: %v", added)
	}
	if added := newNames(before.Volumes, after.Volumes); len(added) > 0 {
		t.Fatalf("volumes left on the engine after the interrupt: %v", added)
	}

	// Resume runs only what is missing, with the bundle's parameters.
	kept := len(b.Runs)
	res, err := exec.Command(bin, "reproduce", "--resume", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, res)
	}
	b, err = bundle.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !b.Manifest.Complete || b.Manifest.Interrupted || len(b.Runs) != 4 || b.Manifest.RunsVerified != 4 {
		t.Fatalf("resumed manifest %+v with %d runs", b.Manifest, len(b.Runs))
	}
	if ran := strings.Count(string(res), " verified\n"); ran != 4-kept {
		t.Errorf("resume ran %d runs, want the %d missing ones:\n%s", ran, 4-kept, res)
	}
	seen := map[string]bool{}
	for _, r := range b.Runs {
		k := r.Run.Mode + "/" + r.Run.Reader + "/" + string(rune('0'+r.Run.Round))
		if seen[k] || r.Run.LoadDurationS != 2 {
			t.Fatalf("run %s twice or with other parameters", k)
		}
		seen[k] = true
	}

	// Resume refuses flags: the bundle's parameters rule.
	if out, err := exec.Command(bin, "reproduce", "--resume", dir, "--rate", "50").CombinedOutput(); err == nil || !strings.Contains(string(out), "--rate") {
		t.Fatalf("resume with --rate: %v\n%s", err, out)
	}
}

// newNames are the names in after that were not in before.
func newNames(before, after []string) []string {
	had := map[string]bool{}
	for _, n := range before {
		had[n] = true
	}
	var added []string
	for _, n := range after {
		if !had[n] {
			added = append(added, n)
		}
	}
	return added
}
