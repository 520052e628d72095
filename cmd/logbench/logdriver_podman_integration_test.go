package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/enginetest"
	"github.com/logbench/logbench/kit/experiments/logdriver"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// TestLogDriverOnPodman: on Podman's Docker-compatible service the experiment runs the
// driver Podman offers (k8s-file, every line read back through the engine's log API and
// accounted for) and refuses, in one line and before anything starts, the drivers and
// the mode it does not have. LOGBENCH_PODMAN_HOST names the service (.ci/run sets it).
func TestLogDriverOnPodman(t *testing.T) {
	enginetest.Require(t)
	podman := os.Getenv("LOGBENCH_PODMAN_HOST")
	if podman == "" {
		failOrSkip(t, "needs podman: set LOGBENCH_PODMAN_HOST (a `podman system service` socket)")
	}
	dir := filepath.Join(t.TempDir(), "log-driver")
	for _, refused := range [][]string{{"--drivers", "k8s-file,syslog-udp"}, {"--drivers", "json-file"}, {"--driver-modes", "non-blocking", "--drivers", "k8s-file"}} {
		out, err := runApp(t, append(append([]string{"reproduce", "log-driver", "--engine", podman}, refused...), "--out", dir)...)
		wantUsageError(t, err, "Podman")
		if _, serr := os.Stat(dir); serr == nil || strings.Count(strings.TrimSpace(err.Error()), "\n") > 0 {
			t.Errorf("%v: refused late or in several lines: %v\n%s", refused, err, out)
		}
	}
	out, err := runApp(t, "reproduce", "log-driver", "--engine", podman, "--drivers", "k8s-file", "--driver-modes", "blocking",
		"--rates", "100", "--duration", "2s", "--quiet", "1s", "--reps", "1", "--out", dir)
	t.Log(out)
	if err != nil {
		t.Fatalf("reproduce on Podman: %v", err)
	}
	// --engine writes one bundle per engine, in a folder of its own under --out.
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 || !entries[0].IsDir() {
		t.Fatalf("no bundle under %s: %v", dir, err)
	}
	files, err := bundle.ReadFolder(filepath.Join(dir, entries[0].Name()))
	if err != nil {
		t.Fatal(err)
	}
	if res := logdriver.Experiment.Verify(files); !res.OK() || res.Counts.Verified != 1 {
		t.Fatalf("%d of %d runs verified: %v", res.Counts.Verified, res.Counts.Runs, res.Problems)
	}
	if !strings.Contains(string(files.Data["runs.csv"]), ",k8s-file,blocking,") {
		t.Errorf("runs.csv names no k8s-file run:\n%s", files.Data["runs.csv"])
	}
}
