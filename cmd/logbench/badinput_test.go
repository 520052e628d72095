package main

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/logbench/logbench/internal/enginetest"
	"github.com/logbench/logbench/kit/host/lab"
)

// The refusals of the Faults table that need more than a flag: an engine that cannot be
// reached, a platform the engine does not run natively, and a disk too full for the
// bundle. Each must end the command with one line naming the problem and exit status 2
// before anything is started: no bundle folder, no image built, nothing created on the
// engine.

// mainArgsEnv carries the arguments of a logbench invocation to TestHelperMain.
const mainArgsEnv = "LOGBENCH_HELPER_MAIN_ARGS"

// TestHelperMain is logbench's main in a process of its own, so that the real exit
// status and the real standard error can be checked. It does nothing in a normal test run.
func TestHelperMain(t *testing.T) {
	args, ok := os.LookupEnv(mainArgsEnv)
	if !ok {
		return
	}
	os.Args = append([]string{"logbench"}, strings.Split(args, "\x1f")...)
	main()
	os.Exit(0)
}

// runMain runs logbench in a child process with env added to this one's, and returns
// what it wrote and its exit status.
func runMain(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperMain$")
	// No TLS settings of the developer's may point the child at another engine.
	cmd.Env = append(os.Environ(), mainArgsEnv+"="+strings.Join(args, "\x1f"), "DOCKER_CERT_PATH=", "DOCKER_TLS_VERIFY=")
	cmd.Env = append(cmd.Env, env...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("logbench %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), errOut.String(), code
}

// assertRefused checks that logbench exited 2 having printed nothing but one line on
// standard error that contains every one of want.
func assertRefused(t *testing.T, stdout, stderr string, code int, want ...string) {
	t.Helper()
	if code != 2 {
		t.Errorf("exit status %d, want 2; stderr:\n%s", code, stderr)
	}
	if stdout != "" {
		t.Errorf("something was started; stdout:\n%s", stdout)
	}
	line := strings.TrimSuffix(stderr, "\n")
	if line == "" || strings.Contains(line, "\n") || !strings.HasPrefix(line, "logbench: ") {
		t.Errorf("stderr is not one line:\n%s", stderr)
	}
	for _, w := range want {
		if !strings.Contains(line, w) {
			t.Errorf("stderr %q does not name %q", line, w)
		}
	}
}

// assertNoFolder checks that no bundle folder was made.
func assertNoFolder(t *testing.T, dir string) {
	t.Helper()
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s: %v, want no bundle folder", dir, err)
	}
}

// The engine cannot be reached: the kit has nothing but DOCKER_HOST to find it by, so
// nothing can be created on any engine; what is left to check is the exit, the line and
// that no bundle folder was made. Needs no engine.
func TestBadInputUnreachableEngine(t *testing.T) {
	socket := filepath.Join(t.TempDir(), "no-engine.sock")
	for _, where := range []struct{ name, host, named string }{
		{"no socket", "unix://" + socket, socket},
		{"closed port", "tcp://127.0.0.1:1", "127.0.0.1:1"},
	} {
		for _, command := range []string{"run", "reproduce", "calibrate"} {
			t.Run(command+" "+where.name, func(t *testing.T) {
				dir := filepath.Join(t.TempDir(), "bundle")
				args := []string{command, "--out", dir}
				if command == "calibrate" {
					args = args[:1] // calibrate writes no bundle: it has no --out
				}
				stdout, stderr, code := runMain(t, []string{"DOCKER_HOST=" + where.host}, args...)
				assertRefused(t, stdout, stderr, code, "cannot reach the Docker Engine", where.named)
				assertNoFolder(t, dir)
			})
		}
	}
}

// engineCalls stands between the kit and the real engine: it passes reads (GET, HEAD)
// through, refuses every other request without forwarding it, and keeps a list of all.
// A refusal that starts nothing sends only reads; and should a check be broken, the
// engine is still left untouched.
type engineCalls struct {
	host string // DOCKER_HOST for the kit
	mu   sync.Mutex
	list []string
}

func (e *engineCalls) writes() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var w []string
	for _, c := range e.list {
		if !strings.HasPrefix(c, http.MethodGet+" ") && !strings.HasPrefix(c, http.MethodHead+" ") {
			w = append(w, c)
		}
	}
	return w
}

func (e *engineCalls) count() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.list)
}

// watchEngine needs the engine (enginetest's gating) and returns a read-only way to it.
func watchEngine(t *testing.T) *engineCalls {
	t.Helper()
	u, err := url.Parse(enginetest.Docker(t).DaemonHost())
	if err != nil {
		t.Fatal(err)
	}
	network, addr := u.Scheme, u.Host
	switch network {
	case "unix":
		addr = u.Path
	case "tcp":
	default:
		t.Fatalf("engine at %s: want a unix or tcp address", u)
	}
	// A short folder: a socket's path is limited to about 100 bytes.
	dir, err := os.MkdirTemp("", "lb")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "engine.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	e := &engineCalls{host: "unix://" + sock}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) { r.Out.URL.Scheme, r.Out.URL.Host = "http", "docker" },
		Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		}},
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.mu.Lock()
		e.list = append(e.list, r.Method+" "+r.URL.Path)
		e.mu.Unlock()
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, `{"message":"refused: this test lets nothing be created"}`, http.StatusForbidden)
			return
		}
		proxy.ServeHTTP(w, r)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return e
}

// assertEngineUntouched checks that the kit reached the engine (else the refusal proves
// nothing about the check after connecting) and asked it for nothing but reads.
func assertEngineUntouched(t *testing.T, e *engineCalls) {
	t.Helper()
	if e.count() == 0 {
		t.Error("the kit never reached the engine")
	}
	if w := e.writes(); len(w) > 0 {
		t.Errorf("the kit asked the engine to act: %s", strings.Join(w, ", "))
	}
}

// A platform the engine does not run natively: run, reproduce and calibrate refuse it
// (emulated runs would measure the emulator), having read only the engine's facts.
func TestBadInputForeignPlatform(t *testing.T) {
	facts, err := enginetest.Require(t).Facts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	foreign := "linux/arm64"
	if facts.Platform == foreign {
		foreign = "linux/amd64"
	}
	for _, command := range []string{"run", "reproduce", "calibrate"} {
		t.Run(command, func(t *testing.T) {
			e := watchEngine(t)
			dir := filepath.Join(t.TempDir(), "bundle")
			args := []string{command, "--platform", foreign, "--out", dir}
			if command == "calibrate" {
				args = args[:3] // calibrate writes no bundle: it has no --out
			}
			stdout, stderr, code := runMain(t, []string{"DOCKER_HOST=" + e.host}, args...)
			assertRefused(t, stdout, stderr, code, "--platform "+foreign, "this engine runs "+facts.Platform)
			assertNoFolder(t, dir)
			assertEngineUntouched(t, e)
		})
	}
}

// fullDisk makes every file system look as if it had free bytes left.
func fullDisk(t *testing.T, free int64) {
	t.Helper()
	was := lab.FreeBytes
	lab.FreeBytes = func(string) (int64, error) { return free, nil }
	t.Cleanup(func() { lab.FreeBytes = was })
}

// The threshold: 1 MiB a run and 64 MiB besides. Needs no engine.
func TestBadInputDiskThreshold(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bundle")
	const runs = 42
	need := int64(runs)<<20 + 64<<20
	fullDisk(t, need-1)
	err := lab.CheckDisk(dir, runs)
	var usage usageError
	if !errors.As(err, &usage) || strings.Contains(err.Error(), "\n") ||
		!strings.Contains(err.Error(), "not enough free disk") || !strings.Contains(err.Error(), dir) {
		t.Fatalf("%d bytes free for %d runs: err = %v, want one usage line naming the disk and %s", need-1, runs, err, dir)
	}
	fullDisk(t, need)
	if err := lab.CheckDisk(dir, runs); err != nil {
		t.Fatalf("%d bytes free for %d runs: %v, want it accepted", need, runs, err)
	}
	lab.FreeBytes = func(string) (int64, error) { return 0, errors.New("no figure") }
	if err := lab.CheckDisk(dir, runs); err != nil {
		t.Fatalf("without a figure of free space: %v, want no refusal", err)
	}
}

// Too little disk for the bundle: run and reproduce refuse before building an image or
// making the bundle folder. (In process, to fill the disk; usageError is exit status 2,
// as TestBadInputUnreachableEngine checks of main.)
func TestBadInputTooLittleDisk(t *testing.T) {
	enginetest.Require(t)
	fullDisk(t, 1<<20)
	for _, command := range []string{"run", "reproduce"} {
		t.Run(command, func(t *testing.T) {
			e := watchEngine(t)
			t.Setenv("DOCKER_HOST", e.host)
			t.Setenv("DOCKER_CERT_PATH", "")
			t.Setenv("DOCKER_TLS_VERIFY", "")
			dir := filepath.Join(t.TempDir(), "bundle")
			out, err := runApp(t, command, "--out", dir)
			var usage usageError
			if !errors.As(err, &usage) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "not enough free disk for the bundle at "+dir) {
				t.Errorf("err = %v, want one usage line naming the disk", err)
			}
			if out != "" {
				t.Errorf("something was started:\n%s", out)
			}
			assertNoFolder(t, dir)
			assertEngineUntouched(t, e)
		})
	}
}
