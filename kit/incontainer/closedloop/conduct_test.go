package closedloop

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/incontainer/control"
)

func TestReadBackCountsTheWholeFileAndItsTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "2026-11-30.log")
	warm, measured := "warm 1\nwarm 2\n", "line 1\nline 2\nline 3\n"
	if err := os.WriteFile(path, []byte(warm+measured), 0o644); err != nil {
		t.Fatal(err)
	}
	rb := ReadBack(path, int64(len(warm)))
	if rb.Failure != "" || rb.Whole != CountOf([]byte(warm+measured)) || rb.FromOffset != CountOf([]byte(measured)) {
		t.Fatalf("%+v", rb)
	}
	if rb.FromOffset.Lines != 3 || rb.Whole.Lines != 5 {
		t.Errorf("lines %d, %d", rb.FromOffset.Lines, rb.Whole.Lines)
	}
	if rb := ReadBack(path, 1000); rb.Failure == "" {
		t.Error("an offset past the end must fail")
	}
	if rb := ReadBack(filepath.Join(t.TempDir(), "none.log"), 0); rb.Failure == "" {
		t.Error("a missing file must fail")
	}
}

// fakeAPI serves the workload, and a control port that counts the requests since
// /reset and writes one line per request to a file, as the Node.js API does.
type fakeAPI struct {
	mu      sync.Mutex
	file    *os.File
	offset  int64
	total   []byte
	since   []byte
	ready   atomic.Bool
	resets  atomic.Int64
	counted atomic.Int64
}

func (a *fakeAPI) workload(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	line := []byte("[00:00:00.000] 127.0.0.1 - \"GET / HTTP/1.1\" 200 - 0.100 ms\n")
	a.file.Write(line)
	a.total = append(a.total, line...)
	a.since = append(a.since, line...)
	a.mu.Unlock()
	a.counted.Add(1)
	w.Write([]byte(`{"statusCode":200,"message":"Hello World!"}`))
}

func (a *fakeAPI) control(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/ready":
		if !a.ready.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		control.WriteJSON(w, map[string]bool{"ready": true})
	case "/reset":
		a.mu.Lock()
		a.since, a.offset = nil, int64(len(a.total))
		a.mu.Unlock()
		a.counted.Store(0)
		a.resets.Add(1)
	case "/report":
		a.mu.Lock()
		defer a.mu.Unlock()
		s := Sink{Count: CountOf(a.since), Total: CountOf(a.total), Path: a.file.Name(), StartOffsetBytes: a.offset}
		control.WriteJSON(w, APIReport{Implementation: "fake", Config: "file", Requests: a.counted.Load(), Sinks: map[string]Sink{"file": s}})
	}
}

func TestConductWarmsUpResetsLoadsAndReadsTheFileBack(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "access.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	api := &fakeAPI{file: f}
	work := httptest.NewServer(http.HandlerFunc(api.workload))
	defer work.Close()
	ctl := httptest.NewServer(http.HandlerFunc(api.control))
	defer ctl.Close()
	go func() { time.Sleep(100 * time.Millisecond); api.ready.Store(true) }()

	res, err := Conduct(context.Background(), ConductParams{
		Load:         Params{URL: work.URL + "/", Connections: 2, Pipelining: 1, Warmup: 200 * time.Millisecond, Duration: 300 * time.Millisecond},
		Control:      &control.Client{Base: ctl.URL, HTTP: http.DefaultClient},
		ReadyTimeout: 5 * time.Second,
	})
	if err != nil || res.Failure != "" {
		t.Fatalf("err %v, failure %q", err, res.Failure)
	}
	if res.ReadyAfterS < 0.09 || api.resets.Load() != 1 {
		t.Errorf("ready after %.3f s, %d resets", res.ReadyAfterS, api.resets.Load())
	}
	if res.Warmup.Requests == 0 || res.Load.Requests == 0 || res.API == nil || res.File == nil {
		t.Fatalf("warm-up %d, load %d requests, report %v, file %v", res.Warmup.Requests, res.Load.Requests, res.API, res.File)
	}
	sink := res.API.Sinks["file"]
	if res.File.Whole != sink.Total || res.File.FromOffset != sink.Count {
		t.Errorf("file read back %+v, the API counted %+v", res.File, sink)
	}
	// Every request after the reset wrote a line; the generator counts those whose
	// response completed in the interval, and the load runs on a moment past it.
	if sink.Lines != res.API.Requests || sink.Lines < res.Load.Requests {
		t.Errorf("%d lines since the reset for %d requests the API counted, %d in the interval", sink.Lines, res.API.Requests, res.Load.Requests)
	}
	if _, err := json.Marshal(res); err != nil {
		t.Fatal(err)
	}
}

func TestConductSaysWhenTheAPINeverGetsReady(t *testing.T) {
	ctl := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) }))
	defer ctl.Close()
	res, err := Conduct(context.Background(), ConductParams{
		Load:         Params{URL: "http://127.0.0.1:1/", Connections: 1, Pipelining: 1, Duration: time.Second},
		Control:      &control.Client{Base: ctl.URL, HTTP: http.DefaultClient},
		ReadyTimeout: 200 * time.Millisecond,
	})
	if err != nil || res.Failure == "" || res.Load.Requests != 0 {
		t.Fatalf("err %v, failure %q", err, res.Failure)
	}
}

func TestEngineDeltaCountsOnlyProcessesInBothSamples(t *testing.T) {
	before := EngineSample{UnixNano: 0, Processes: []EngineProcess{{1, "dockerd", 10}, {2, "containerd-shim", 1}, {3, "containerd-shim", 5}}}
	after := EngineSample{UnixNano: 2e9, Processes: []EngineProcess{{1, "dockerd", 10.5}, {2, "containerd-shim", 1.25}, {4, "containerd-shim", 9}}}
	d := EngineDelta(before, after)
	if d.IntervalS != 2 || d.CPUS != 0.75 || d.ByComm["dockerd"] != 0.5 || d.ByComm["containerd-shim"] != 0.25 {
		t.Fatalf("%+v", d)
	}
	for comm, want := range map[string]bool{"dockerd": true, "containerd": true, "containerd-shim": true, "node": false, "docker": false} {
		if IsEngine(comm) != want {
			t.Errorf("IsEngine(%q) = %v", comm, !want)
		}
	}
}
