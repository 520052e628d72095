package bases_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/internal/enginetest"
	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments/fifostall"
	"github.com/logbench/logbench/kit/host/bases"
)

// TestPythonAPIRunsUnderTheSameConductor ensures the base image (built from Debian
// packages on the first run), builds the Python API on it and
// the Go reader and load generator, and performs one short run with the Python API in
// the api role.
func TestPythonAPIRunsUnderTheSameConductor(t *testing.T) {
	eng := enginetest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	progress := testWriter{t}
	builder, platform := enginetest.Builder(t, eng, progress)

	started := time.Now()
	py, err := builder.BuildPython(ctx, platform, bases.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("python api image %s (%s, Python %s, %.1f MB, reused %v) in %s", py.Tag, py.ID[:19], py.PythonVersion,
		float64(py.SizeBytes)/1e6, py.Reused, time.Since(started).Round(time.Millisecond))
	if !strings.HasPrefix(py.PythonVersion, "3.11") || py.Role != "api" || len(py.BinarySHA256) != 64 {
		t.Fatalf("python image %+v", py)
	}
	goImages, err := builder.Build(ctx, platform)
	if err != nil {
		t.Fatal(err)
	}

	params := fifostall.Params{RateRPS: 20, DurationS: 2, WarmupRequests: 2, MaxRunTimeS: 120, MaxLogBytes: 256 << 20, MaxSendLagP99Ms: 1,
		Limits: fifostall.Limits{Limits: experiment.Limits{APICPUs: 0.25, APIMemoryBytes: 128 << 20, LoadgenCPUs: 0.25, LoadgenMemoryBytes: 256 << 20, PidsLimit: 128},
			ReaderCPUs: 0.25, ReaderMemoryBytes: 256 << 20}}
	cond := fifostall.Cond{API: fifostall.PythonAPI, Mode: string(contract.ModeJSONQueue), Reader: fifostall.SlowReader}
	settings := fifostall.SettingsOf(params)
	ids := map[string]string{fifostall.ImageOf(fifostall.PythonAPI): py.ID, "reader": goImages["reader"].ID, "loadgen": goImages["loadgen"].ID}
	runID := fmt.Sprintf("python-it-%d", time.Now().UnixNano())
	performed, err := experiment.Perform(ctx, eng, settings.Pod(cond, runID, ids), progress)
	if err != nil {
		t.Fatal(err)
	}
	performed.Condition, performed.Round, performed.Position = cond, 1, 1
	rec := fifostall.Record(performed, params.MaxSendLagP99Ms)
	if rec.Failure != "" {
		t.Fatalf("run failed: %s", rec.Failure)
	}
	api, reader := rec.Result.API, rec.Result.Reader
	if api.Implementation != "python" || !strings.HasPrefix(api.Runtime, "Python 3.11") || api.Mode != string(contract.ModeJSONQueue) {
		t.Errorf("api reports %q %q %q", api.Implementation, api.Runtime, api.Mode)
	}
	const want = 40 * contract.JSONRecordBytes
	if api.Counters.Written.Bytes != want || reader.Counts.Bytes != want || api.Counters.Generated != api.Counters.Written ||
		reader.Counts != api.Counters.Written {
		t.Errorf("written %+v, read %+v, want %d bytes each", api.Counters.Written, reader.Counts, want)
	}
	run := fifostall.Derive(rec).Run
	if run.Requests != 40 || run.Errors != 0 || len(api.Spans) != 40 || run.SpanLogCallMeanUs <= 0 {
		t.Errorf("run %+v, %d spans", run, len(api.Spans))
	}
	if p := api.Process; !p.Present || p.UID != 65532 || p.CapEffective != 0 || !p.NoNewPrivs || !p.RootReadOnly {
		t.Errorf("api process as read by Python: %+v, want uid 65532, no capabilities, no_new_privs, read-only root", p)
	}
	if api.Cgroup.CPULimitCores != 0.25 || api.Cgroup.MemoryLimitBytes != 128<<20 {
		t.Errorf("api cgroup as read by Python: %+v", api.Cgroup)
	}
	t.Logf("p99 %.2f ms, drain %.2f s, to last response %.2f s, to logs read %.2f s, generate %.0f us, log call %.0f us, api CPU %.3f cores",
		run.P99Ms, run.DrainS, run.ToLastResponseS, run.ToLogsReadS, run.SpanGenerateMeanUs, run.SpanLogCallMeanUs, run.APICPUCores)
	left, err := eng.FindOwn(ctx, runID)
	if err != nil || !left.Empty() {
		t.Fatalf("left on the engine: %+v, %v", left, err)
	}
}

// testWriter sends progress to the test log, a line at a time.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
