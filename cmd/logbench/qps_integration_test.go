package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/experiments/qps"
	"github.com/logbench/logbench/kit/host/enginetest"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// TestReproduceQPSOnTheEngine runs a short qps matrix of the Node.js API, none and
// console+file, on the real engine: the console lines come back through the json-file
// driver and the file lines from the volume, each equal to what the API wrote, and the
// bundle verifies, compares and reports.
func TestReproduceQPSOnTheEngine(t *testing.T) {
	enginetest.Require(t)
	dir := filepath.Join(t.TempDir(), "bundle")
	out, err := runApp(t, "reproduce", "--experiment", "qps", "--configs", "none,console+file", "--reps", "1", "--duration", "1s", "--warmup-time", "500ms", "--out", dir)
	if err != nil {
		t.Fatalf("reproduce failed: %v\n%s", err, out)
	}
	files, err := bundle.ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	res := qps.Experiment{}.Verify(files)
	if !res.OK() {
		t.Fatalf("the bundle does not verify: %v", res.Problems)
	}
	body := string(files.Data[qps.RunsFile])
	if strings.Count(body, ",equal,equal,true,") != 1 || strings.Count(body, ",-,-,true,") != 1 {
		t.Errorf("want one console+file run with both sinks equal and one none run, verified:\n%s", body)
	}
	if !strings.Contains(out, "console+file") || !strings.Contains(out, "pub req/s") {
		t.Errorf("no table beside the published figures:\n%s", out)
	}
	for _, args := range [][]string{{"verify", dir}, {"compare", dir, "--published"}, {"report", dir}} {
		if out, err := runApp(t, args...); err != nil {
			t.Errorf("%s: %v\n%s", args[0], err, out)
		}
	}
}
