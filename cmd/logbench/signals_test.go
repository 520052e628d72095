//go:build linux

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/logbench/logbench/internal/fifostalltest"
)

// cpuTicks is the CPU time a process has used so far, in clock ticks (/proc's
// utime + stime), or ok false once it has ended.
func cpuTicks(pid int) (ticks int64, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// The command's name, in parentheses, may hold spaces: the fields follow the last ')'.
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 13 || fields[0] == "Z" {
		return 0, false
	}
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return utime + stime, true
}

// TestOfflineCommandsEndOnASignalAtOnce: SIGINT or SIGTERM ends verify, compare, report
// and archive within 2 s, with the kit's status for an interrupt (130), one line saying
// so, and no file written or left half-written. Each is given an input that takes it
// many seconds (sixty bundles; a bundle near its size caps), and is signalled once it
// has used 0.2 s of CPU: well past the runtime's start (signals are handled from main's
// first line on), and far from the end of its work, on a fast host or a slow one.
func TestOfflineCommandsEndOnASignalAtOnce(t *testing.T) {
	if _, ok := cpuTicks(os.Getpid()); !ok {
		t.Skip("no /proc")
	}
	bin := buildKit(t)
	archived, err := filepath.Abs("../../results/2026-11-30-vm2/fifo-go.tar.gz")
	if err != nil {
		t.Fatal(err)
	}
	many := make([]string, 60)
	for i := range many {
		many[i] = archived
	}
	big := synthetic(t, "big", fifostalltest.Options{Rate: 200, Duration: 30 * time.Second})
	out := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		sig  syscall.Signal
	}{
		{"verify, SIGINT", append([]string{"verify"}, many...), syscall.SIGINT},
		{"verify, SIGTERM", append([]string{"verify"}, many...), syscall.SIGTERM},
		{"compare", append([]string{"compare"}, many...), syscall.SIGTERM},
		{"report", append([]string{"report", "--out", filepath.Join(out, "many.html")}, many...), syscall.SIGINT},
		{"archive", []string{"archive", big, "--out", filepath.Join(out, "big.tar.gz")}, syscall.SIGTERM},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, tc.args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			exited := startBusy(t, cmd, func() string { return stdout.String() + stderr.String() })
			signalled := time.Now()
			cmd.Process.Signal(tc.sig)
			var err error
			select {
			case err = <-exited:
			case <-time.After(2 * time.Second):
				cmd.Process.Kill()
				<-exited
				t.Fatalf("still running 2 s after %v\n%s", tc.sig, stderr.String())
			}
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != interruptedStatus {
				t.Fatalf("exit %v after %v, want status %d\n%s", err, time.Since(signalled), interruptedStatus, stderr.String())
			}
			if !strings.Contains(stderr.String(), "logbench: interrupted") {
				t.Errorf("stderr does not say it was interrupted:\n%s", stderr.String())
			}
			if strings.Count(stdout.String(), "OK: ") >= len(many) {
				t.Errorf("it had finished:\n%s", stdout.String())
			}
			if left, _ := os.ReadDir(out); len(left) > 0 {
				t.Errorf("files left in the output folder: %v", left)
			}
			if left, _ := filepath.Glob(filepath.Join(filepath.Dir(big), ".*")); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

// startBusy starts cmd and returns once it has used 0.2 s of CPU (20 of Linux's 100
// ticks a second), busy with its input, rather than after a wall-clock wait that a
// loaded machine would make too short; the channel gives its end. It fails the test if
// cmd ends before, saying output().
func startBusy(t *testing.T, cmd *exec.Cmd, output func() string) <-chan error {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for {
		ticks, running := cpuTicks(cmd.Process.Pid)
		if !running {
			t.Fatalf("it ended before it was signalled: the input is too small\n%s", output())
		}
		if ticks >= 20 {
			return exited
		}
		time.Sleep(time.Millisecond)
	}
}
