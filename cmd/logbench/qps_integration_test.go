package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/experiments/qps"
	"github.com/logbench/logbench/kit/host/enginetest"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// TestReproduceQPSOnTheEngine runs a short qps matrix of every API (Node.js, Go, Python),
// none and console+file, on the real engine: the console lines come back through the
// json-file driver and the file lines from the volume, each equal to what the API
// wrote; the engine's own CPU is measured; the bundle verifies, compares and reports.
func TestReproduceQPSOnTheEngine(t *testing.T) {
	enginetest.Require(t)
	dir := filepath.Join(t.TempDir(), "bundle")
	out, err := runApp(t, "reproduce", "--experiment", "qps", "--api", "all", "--configs", "none,console+file", "--reps", "1", "--duration", "1s", "--warmup-time", "500ms", "--out", dir)
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
	if strings.Count(body, ",equal,equal,true,") != 3 || strings.Count(body, ",-,-,true,") != 3 {
		t.Errorf("want a console+file run with both sinks equal and a none run per API, verified:\n%s", body)
	}
	if !strings.Contains(string(files.Data[qps.ConditionsFile]), "go,console+file,1,1,") || !strings.Contains(string(files.Data[qps.ConditionsFile]), "python,console+file,1,1,") {
		t.Errorf("no Go or Python API condition:\n%s", files.Data[qps.ConditionsFile])
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
