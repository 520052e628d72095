//go:build linux

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// exitCases are logbench's exit statuses, one command line each: 0 done, 1 a check
// that failed, 2 bad input (misuse: nothing started), 130 interrupted. docs/cli.md's
// table is this one (TestExitStatuses holds them together). In a command line GOOD is
// a committed bundle that verifies, YOURAPI a your-api one, BAD a bundle with a file too
// many, MANY sixty bundles (long enough to be interrupted).
var exitCases = []struct {
	line      string
	status    int
	interrupt bool // Ctrl-C once it has worked for a while
}{
	{"logbench version", 0, false},
	{"logbench help version", 0, false},
	{"logbench --help", 0, false},
	{"logbench -h", 0, false},
	{"logbench verify GOOD", 0, false},
	{"logbench verify BAD", 1, false},
	{"logbench verify /nonexistent.tar.gz", 1, false},
	{"logbench verify --quiet BAD", 1, false},
	{"logbench compare GOOD BAD", 1, false},
	{"logbench archive BAD", 1, false},
	{"logbench verfy GOOD", 2, false},
	{"logbench help verfy", 2, false},
	{"logbench --bogus", 2, false},
	{"logbench verify --qiuet GOOD", 2, false},
	{"logbench verify", 2, false},
	{"logbench verify --key /nonexistent.pub GOOD", 2, false},
	{"logbench verify --format yaml GOOD", 2, false},
	{"logbench compare YOURAPI --published", 2, false},
	{"logbench compare GOOD --threshold x", 2, false},
	{"logbench reproduce qsp", 2, false},
	{"logbench reproduce --duration fast", 2, false},
	{"logbench reproduce --reps x", 2, false},
	{"logbench completion powershell", 2, false},
	{"logbench verify MANY", 130, true},
}

// TestExitStatuses runs logbench as a user would, in a process of its own, for every
// line of exitCases, and holds docs/cli.md's table to them.
func TestExitStatuses(t *testing.T) {
	bad := synthetic(t, "bad", bundletestDefaults())
	os.WriteFile(filepath.Join(bad, "notes.txt"), []byte("x"), 0o644)
	const good = "../../results/2026-11-30-vm2/qps-final.tar.gz"
	many := strings.TrimSpace(strings.Repeat("../../results/2026-11-30-vm2/fifo-go.tar.gz ", 60))
	bin := ""
	for _, tc := range exitCases {
		t.Run(tc.line, func(t *testing.T) {
			line := strings.NewReplacer("GOOD", good, "YOURAPI", "../../results/2026-12-01-vm/your-api-stdlib.tar.gz", "BAD", bad, "MANY", many).Replace(tc.line)
			args := strings.Fields(strings.TrimPrefix(line, "logbench "))
			if tc.interrupt {
				if bin == "" {
					bin = buildKit(t)
				}
				if status := interrupted(t, bin, args); status != tc.status {
					t.Errorf("exit status %d, want %d", status, tc.status)
				}
				return
			}
			stdout, stderr, status := runMain(t, nil, args...)
			if strings.Contains(tc.line, "help") && status == 0 && !strings.Contains(stdout, "USAGE:") {
				t.Errorf("no help on stdout:\n%s", stdout)
			}
			if status != tc.status {
				t.Errorf("exit status %d, want %d; stderr:\n%s", status, tc.status, stderr)
			}
			if status == 2 && (strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "logbench: ")) {
				t.Errorf("bad input is not one line:\n%s", stderr)
			}
		})
	}

	body, err := os.ReadFile(filepath.Join(readmeDir, "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `(logbench [^`]*)`[^|]*\\| ([0-9]+) \\|")
	var documented, tested []string
	for _, m := range row.FindAllStringSubmatch(string(body), -1) {
		documented = append(documented, m[1]+" -> "+m[2])
	}
	for _, tc := range exitCases {
		tested = append(tested, tc.line+" -> "+strconv.Itoa(tc.status))
	}
	slices.Sort(documented)
	slices.Sort(tested)
	if d := cmp.Diff(tested, documented); d != "" {
		t.Errorf("docs/cli.md's exit statuses are not the tested ones (-tested +docs):\n%s", d)
	}
}

// interrupted runs bin with args, sends SIGINT once it has used 0.2 s of CPU (as
// TestOfflineCommandsEndOnASignalAtOnce does), and returns its exit status.
func interrupted(t *testing.T, bin string, args []string) int {
	t.Helper()
	if _, ok := cpuTicks(os.Getpid()); !ok {
		t.Skip("no /proc")
	}
	cmd := exec.Command(bin, args...)
	exited := startBusy(t, cmd, func() string { return "" })
	cmd.Process.Signal(syscall.SIGINT)
	var err error
	select {
	case err = <-exited:
	case <-time.After(time.Minute): // a guard against a hung kit only
		cmd.Process.Kill()
		t.Fatal("still running a minute after SIGINT")
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	return 0
}
