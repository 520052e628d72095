package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/experiments"
	"github.com/logbench/logbench/kit/host/engine"
	"github.com/logbench/logbench/kit/host/lab"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// toyCalibrated is the toy with an instrument to calibrate: it times a number of its
// pods.
type toyCalibrated struct {
	*tabular.Experiment[*toyParams, toyRow]
}

func (t toyCalibrated) Info() experiment.Info {
	info := t.Experiment.Info()
	info.Name = "toy-calibrated"
	return info
}

// toyTrials are the toy's calibration parameters: how many pods are timed.
type toyTrials struct{ N int }

func (t *toyTrials) Bind(fs *flag.FlagSet) { fs.IntVar(&t.N, "trials", t.N, "pods timed") }
func (t *toyTrials) Check() error {
	if t.N < 1 || t.N > 100 {
		return experiment.Usagef("--trials %d: want 1 to 100", t.N)
	}
	return nil
}

func (toyCalibrated) CalibrationParams() experiment.Params { return &toyTrials{N: 3} }

func (toyCalibrated) PlanCalibration(p experiment.Params) (experiment.Calibration, error) {
	t, err := experiment.Own[*toyTrials](p)
	if err != nil {
		return nil, err
	}
	if err := t.Check(); err != nil {
		return nil, err
	}
	return toyCalibration(t.N), nil
}

type toyCalibration int

func (toyCalibration) Images() []string { return []string{"toy"} }

func (n toyCalibration) Measure(ctx context.Context, pods experiment.Pods, images map[string]string, _ time.Duration, out io.Writer) ([]experiment.Figure, error) {
	fmt.Fprintln(out, "timing the toy's pods")
	toy := newToy()
	p := toy.Defaults()
	for i := range int(n) {
		if _, err := pods.RunPod(ctx, toy.Pod(p, tabular.Cell{"10"}, fmt.Sprintf("calibrate-%d", i), images), io.Discard); err != nil {
			return nil, err
		}
	}
	return []experiment.Figure{{Name: "pods", Value: fmt.Sprint(int(n)), What: "pods timed on " + images["toy"]}}, nil
}

// imageRecorder stands in for the images: it builds nothing and keeps the names asked
// for. Several engines build at once (reproduce --engine A --engine B), so the names are
// kept under a lock.
type imageRecorder struct{ names *[]string }

var imageRecorderMu sync.Mutex

func (r imageRecorder) Build(ctx context.Context, platform string, names []string, progress io.Writer) (map[string]string, []bundle.Image, error) {
	imageRecorderMu.Lock()
	*r.names = slices.Clone(names)
	imageRecorderMu.Unlock()
	return fakeImages{}.Build(ctx, platform, names, progress)
}

// withToys registers the toys and puts a fake engine behind every command; the names
// build asks for are kept in built.
func withToys(t *testing.T) (built *[]string) {
	t.Helper()
	was := experiments.All
	experiments.All = append(slices.Clone(experiments.All), newToy(), toyCalibrated{newToy()})
	t.Cleanup(func() { experiments.All = was })
	wasReach := reach
	built = new([]string)
	reach = func(c *cli.Context, ep engine.Endpoint, out io.Writer) (*target, error) {
		return &target{Target: &lab.Target{Engine: &fakeEngine{}, Facts: contract.EngineFacts{Host: "fake", Platform: "linux/amd64"},
			Platform: "linux/amd64", Images: imageRecorder{built}, Out: out}}, nil
	}
	t.Cleanup(func() { reach = wasReach })
	return built
}

// TestRunServesEveryExperiment: run performs one condition of any experiment, narrowed
// by its own flags, and writes a bundle that verifies; flags that leave several
// conditions are refused, naming them.
func TestRunServesEveryExperiment(t *testing.T) {
	withToys(t)
	_, err := runApp(t, "run", "toy")
	wantUsageError(t, err, "these flags give toy 2 (10, 1000): narrow them to one")

	dir := filepath.Join(t.TempDir(), "one")
	out, err := runApp(t, "run", "--experiment", "toy", "--sizes", "10", "--out", dir)
	if err != nil {
		t.Fatalf("run toy: %v\n%s", err, out)
	}
	for _, want := range []string{"run 10 of toy", "write_ms 0.101 ms", "(none from one run)", "bundle: " + dir} {
		if !strings.Contains(out, want) {
			t.Errorf("run's output lacks %q:\n%s", want, out)
		}
	}
	if out, err := runApp(t, "verify", dir); err != nil || !strings.Contains(out, "toy: 1 runs (1 verified") {
		t.Errorf("verify the run's bundle: %v\n%s", err, out)
	}
	_, err = runApp(t, "run", "qps", "--configs", "none,file", "--api", "go")
	wantUsageError(t, err, "qps 2 (go/none, go/file)")
}

// TestCalibrateIsWhatAnExperimentDeclares: calibrate serves an experiment that has an
// instrument (experiment.Calibrator) with its own flags, and says plainly that another
// has none.
func TestCalibrateIsWhatAnExperimentDeclares(t *testing.T) {
	withToys(t)
	_, err := runApp(t, "calibrate", "toy")
	wantUsageError(t, err, "toy has no instrument to calibrate (those that have: fifo-stall, toy-calibrated)")
	_, err = runApp(t, "calibrate", "--experiment", "qps")
	wantUsageError(t, err, "qps has no instrument")
	_, err = runApp(t, "calibrate", "toy-calibrated", "--trials", "0")
	wantUsageError(t, err, "--trials 0")
	out, err := runApp(t, "calibrate", "toy-calibrated", "--trials", "2", "--format", "csv")
	if err != nil || !strings.Contains(out, "timing the toy's pods\n") || !strings.Contains(out, "figure,value,what\npods,2,pods timed on sha256:toy\n") {
		t.Fatalf("calibrate toy-calibrated: %v\n%s", err, out)
	}
}

// TestBuildMakesWhatAnExperimentNeeds: build --experiment asks for the experiment's
// images, --api narrows them to one API's, and build alone asks for none beyond the Go
// images every build makes.
func TestBuildMakesWhatAnExperimentNeeds(t *testing.T) {
	built := withToys(t)
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"build"}, nil},
		{[]string{"build", "--api", "python"}, []string{"api-python", "reader", "loadgen"}},
		{[]string{"build", "--api", "all"}, []string{"api", "api-python", "reader", "loadgen"}},
		{[]string{"build", "--experiment", "qps"}, []string{"api-node", "api", "api-python", "qpsload", "wrk"}},
		{[]string{"build", "--experiment", "qps", "--api", "node"}, []string{"api-node", "qpsload", "wrk"}},
		{[]string{"build", "--experiment", "line-cost"}, []string{"api", "api-python", "api-node"}},
		{[]string{"build", "--experiment", "your-api"}, []string{"qpsload"}},
		{[]string{"build", "--experiment", "log-driver"}, []string{"api", "api-python", "api-node", "loadgen", "reader", "rsyslog", "syslog-ng", "qpsload"}},
		{[]string{"build", "--experiment", "toy"}, []string{"toy"}},
	} {
		*built = []string{"not asked"}
		if out, err := runApp(t, tc.args...); err != nil {
			t.Errorf("%v: %v\n%s", tc.args, err, out)
		} else if diff := cmp.Diff(tc.want, *built); diff != "" {
			t.Errorf("%v asked for (-want +have):\n%s", tc.args, diff)
		}
	}
	_, err := runApp(t, "build", "--experiment", "toy", "--api", "go")
	wantUsageError(t, err, "toy has no --api")
	_, err = runApp(t, "build", "--experiment", "qps", "--api", "rust")
	wantUsageError(t, err, `--api "rust"`)
	_, err = runApp(t, "build", "--experiment", "nope")
	wantUsageError(t, err, `--experiment "nope"`)
}

// TestReproduceOnSeveralEnginesThroughTheLab: reproduce --engine hands every engine,
// reached and planned, to lab.Several, which leaves a bundle per engine, each line
// prefixed with its engine, and their comparison beside them.
func TestReproduceOnSeveralEnginesThroughTheLab(t *testing.T) {
	withToys(t)
	for _, parallel := range []bool{false, true} {
		root := filepath.Join(t.TempDir(), "engines")
		args := []string{"reproduce", "toy", "--engine", "unix:///run/a.sock", "--engine", "unix:///run/a.sock", "--sizes", "10,100", "--reps", "1", "--out", root}
		if parallel {
			args = append(args, "--parallel")
		}
		out, err := runApp(t, args...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		for _, want := range []string{"reproducing on 2 engines", "[run_a.sock] reproducing toy: 2 conditions x 1 rounds = 2 runs",
			"[run_a.sock-2]  2/2 ", "comparison: " + filepath.Join(root, lab.ComparisonFile), "bundle run_a.sock-2: " + filepath.Join(root, "run_a.sock-2")} {
			if !strings.Contains(out, want) {
				t.Errorf("parallel %t: the output lacks %q:\n%s", parallel, want, out)
			}
		}
		for _, label := range []string{"run_a.sock", "run_a.sock-2"} {
			if out, err := runApp(t, "verify", filepath.Join(root, label)); err != nil {
				t.Errorf("verify %s: %v\n%s", label, err, out)
			}
		}
	}
}
