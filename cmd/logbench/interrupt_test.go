package main

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/logbench/logbench/internal/fifostalltest"

	"github.com/logbench/logbench/internal/enginetest"
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

func TestInterruptKeepsAValidPartialBundleAndResumeCompletesIt(t *testing.T) {
	eng := enginetest.Require(t)
	bin := buildKit(t)
	before, err := eng.FindOwn(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "bundle")
	cmd := exec.Command(bin, "reproduce", "--modes", "none,short1", "--readers", "fast", "--reps", "2", "--duration", "2s", "--api", "go", "--calibrate=false", "--retries", "0", "--out", dir)
	// The interrupt is driven by the progress stream, not by the clock: the first run's
	// line is printed once it is complete and saved, and the second run starts at once;
	// it lasts seconds (2 s of load), the signal takes a line's read. So Ctrl-C lands in
	// the second run however slow the host.
	out, drained := startUntil(t, cmd, func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "1/4 ") })
	// Ctrl-C, then Ctrl-C again: the kit still cleans up and exits.
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Process.Signal(syscall.SIGINT)
	stopped := time.Now()
	err = cmd.Wait()
	<-drained
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("exit %v, want status 130\n%s", err, out())
	}
	// The kit stops the conductor with a 2 s grace period, then removes the pod within
	// its 30 s cleanup bound (kit/host/engine's RunPod): a bound on the code's logic, not
	// on the host's speed.
	if took := time.Since(stopped); took > 45*time.Second {
		t.Errorf("stopping took %v", took)
	}
	if !strings.Contains(out(), "reproduce --resume "+dir) {
		t.Errorf("the message does not say how to resume:\n%s", out())
	}
	b, err := fifostalltest.Load(dir)
	if err != nil {
		t.Fatalf("the partial bundle is not intact: %v", err)
	}
	if b.Manifest.Complete || !b.Manifest.Interrupted || b.Manifest.RunsPlanned != 4 || len(b.Runs) == 0 || len(b.Runs) >= 4 {
		t.Fatalf("partial manifest %+v with %d runs", b.Manifest, len(b.Runs))
	}
	after, err := eng.FindOwn(context.Background(), "")
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
	keptIDs := map[string]bool{}
	for _, r := range b.Runs {
		keptIDs[r.Run.RunID] = true
	}
	res, err := exec.Command(bin, "reproduce", "--resume", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, res)
	}
	b, err = fifostalltest.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !b.Manifest.Complete || b.Manifest.Interrupted || len(b.Runs) != 4 || b.Manifest.RunsVerified != 4 {
		t.Fatalf("resumed manifest %+v with %d runs", b.Manifest, len(b.Runs))
	}
	// What resume ran is what the bundle gained: the runs it did not hold, each kept.
	ran := 0
	for _, r := range b.Runs {
		if !keptIDs[r.Run.RunID] {
			ran++
		}
	}
	if ran != 4-kept || len(keptIDs) != kept {
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

// startUntil starts cmd and returns once a line of its output says yes to first (the
// first run's line, printed once that run is saved); the test fails if the kit ends
// before it, or prints nothing of the kind within 5 minutes (a guard against a hung
// kit, not a bound on the host's speed).
func startUntil(t *testing.T, cmd *exec.Cmd, first func(line string) bool) (out func() string, drained <-chan struct{}) {
	t.Helper()
	out, seen, drained := watchProgress(t, cmd, func(lines []string) bool { return slices.ContainsFunc(lines, first) })
	select {
	case <-seen:
	case <-drained:
		cmd.Wait()
		t.Fatalf("the kit ended before its first run's line:\n%s", out())
	case <-time.After(5 * time.Minute):
		cmd.Process.Kill()
		t.Fatalf("no first run's line:\n%s", out())
	}
	return out, drained
}

// watchProgress starts cmd with its output (stdout and stderr) going through a pipe,
// line by line, and closes the returned channel the first time when says yes to the
// lines so far. out returns everything read so far; drained is closed once the
// output has ended (the command and its children have exited).
func watchProgress(t *testing.T, cmd *exec.Cmd, when func(lines []string) bool) (out func() string, happened, drained <-chan struct{}) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close() // the child holds its own copy
	var mu sync.Mutex
	var lines []string
	done := make(chan struct{})
	read := make(chan struct{})
	go func() {
		defer close(read)
		defer r.Close()
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		fired := false
		for sc.Scan() {
			mu.Lock()
			lines = append(lines, sc.Text())
			if !fired && when(lines) {
				fired = true
				close(done)
			}
			mu.Unlock()
		}
	}()
	t.Cleanup(func() { <-read })
	return func() string {
		mu.Lock()
		defer mu.Unlock()
		return strings.Join(lines, "\n")
	}, done, read
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
