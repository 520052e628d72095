package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/enginetest"
	"github.com/logbench/logbench/kit/experiments/qps"
	"github.com/logbench/logbench/kit/host/lab"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// TestDockerBesidePodman compares the two engines on one machine in one command, as
// the README does: the qps experiment's console configuration on Docker (json-file,
// its default driver) and on Podman's Docker-compatible service (k8s-file), each run
// verified line for line through the engine's log API, each engine's own processes
// counted. LOGBENCH_DOCKER_HOST and LOGBENCH_PODMAN_HOST name the two engines (.ci/run
// sets them).
func TestDockerBesidePodman(t *testing.T) {
	enginetest.Require(t)
	docker, podman := os.Getenv("LOGBENCH_DOCKER_HOST"), os.Getenv("LOGBENCH_PODMAN_HOST")
	if docker == "" || podman == "" {
		failOrSkip(t, "needs podman: set LOGBENCH_DOCKER_HOST and LOGBENCH_PODMAN_HOST (a `podman system service` socket)")
	}
	root := filepath.Join(t.TempDir(), "engines")
	out, err := runApp(t, "reproduce", "--experiment", "qps", "--configs", "console", "--reps", "1", "--duration", "1s", "--warmup-time", "500ms",
		"--wrk=false", "--engine", docker, "--engine", podman, "--out", root)
	if err != nil {
		t.Fatalf("reproduce on Docker and Podman: %v\n%s", err, out)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"docker": "json-file", "podman": "k8s-file"}
	seen := map[string]bool{}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(root, e.Name())
		files, err := bundle.ReadFolder(dir)
		if err != nil {
			t.Fatal(err)
		}
		if res := (qps.Experiment).Verify(files); !res.OK() {
			t.Fatalf("%s does not verify: %v", dir, res.Problems)
		}
		var m qps.Manifest
		if err := json.Unmarshal(files.Data[bundle.ManifestFile], &m); err != nil {
			t.Fatal(err)
		}
		kind, p := m.Engine.Kind, m.Parameters
		seen[kind] = true
		if driver, ok := want[kind]; !ok || p.LogDriver != driver || p.EngineKind != kind || m.Engine.EngineAPIVersion == "" {
			t.Errorf("%s: engine %q (%s), log driver %q (%s), engine CPU of %q", dir, kind, m.Engine.KindEvidence, p.LogDriver, p.LogDriverChosenBy, p.EngineKind)
		}
		rows, err := csv.NewReader(bytes.NewReader(files.Data[qps.RunsFile])).ReadAll()
		if err != nil || len(rows) != 2 {
			t.Fatalf("%s: runs.csv %v %v", dir, rows, err)
		}
		for i, col := range rows[0] {
			if col == "engine_measured" && rows[1][i] != "true" {
				t.Errorf("%s: the engine's CPU was not measured:\n%s", dir, files.Data[qps.RunsFile])
			}
		}
	}
	if len(seen) != 2 || !seen["docker"] || !seen["podman"] {
		t.Errorf("bundles of %v, want one of Docker and one of Podman", seen)
	}
	if cmp, err := os.ReadFile(filepath.Join(root, lab.ComparisonFile)); err != nil || !strings.Contains(out, string(cmp)) {
		t.Errorf("no comparison (%v):\n%s", err, out)
	}
}
