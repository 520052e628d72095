package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/internal/enginetest"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments/qps"
	"github.com/logbench/logbench/kit/experiments/yourapi"
	"github.com/logbench/logbench/kit/host/bases"
	"github.com/logbench/logbench/kit/host/engine"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// stdlibServer is a service nobody wrote for the kit: Python's http.server, its access
// log switched by environment variables (LOG_TARGET off, stdout or file; LOG_LINES
// lines per request; LOG_FORMAT short or long; EXIT_AFTER: exit after so many
// requests). It knows nothing of the kit's ports,
// user or volume.
const stdlibServer = `import http.server, logging, os, signal, sys

signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # PID 1 ignores SIGTERM without a handler

target = os.environ.get("LOG_TARGET", "off")
lines = int(os.environ.get("LOG_LINES", "1"))
exit_after = int(os.environ.get("EXIT_AFTER", "0"))
served = 0
long = os.environ.get("LOG_FORMAT", "short") == "long"
log = logging.getLogger("access")
log.setLevel(logging.INFO)
if target == "stdout":
    log.addHandler(logging.StreamHandler(sys.stdout))
elif target == "file":
    log.addHandler(logging.FileHandler(os.path.join(os.environ.get("LOG_DIR", "/var/log/app"), "access.log")))
else:
    log.disabled = True
for h in log.handlers:
    h.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s" if long else "%(message)s"))

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    def do_GET(self):
        global served
        served += 1
        if exit_after and served > exit_after:
            print("exiting after %d requests" % exit_after, flush=True)
            os._exit(3)
        if self.path != "/health":
            self.send_error(404)
            return
        body = b"ok\n"
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, fmt, *args):
        for i in range(lines):
            log.info("%s %s", self.address_string(), fmt % args)

print("listening on 8080", flush=True)
http.server.ThreadingHTTPServer(("0.0.0.0", 8080), Handler).serve_forever()
`

// stdlibImage builds the server's image on the kit's Python base (from Debian packages)
// and returns its tag.
func stdlibImage(t *testing.T) string {
	t.Helper()
	eng := enginetest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	facts, err := eng.Facts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	base, err := bases.Options{}.Ensure(ctx, eng, bases.Python, facts.Platform, testWriter{t})
	if err != nil {
		t.Fatal(err)
	}
	dockerfile := fmt.Sprintf(`FROM %s
ENV PYTHONDONTWRITEBYTECODE=1
RUN ["/usr/bin/python3", "-c", "import os; os.makedirs('/var/log/app'); os.chmod('/var/log/app', 0o1777)"]
COPY server.py /srv/server.py
EXPOSE 8080
ENTRYPOINT ["/usr/bin/python3", "/srv/server.py"]
`, base.Tag)
	tag := "logbench-test/stdlib-http:1"
	_, err = eng.Build(ctx, engine.BuildSpec{Tag: tag, Platform: facts.Platform, Files: map[string]engine.ContextFile{
		"Dockerfile": {Body: []byte(dockerfile), Mode: 0o644}, "server.py": {Body: []byte(stdlibServer), Mode: 0o644}}}, testWriter{t})
	if err != nil {
		t.Fatal(err)
	}
	return tag
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

func yourAPIBundle(t *testing.T, dir string) *yourapi.Bundle {
	t.Helper()
	files, err := bundle.ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	res := yourapi.Experiment.Verify(files)
	if !res.OK() {
		t.Fatalf("the bundle does not verify: %v", res.Problems)
	}
	return res.Own.(*yourapi.Bundle)
}

func conditionOf(b *yourapi.Bundle, config string) yourapi.ConditionRow {
	for _, c := range yourapi.DeriveConditions(b.Runs, *b.Params()) {
		if c.Config == config {
			return c
		}
	}
	return yourapi.ConditionRow{}
}

// TestYourAPIOnAStdlibServer runs the command on a Python http.server image:
// none, console, a console writing two lines per request, and a file on the run's
// volume. Lines per request come out as written (2.0 for two lines), CPU is measured
// inside and outside the container, and the bundle verifies, compares and reports.
// Bad input (a port nothing listens on, a path that is not 2xx) is one line, exit 2,
// before anything is measured.
func TestYourAPIOnAStdlibServer(t *testing.T) {
	tag := stdlibImage(t)
	dir := filepath.Join(t.TempDir(), "bundle")
	out, err := runApp(t, "reproduce", "your-api", "--image", tag, "--port", "8080", "--path", "/health",
		"--config", "none:LOG_TARGET=off", "--config", "console:LOG_TARGET=stdout", "--config", "twice:LOG_TARGET=stdout,LOG_LINES=2",
		"--config", "file:LOG_TARGET=file", "--log-file", "/var/log/app", "--reps", "1", "--duration", "2s", "--warmup-time", "500ms", "--out", dir)
	if err != nil {
		t.Fatalf("reproduce failed: %v\n%s", err, out)
	}
	t.Log(out)
	b := yourAPIBundle(t, dir)
	for _, r := range b.Runs {
		if !r.Verified || !r.CPUMeasured || r.APIProcesses < 1 || !(r.APICPUS > 0) { // NaN (absent) fails too
			t.Errorf("%s: verified %v (%s), cpu %v (%s): %g s inside in %d processes, %g s engine", r.Config, r.Verified, r.Failure, r.CPUMeasured, r.CPUFailure, r.APICPUS, r.APIProcesses, r.EngineCPUS)
		}
	}
	near := func(config string, have yourapi.Opt, want float64) {
		if math.Abs(float64(have)-want) > 0.02 {
			t.Errorf("%s: %v lines per request, want %g", config, have, want)
		}
	}
	near("none", conditionOf(b, "none").LinesPerRequest, 0)
	near("console", conditionOf(b, "console").ConsolePerReq, 1)
	near("twice", conditionOf(b, "twice").LinesPerRequest, 2)
	near("file", conditionOf(b, "file").FilePerReq, 1)
	near("file's console", conditionOf(b, "file").ConsolePerReq, 0)
	if !strings.Contains(out, "counted, not verified") || !strings.Contains(out, "none (baseline)") {
		t.Errorf("the summary does not say lines are counted, not verified:\n%s", out)
	}
	for _, args := range [][]string{{"verify", dir}, {"report", dir}} {
		if out, err := runApp(t, args...); err != nil {
			t.Errorf("%s: %v\n%s", args[0], err, out)
		}
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--port", "8081", "--path", "/health", "--ready-timeout", "2s"}, "nothing listened on 127.0.0.1:8081 within 2s"},
		{[]string{"--port", "8080", "--path", "/nope", "--ready-timeout", "2s"}, "GET /nope answered 404 Not Found, not 2xx"},
	} {
		bad := filepath.Join(t.TempDir(), "bad")
		out, err := runApp(t, append([]string{"reproduce", "your-api", "--image", tag, "--config", "none", "--reps", "1", "--out", bad}, c.args...)...)
		var usage experiment.UsageError
		if !errors.As(err, &usage) || !strings.Contains(usage.Msg, c.want) || strings.Contains(usage.Msg, "\n") {
			t.Errorf("%v: %v, want one line with %q\n%s", c.args, err, c.want, out)
		}
		if _, err := os.Stat(filepath.Join(bad, yourapi.RunsFile)); err == nil {
			t.Errorf("%v: a bundle was written", c.args)
		}
	}
}

// TestYourAPIOpenLoadOnAStdlibServer offers the open loop: latency from the scheduled
// send, send lag recorded, the run trusted or redone.
func TestYourAPIOpenLoadOnAStdlibServer(t *testing.T) {
	tag := stdlibImage(t)
	dir := filepath.Join(t.TempDir(), "bundle")
	out, err := runApp(t, "reproduce", "your-api", "--image", tag, "--port", "8080", "--path", "/health", "--config", "console:LOG_TARGET=stdout",
		"--load", "open", "--rate", "200", "--max-send-lag", "5ms", "--reps", "1", "--duration", "2s", "--warmup-time", "500ms", "--out", dir)
	if err != nil {
		t.Fatalf("reproduce failed: %v\n%s", err, out)
	}
	b := yourAPIBundle(t, dir)
	last := b.Runs[len(b.Runs)-1]
	if !last.Verified || last.Status2xx != 400 || !(last.SendLagP99Ms > 0) || math.Abs(float64(last.ConsolePerReq)-1) > 0.02 {
		t.Errorf("%+v\n%s", last, out)
	}
}

// TestYourAPILoggingChangeCompares compares two bundles of the same image with two
// versions of its logging configuration (short lines, then long ones written twice):
// the comparison shows lines per request changed, with its significance.
func TestYourAPILoggingChangeCompares(t *testing.T) {
	tag := stdlibImage(t)
	var dirs []string
	for _, setting := range []string{"app:LOG_TARGET=stdout", "app:LOG_TARGET=stdout,LOG_LINES=2,LOG_FORMAT=long"} {
		dir := filepath.Join(t.TempDir(), strings.NewReplacer(":", "-", ",", "-", "=", "-").Replace(setting))
		out, err := runApp(t, "reproduce", "your-api", "--image", tag, "--port", "8080", "--path", "/health", "--config", setting,
			"--reps", "2", "--duration", "1s", "--warmup-time", "300ms", "--out", dir)
		if err != nil {
			t.Fatalf("reproduce failed: %v\n%s", err, out)
		}
		dirs = append(dirs, dir)
	}
	out, _, err := runAppSplit(t, "compare", dirs[0], dirs[1], "--format", "csv")
	if err != nil {
		t.Fatalf("compare: %v\n%s", err, out)
	}
	t.Log(out)
	var lines string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "lines_per_request") && strings.Contains(l, filepath.Base(dirs[1])) {
			lines = l
		}
	}
	// The change is +100%, and a bootstrap over 2 runs a side marks it.
	if !strings.Contains(lines, ",true") || !strings.Contains(lines, "2") {
		t.Errorf("no significant change of lines per request:\n%s", out)
	}
	text, _, err := runAppSplit(t, "compare", dirs[0], dirs[1])
	if err != nil {
		t.Fatal(err)
	}
	t.Log(text)
}

// TestYourAPIOnTheNodeAPIAgreesWithQPS runs the kit's own Node.js API as a foreign image
// (no control port, only its environment) and the qps experiment on the same image
// under the same load and limits: the two rates agree within their intervals.
func TestYourAPIOnTheNodeAPIAgreesWithQPS(t *testing.T) {
	eng := enginetest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	builder, platform := enginetest.Builder(t, eng, testWriter{t})
	node, err := builder.BuildNode(ctx, platform, bases.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The host is shared: the two experiments alternate, one run each, three times, so
	// that both see the same moments of it.
	var qRates, yRates []float64
	for round := range 3 {
		qdir, ydir := filepath.Join(t.TempDir(), fmt.Sprintf("qps%d", round)), filepath.Join(t.TempDir(), fmt.Sprintf("yours%d", round))
		out, err := runApp(t, "reproduce", "qps", "--api", "node", "--configs", "none", "--reps", "1", "--duration", "5s", "--warmup-time", "5s", "--wrk=false", "--out", qdir)
		if err != nil {
			t.Fatalf("qps: %v\n%s", err, out)
		}
		out, err = runApp(t, "reproduce", "your-api", "--image", node.ID, "--port", "8080", "--path", "/", "--config", "none:LOGBENCH_CONFIG=none",
			"--reps", "1", "--duration", "5s", "--warmup-time", "5s", "--out", ydir)
		if err != nil {
			t.Fatalf("your-api: %v\n%s", err, out)
		}
		files, err := bundle.ReadFolder(qdir)
		if err != nil {
			t.Fatal(err)
		}
		qres := qps.Experiment.Verify(files)
		if !qres.OK() {
			t.Fatal(qres.Problems)
		}
		q := qres.Own.(*qps.Bundle).Runs[0]
		y := yourAPIBundle(t, ydir).Runs[0]
		if !q.Verified || !y.Verified {
			t.Fatalf("qps run %v (%s), your-api run %v (%s)", q.Verified, q.Failure, y.Verified, y.Failure)
		}
		qRates, yRates = append(qRates, float64(q.RequestsPerS)), append(yRates, float64(y.RequestsPerS))
	}
	qm, ql, qh := meanInterval(qRates)
	ym, yl, yh := meanInterval(yRates)
	t.Logf("qps %.0f req/s [%.0f, %.0f] %v; your-api %.0f req/s [%.0f, %.0f] %v", qm, ql, qh, qRates, ym, yl, yh, yRates)
	// The Node API is still getting faster over its first seconds of load, and the two
	// experiments warm it differently (your-api on the measured load's connections, qps
	// on connections of its own, then a reset): after a 500 ms warm-up the two were 8-12%
	// apart on a quiet host, your-api ahead, after 3 s still 7%. After 5 s they were 1.0,
	// 2.9 and 5.2% apart in three tries (your-api ahead each time; in the last, a CI run,
	// the intervals did not meet): a residual whose cause is not found. So both warm up
	// for 5 s, and the test holds their rates to intervals that meet or means within 10%.
	if r := ym / qm; (yl > qh || ql > yh) && (r < 0.9 || r > 1.1) {
		t.Errorf("your-api's rate is %.3f x qps's on the same API, and the intervals do not meet", r)
	}
}

// meanInterval is the mean of v and its 95% Student-t interval (3 values: t = 4.303).
func meanInterval(v []float64) (mean, low, high float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	var ss float64
	for _, x := range v {
		ss += (x - mean) * (x - mean)
	}
	h := 4.303 * math.Sqrt(ss/float64(len(v)-1)) / math.Sqrt(float64(len(v)))
	return mean, mean - h, mean + h
}

// TestYourAPIRelaxedAndBrokenServices runs the server relaxed (its image's own user,
// root, with only DAC_OVERRIDE: the run's volume belongs to the kit's uid; and a
// writable root), recorded in the manifest; a
// configuration whose service exits during its run is a failed run kept as data; and a
// service that exits before answering is one line, exit 2, before anything is measured.
func TestYourAPIRelaxedAndBrokenServices(t *testing.T) {
	tag := stdlibImage(t)
	dir := filepath.Join(t.TempDir(), "bundle")
	out, err := runApp(t, "reproduce", "your-api", "--image", tag, "--port", "8080", "--path", "/health",
		"--config", "file:LOG_TARGET=file", "--config", "dies:LOG_TARGET=stdout,EXIT_AFTER=2000", "--log-file", "/var/log/app",
		"--keep-user", "--writable-root", "--cap-add", "DAC_OVERRIDE", "--reps", "1", "--duration", "2s", "--warmup-time", "200ms", "--out", dir)
	if err == nil || !strings.Contains(err.Error(), "1 of 2 runs failed") {
		t.Fatalf("reproduce: %v, want the run that died failed\n%s", err, out)
	}
	t.Log(out)
	b := yourAPIBundle(t, dir)
	h := b.Params().Hardening
	if h.User != "" || h.ReadOnlyRoot || len(h.Relaxed) != 3 || !h.NoNewPrivileges || h.CapDrop != "ALL" {
		t.Errorf("hardening %+v", h)
	}
	for _, r := range b.Runs {
		switch r.Config {
		case "file":
			if !r.Verified || math.Abs(float64(r.FilePerReq)-1) > 0.02 {
				t.Errorf("file: %v (%s), %v file lines per request", r.Verified, r.Failure, r.FilePerReq)
			}
		case "dies":
			if r.Verified || !strings.Contains(r.Failure, "api container exited") {
				t.Errorf("dies: verified %v, failure %q", r.Verified, r.Failure)
			}
		}
	}
	if len(b.Runs) != 2 {
		t.Errorf("%d runs, want both kept", len(b.Runs))
	}
	bad := filepath.Join(t.TempDir(), "bad")
	out, err = runApp(t, "reproduce", "your-api", "--image", tag, "--port", "8080", "--path", "/health", "--config", "broken:LOG_LINES=many", "--reps", "1", "--out", bad)
	var usage experiment.UsageError
	if !errors.As(err, &usage) || !strings.Contains(usage.Msg, "the container exited (code 1) before answering: ValueError") || strings.Contains(usage.Msg, "\n") {
		t.Errorf("a service that never starts: %v\n%s", err, out)
	}
}
