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

// TestLogDriverBuffersOrLosesOnTheEngine: the Go API's console through json-file, and
// through syslog over TCP and over UDP to rsyslog, whose output a reader takes at
// 32 KiB/s, blocking and non-blocking, at 500 requests a second (64 KB/s of lines) for
// 5 s. Every run verifies. json-file loses nothing; over TCP the engine's buffers hold
// the excess (about 4 MB before a stall) and nothing is lost, only drained late; over
// UDP the receiver's socket overflows and lines are lost, each range of them named.
// Each run measures the engine's CPU and dockerd's peak memory. Then syslog-ng over
// TCP. Figures are not held to the model: the machine is shared.
func TestLogDriverBuffersOrLosesOnTheEngine(t *testing.T) {
	enginetest.Require(t)
	dir := filepath.Join(t.TempDir(), "log-driver")
	out, err := runApp(t, "reproduce", "log-driver", "--drivers", "json-file,syslog-tcp,syslog-udp", "--driver-modes", "blocking,non-blocking",
		"--buffer-sizes", "64k", "--consumers", "slow", "--receivers", "rsyslog", "--rates", "500", "--consumer-rate", "32k",
		"--queue-messages", "100", "--duration", "5s", "--quiet", "2s", "--reps", "1", "--out", dir)
	t.Log(out)
	if err != nil {
		t.Fatalf("reproduce: %v", err)
	}
	runs := verifiedLogDriverRuns(t, dir, 6)
	for _, r := range runs {
		k := r.Driver + "/" + r.Mode
		t.Logf("%s: engine %.3f cores over %.1f s (%.2f s of CPU), dockerd's peak %.1f MiB over %d samples%s", k, float64(r.EngineCPUCores), float64(r.EngineIntervalS),
			float64(r.EngineCPUS), float64(r.EngineRSSPeak)/(1<<20), r.EngineSamples, r.EngineFailure)
		switch {
		case r.EngineFailure != "" || !(float64(r.EngineCPUCores) > 0) || !(float64(r.EngineRSSPeak) > 0) || r.EngineSamples < 2:
			t.Errorf("%s: the engine not measured: %v cores, peak %v bytes over %d samples (%s)", k, r.EngineCPUCores, r.EngineRSSPeak, r.EngineSamples, r.EngineFailure)
		case r.LinesWritten != 2500 || r.LinesCorrupted != 0:
			t.Errorf("%s: %d lines written, %d corrupted; want 2,500 and none", k, r.LinesWritten, r.LinesCorrupted)
		case r.Driver != "syslog-udp" && r.LinesLost != 0:
			t.Errorf("%s lost %d lines (%s)", k, r.LinesLost, r.LostRanges)
		case r.Driver == "syslog-udp" && (r.LinesLost <= 0 || r.LostRanges == ""):
			t.Errorf("%s behind a slow consumer lost no line", k)
		case r.Driver == "syslog-tcp" && !(float64(r.DrainS) > 0):
			t.Errorf("%s: the consumer read nothing after the last response (drain %v s)", k, r.DrainS)
		}
	}
	if v, err := runApp(t, "verify", dir); err != nil || !strings.Contains(v, "log-driver: 6 runs (6 verified") {
		t.Errorf("verify: %v\n%s", err, v)
	}

	ng := filepath.Join(t.TempDir(), "syslog-ng")
	out, err = runApp(t, "reproduce", "log-driver", "--drivers", "syslog-tcp", "--driver-modes", "blocking", "--consumers", "fast",
		"--receivers", "syslog-ng", "--rates", "200", "--duration", "2s", "--quiet", "1s", "--reps", "1", "--out", ng)
	if err != nil {
		t.Fatalf("reproduce with syslog-ng: %v\n%s", err, out)
	}
	if r := verifiedLogDriverRuns(t, ng, 1)[0]; r.LinesLost != 0 || r.LinesReceived != 400 {
		t.Errorf("syslog-ng: %d lines received, %d lost (%s)", r.LinesReceived, r.LinesLost, r.LostRanges)
	}
}

// verifiedLogDriverRuns are the runs of the bundle in dir, which must verify with want
// runs, every one of them data.
func verifiedLogDriverRuns(t *testing.T, dir string, want int) []logdriver.Row {
	t.Helper()
	files, err := bundle.ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	res := logdriver.Experiment.Verify(files)
	if !res.OK() || res.Counts.Runs != want || res.Counts.Verified != want {
		t.Fatalf("%d runs, %d verified, want %d of %d: %v", res.Counts.Runs, res.Counts.Verified, want, want, res.Problems)
	}
	var runs []logdriver.Row
	if err := gocsv.UnmarshalBytes(files.Data["runs.csv"], &runs); err != nil {
		t.Fatal(err)
	}
	return runs
}

// TestLogDriverCarriesLongLinesOnTheEngine: each of the kit's APIs prints lines of
// 16 KiB, the longest Docker's syslog driver carries whole, through syslog over TCP to
// rsyslog, and the Go API lines of 64 KiB through json-file, at 50 requests a second for
// 2 s: every line read back intact, byte for byte the contract's, none lost. A length
// past what a chosen driver carries whole is refused before anything starts.
func TestLogDriverCarriesLongLinesOnTheEngine(t *testing.T) {
	enginetest.Require(t)
	dir := filepath.Join(t.TempDir(), "long")
	out, err := runApp(t, "reproduce", "log-driver", "--apis", "go,python,node", "--drivers", "syslog-tcp", "--driver-modes", "blocking",
		"--consumers", "fast", "--receivers", "rsyslog", "--rates", "50", "--line-bytes", "16384", "--duration", "2s", "--quiet", "1s",
		"--reps", "1", "--out", dir)
	if err != nil {
		t.Fatalf("reproduce: %v\n%s", err, out)
	}
	for _, r := range verifiedLogDriverRuns(t, dir, 3) {
		if r.LinesWritten != 100 || r.LinesReceived != 100 || r.LinesCorrupted != 0 {
			t.Errorf("%s: %d lines of 16 KiB written, %d received, %d corrupted; want 100, 100, 0", r.API, r.LinesWritten, r.LinesReceived, r.LinesCorrupted)
		}
	}
	file := filepath.Join(t.TempDir(), "file")
	out, err = runApp(t, "reproduce", "log-driver", "--drivers", "json-file", "--driver-modes", "blocking", "--rates", "50",
		"--line-bytes", "65536", "--duration", "2s", "--quiet", "1s", "--reps", "1", "--out", file)
	if err != nil {
		t.Fatalf("reproduce with json-file: %v\n%s", err, out)
	}
	if r := verifiedLogDriverRuns(t, file, 1)[0]; r.LinesReceived != 100 || r.LinesCorrupted != 0 {
		t.Errorf("json-file, 64 KiB lines: %d received, %d corrupted", r.LinesReceived, r.LinesCorrupted)
	}
	out, err = runApp(t, "reproduce", "log-driver", "--drivers", "json-file,syslog-tcp", "--line-bytes", "16385", "--out", filepath.Join(t.TempDir(), "no"))
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "syslog-tcp driver carries lines of at most 16384 bytes whole") {
		t.Errorf("16385-byte lines through syslog: %v\n%s", err, out)
	}
}
