package experiment_test

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// TestMatrixRecordsTheRequestPath: the probe's pods run before and after each run, in
// the API's limits, and what they read is probes.csv's row: the SHA-256 speed, the
// request loop's rate of wall time and CPU a request, and the CPU of a write; a loop the
// probe left out (its failure said) is absent, not 0; the manifest sums both up.
func TestMatrixRecordsTheRequestPath(t *testing.T) {
	p := &toyPlan{conds: cross([]string{"1"}), rounds: 1, b: &toyBundle{}}
	p.b.common.RunsPlanned = 1
	probe := func(requests bool) []byte {
		res := contract.ProbeResult{Bytes: 32 << 20, CPUNanos: 20_000_000, WallNanos: 21_000_000, SHA256: "x",
			Syscalls: &contract.SyscallLoopResult{Calls: 50_000, Bytes: 50_000, CPUNanos: 25_000_000, WallNanos: 30_000_000}}
		if requests {
			res.Requests = &contract.RequestLoopResult{Requests: 1000, Conns: 1, BodyBytes: 64_000, CPUNanos: 60_000_000, WallNanos: 125_000_000, SHA256: "y"}
		} else {
			res.Failure = "request loop: listen tcp 127.0.0.1:0: no loopback"
		}
		b, _ := json.Marshal(res)
		return b
	}
	pods := &fakePods{answer: func(spec experiment.PodSpec) (experiment.PodResult, error) {
		switch {
		case strings.HasSuffix(spec.RunID, "-probe-before"):
			return experiment.PodResult{Result: probe(false)}, nil
		case strings.HasSuffix(spec.RunID, "-probe-after"):
			return experiment.PodResult{Result: probe(true)}, nil
		}
		return experiment.PodResult{Result: result(1, "")}, nil
	}}
	var saved map[string][]byte
	m := &experiment.Matrix{Pods: pods, Plan: p, ProbeImage: "sha256:api", Save: func(_ string, files map[string][]byte) error { saved = files; return nil }}
	if err := m.Run(context.Background(), experiment.Rotate(p.conds, 1)); err != nil {
		t.Fatal(err)
	}
	if len(pods.specs) != 3 || pods.specs[0].Containers[0].Entrypoint[0] != "/probe" || !strings.Contains(strings.Join(pods.specs[0].Containers[0].Cmd, " "), "-requests=1000") {
		t.Fatalf("pods %+v", pods.specs)
	}
	d := bundle.DecodeCSV[bundle.ProbeRow](bundle.ProbeFile, saved[bundle.ProbeFile], 1)
	if len(d.Errs) > 0 || len(d.Missing) > 0 || len(d.Rows) != 1 {
		t.Fatalf("%v, missing %v, %d rows:\n%s", d.Errs, d.Missing, len(d.Rows), saved[bundle.ProbeFile])
	}
	r := d.Rows[0]
	// 32 MiB in 20 ms: 1677.72 MB/s; 1000 requests in 125 ms of wall time and 60 ms
	// of CPU: 8000 req/s, 60 µs each; 50,000 writes in 25 ms: 500 ns each.
	if math.Abs(float64(r.BeforeMBPerS)-1677.7216) > 1e-9 || r.BeforeReqPerS.Present() || r.BeforeRequestCPUUs.Present() || r.BeforeSyscallNs != 500 ||
		r.AfterReqPerS != 8000 || r.AfterRequestCPUUs != 60 || r.RequestCPUUs != 60 || r.RelativeRequestPath != 1 || r.AfterSyscallNs != 500 {
		t.Errorf("row %+v\n%s", r, saved[bundle.ProbeFile])
	}
	s := p.b.common.SpeedProbe
	if s == nil || s.Kernel != contract.ProbeKernel || s.RequestPath == nil || s.RequestPath.Kernel != contract.RequestPathKernel ||
		s.RequestPath.MedianCPUUs != 60 || s.RequestPath.MedianSyscallNs != 500 {
		t.Errorf("summary %+v, request path %+v", s, s.RequestPath)
	}
}

// TestTheProbeHasMemoryEnoughToTimeTheCPU: the probe takes the API's limits, but never
// less memory than its own loops need: under an API starved of memory on purpose it
// would time the kernel's reclaim, for minutes, rather than the CPU.
func TestTheProbeHasMemoryEnoughToTimeTheCPU(t *testing.T) {
	for _, c := range []struct{ api, probe int64 }{{6 << 20, experiment.ProbeMemoryFloor}, {1 << 30, 1 << 30}, {0, 0}} {
		p := &toyPlan{conds: cross([]string{"1"}), rounds: 1, b: &toyBundle{}, memory: c.api}
		p.b.common.RunsPlanned = 1
		pods := &fakePods{answer: func(spec experiment.PodSpec) (experiment.PodResult, error) {
			return experiment.PodResult{Result: result(1, "")}, nil
		}}
		m := &experiment.Matrix{Pods: pods, Plan: p, ProbeImage: "sha256:api", Save: func(string, map[string][]byte) error { return nil }}
		if err := m.Run(context.Background(), experiment.Rotate(p.conds, 1)); err != nil {
			t.Fatal(err)
		}
		for _, s := range pods.specs {
			want := c.api
			if strings.Contains(s.RunID, "-probe-") {
				want = c.probe
			}
			if got := s.Containers[0].MemoryBytes; got != want {
				t.Errorf("API memory %d: pod %s has %d bytes, want %d", c.api, s.RunID, got, want)
			}
		}
	}
}
