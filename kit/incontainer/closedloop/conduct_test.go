package closedloop

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/incontainer/control"
)

func TestReadBackCountsTheWholeFileAndItsTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "2026-11-30.log")
	warm, measured := "warm 1\nwarm 2\n", "line 1\nline 2\nline 3\n"
	if err := os.WriteFile(path, []byte(warm+measured), 0o644); err != nil {
		t.Fatal(err)
	}
	rb := ReadBack(path, int64(len(warm)))
	if rb.Failure != "" || rb.Whole != contract.CountStream([]byte(warm+measured)) || rb.FromOffset != contract.CountStream([]byte(measured)) {
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
	onReset func()
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
		if a.onReset != nil {
			a.onReset()
		}
	case "/report":
		a.mu.Lock()
		defer a.mu.Unlock()
		s := contract.AccessLogSink{StreamCount: contract.CountStream(a.since), Total: contract.CountStream(a.total), Path: a.file.Name(), StartOffsetBytes: a.offset}
		control.WriteJSON(w, contract.AccessLogReport{Implementation: "fake", Config: "file", Requests: a.counted.Load(), Sinks: map[string]contract.AccessLogSink{"file": s}})
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
	if res.File.Whole != sink.Total || res.File.FromOffset != sink.StreamCount {
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
	before := contract.EngineSample{UnixNano: 0, Processes: []contract.EngineProcess{{PID: 1, Comm: "dockerd", CPUS: 10}, {PID: 2, Comm: "containerd-shim", CPUS: 1}, {PID: 3, Comm: "containerd-shim", CPUS: 5}}}
	after := contract.EngineSample{UnixNano: 2e9, Processes: []contract.EngineProcess{{PID: 1, Comm: "dockerd", CPUS: 10.5}, {PID: 2, Comm: "containerd-shim", CPUS: 1.25}, {PID: 4, Comm: "containerd-shim", CPUS: 9}}}
	d := EngineDelta(before, after)
	if d.IntervalS != 2 || d.CPUS != 0.75 || d.ByComm["dockerd"] != 0.5 || d.ByComm["containerd-shim"] != 0.25 {
		t.Fatalf("%+v", d)
	}
	for comm, want := range map[string]bool{"dockerd": true, "containerd": true, "containerd-shim": true, "node": false, "docker": false, "conmon": false} {
		if IsEngine(EngineDocker, comm, nil) != want {
			t.Errorf("IsEngine(docker, %q) = %v", comm, !want)
		}
	}
}

func TestEngineDeltaCountsThePodsProcessesAndTheOnesStartedInBetween(t *testing.T) {
	before := contract.EngineSample{UnixNano: 0, Processes: []contract.EngineProcess{{PID: 1, Comm: "dockerd", CPUS: 1}},
		Pod: []contract.EngineProcess{{PID: 10, Comm: "python3", CPUS: 2}, {PID: 11, Comm: "worker", CPUS: 5}}}
	after := contract.EngineSample{UnixNano: 1e9, Processes: []contract.EngineProcess{{PID: 1, Comm: "dockerd", CPUS: 1.5}},
		Pod: []contract.EngineProcess{{PID: 10, Comm: "python3", CPUS: 2.75}, {PID: 12, Comm: "worker", CPUS: 0.25}}}
	d := EngineDelta(before, after)
	if d.CPUS != 0.5 || d.PodCPUS != 1 {
		t.Errorf("engine %g s, pod %g s; want 0.5 and 1 (0.75 of the process in both, 0.25 of the one started in between; the one that ended is lost)", d.CPUS, d.PodCPUS)
	}
}

func TestSamplePodFindsAContainersProcessesByItsCgroup(t *testing.T) {
	root := t.TempDir()
	self, err := os.ReadFile("/proc/self/stat") // a whole stat line, fields after the name kept
	if err != nil {
		t.Skip("no /proc/self/stat")
	}
	rest := string(self[strings.LastIndexByte(string(self), ')')+1:])
	for pid, cg := range map[string]string{"10": "12:cpu,cpuacct:/docker/0123456789abcdef0123\n", "11": "0::/system.slice/other.scope\n"} {
		os.MkdirAll(filepath.Join(root, pid), 0o755)
		os.WriteFile(filepath.Join(root, pid, "cgroup"), []byte(cg), 0o644)
		os.WriteFile(filepath.Join(root, pid, "stat"), []byte(pid+" (python3)"+rest), 0o644)
	}
	procs, err := SamplePod(root, "0123456789ab")
	if err != nil || len(procs) != 1 || procs[0].PID != 10 {
		t.Fatalf("%v %+v", err, procs)
	}
	if _, err := SamplePod(root, "ffffffffffff"); err == nil {
		t.Error("no process of the container: want an error")
	}
}

// TestSampleEngineReadsEachProcesssCPUAndMemory: from /proc/<pid>/stat, utime + stime
// in clock ticks (100 a second) and rss in pages; a process of another name is not the
// engine's, and the daemon's memory is dockerd's alone.
func TestSampleEngineReadsEachProcesssCPUAndMemory(t *testing.T) {
	root := t.TempDir()
	// After the name: state, ppid, pgrp, session, tty, tpgid, flags, 4 fault counts,
	// utime, stime, cutime, cstime, priority, nice, threads, itrealvalue, starttime,
	// vsize, rss, then the rest.
	stat := func(pid, comm string, utime, stime, rssPages int) string {
		return fmt.Sprintf("%s (%s) S 1 1 1 0 -1 4194560 0 0 0 0 %d %d 0 0 20 0 8 0 100 100000000 %d 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n",
			pid, comm, utime, stime, rssPages)
	}
	for pid, line := range map[string]string{"10": stat("10", "dockerd", 250, 50, 1000), "11": stat("11", "containerd-shim", 10, 5, 300), "12": stat("12", "nginx", 99, 99, 5000)} {
		os.MkdirAll(filepath.Join(root, pid), 0o755)
		os.WriteFile(filepath.Join(root, pid, "stat"), []byte(line), 0o644)
	}
	s, err := SampleEngine(root, EngineDocker)
	page := int64(os.Getpagesize())
	want := []contract.EngineProcess{{PID: 10, Comm: "dockerd", CPUS: 3, RSSBytes: 1000 * page}, {PID: 11, Comm: "containerd-shim", CPUS: 0.15, RSSBytes: 300 * page}}
	if err != nil || !slices.Equal(s.Processes, want) {
		t.Fatalf("%v %+v, want %+v", err, s.Processes, want)
	}
	if got := s.DaemonRSSBytes(); got != 1000*page {
		t.Errorf("daemon RSS %d, want dockerd's %d", got, 1000*page)
	}
}

func TestPodmansProcessesAreConmonAndTheService(t *testing.T) {
	for _, c := range []struct {
		comm    string
		cmdline []string
		want    bool
	}{
		{"conmon", nil, true},
		{"podman", []string{"podman", "system", "service", "--time=0", "unix:///run/podman.sock"}, true},
		{"podman", []string{"podman", "ps"}, false},
		{"dockerd", nil, false},
		{"containerd-shim", nil, false},
	} {
		if got := IsEngine(EnginePodman, c.comm, c.cmdline); got != c.want {
			t.Errorf("IsEngine(podman, %q, %q) = %v", c.comm, c.cmdline, got)
		}
	}
	if IsEngine("", "dockerd", nil) || contract.EngineProcessesOf("") != "" {
		t.Error("an unknown kind of engine has no processes the kit can identify")
	}
	if _, err := SampleEngine("/proc", ""); err == nil {
		t.Error("sampling an unknown kind of engine did not fail")
	}
}

// fakeWrk plays the wrk container: it makes the FIFO in dir, waits for its turn, sends
// n requests to url, notes when it ran in events, and leaves its output and exit status.
func fakeWrk(t *testing.T, dir, url string, n int, events func(string)) {
	t.Helper()
	fifo := filepath.Join(dir, contract.WrkStartFIFO)
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	go func() {
		body, err := os.ReadFile(fifo) // blocks until the conductor writes its turn
		if err != nil || string(body) != "go\n" {
			events(fmt.Sprintf("wrk turn %q %v", body, err))
			return
		}
		events("wrk")
		for range n {
			resp, err := http.Get(url)
			if err != nil {
				events("wrk: " + err.Error())
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		os.WriteFile(filepath.Join(dir, contract.WrkOutput), []byte(fmt.Sprintf("  %d requests in 1.00s, 1.00KB read\nRequests/sec: %d.00\n", n, n)), 0o644)
		os.WriteFile(filepath.Join(dir, contract.WrkExit), []byte("0\n"), 0o644)
	}()
}

// conductWithWrk conducts a run against a fake API and a fake wrk that sends
// wrkRequests, with p's WrkAfter and ProcRoot, and returns its result and the order of
// its loads and the reset ("kit", "wrk", "reset", comma-separated).
func conductWithWrk(t *testing.T, wrkRequests int, p ConductParams) (contract.QPSResult, string) {
	t.Helper()
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "access.log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	var mu sync.Mutex
	var events []string
	note := func(e string) { mu.Lock(); events = append(events, e); mu.Unlock() }
	api := &fakeAPI{file: f, onReset: func() { note("reset") }}
	api.ready.Store(true)
	work := httptest.NewServer(http.HandlerFunc(api.workload))
	t.Cleanup(work.Close)
	ctl := httptest.NewServer(http.HandlerFunc(api.control))
	t.Cleanup(ctl.Close)
	fakeWrk(t, dir, work.URL+"/", wrkRequests, note)

	p.Load = Params{URL: work.URL + "/", Connections: 2, Pipelining: 1, Warmup: 200 * time.Millisecond, Duration: 300 * time.Millisecond,
		AtMeasureStart: func() { note("kit") }}
	p.Control = &control.Client{Base: ctl.URL, HTTP: http.DefaultClient}
	p.ReadyTimeout, p.WrkDir, p.WrkTimeout = 5*time.Second, dir, 10*time.Second
	res, err := Conduct(context.Background(), p)
	if err != nil || res.Failure != "" {
		t.Fatalf("err %v, failure %q", err, res.Failure)
	}
	mu.Lock()
	defer mu.Unlock()
	return res, strings.Join(events, ",")
}

// TestConductRunsWrkBetweenTheWarmupAndTheMeasuredLoad: the loads of a run alternate
// as the bundle's do (kit's warm-up, wrk, reset, kit's measured load), so the API's
// counters since the reset are the kit's load alone, and the file's whole (and the
// console's total) include wrk's lines, which the read-back finds.
func TestConductRunsWrkBetweenTheWarmupAndTheMeasuredLoad(t *testing.T) {
	const wrkRequests = 37
	res, events := conductWithWrk(t, wrkRequests, ConductParams{ProcRoot: "/proc"})
	// AtMeasureStart marks each of the kit's loads: its warm-up, then its measured one.
	if got := events; got != "kit,wrk,reset,kit" {
		t.Errorf("events %q, want kit,wrk,reset,kit", got)
	}
	if res.Wrk == nil || res.Wrk.Failure != "" || res.Wrk.ExitCode != 0 || !strings.Contains(res.Wrk.Output, "Requests/sec") {
		t.Fatalf("wrk phase %+v", res.Wrk)
	}
	// The host's load over each of the two loads, to compare them by.
	if res.WrkHost == nil || res.Host == nil || res.WrkHost.UnixNano >= res.Host.UnixNano {
		t.Errorf("host over wrk's phase %+v, over the kit's load %+v", res.WrkHost, res.Host)
	}
	sink := res.API.Sinks["file"]
	if sink.Lines != res.API.Requests || sink.Total.Lines < res.Warmup.Requests+wrkRequests+sink.Lines {
		t.Errorf("since the reset %d lines for %d requests; total %d lines for %d warm-up + %d wrk + %d", sink.Lines, res.API.Requests,
			sink.Total.Lines, res.Warmup.Requests, wrkRequests, sink.Lines)
	}
	// A request the load cut off at its end may still write its line after the report
	// (the fake API answers it anyway): at most one per connection.
	if extra := res.File.Whole.Lines - sink.Total.Lines; extra < 0 || extra > 2 || res.File.FromOffset.Lines-sink.Lines != extra {
		t.Errorf("file read back %+v, the API counted %+v", res.File, sink)
	}
}

// TestConductRunsWrkAfterTheMeasuredLoadWhenAsked: with WrkAfter, wrk loads the API
// after the kit's load and its report; the report after wrk and the file read back
// after it hold wrk's lines, the first report and read-back do not.
func TestConductRunsWrkAfterTheMeasuredLoadWhenAsked(t *testing.T) {
	const wrkRequests = 41
	res, events := conductWithWrk(t, wrkRequests, ConductParams{WrkAfter: true})
	if got := events; got != "kit,reset,kit,wrk" {
		t.Errorf("events %q, want kit,reset,kit,wrk", got)
	}
	if !res.WrkAfterKit || res.Wrk == nil || res.Wrk.Failure != "" || res.APIAfterWrk == nil || res.FileAfterWrk == nil {
		t.Fatalf("wrk after: %v, phase %+v, report %v, file %v", res.WrkAfterKit, res.Wrk, res.APIAfterWrk, res.FileAfterWrk)
	}
	first, last := res.API.Sinks["file"], res.APIAfterWrk.Sinks["file"]
	// As above, a request cut off at the load's end may write its line after the
	// first report; wrk's are all in the second.
	if extra := res.File.Whole.Lines - first.Total.Lines; extra < 0 || extra > 2 || res.FileAfterWrk.Whole != last.Total || last.Total.Lines < first.Total.Lines+wrkRequests {
		t.Errorf("file read back %+v then %+v; the API counted %+v then %+v", res.File.Whole, res.FileAfterWrk.Whole, first.Total, last.Total)
	}
}

// TestConductOffersTheOpenLoopWhenAsked: a capacity search's step warms up and
// measures at a fixed rate, latency from the scheduled send, and the API's report and
// its file still account for every request after the reset.
func TestConductOffersTheOpenLoopWhenAsked(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "access.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	api := &fakeAPI{file: f}
	api.ready.Store(true)
	work := httptest.NewServer(http.HandlerFunc(api.workload))
	defer work.Close()
	ctl := httptest.NewServer(http.HandlerFunc(api.control))
	defer ctl.Close()
	res, err := Conduct(context.Background(), ConductParams{
		Load:     Params{URL: work.URL + "/", Connections: 1, Pipelining: 1, Warmup: 100 * time.Millisecond, Duration: 500 * time.Millisecond, Timeout: time.Second},
		Control:  &control.Client{Base: ctl.URL, HTTP: http.DefaultClient},
		OpenRate: 100, Arrivals: contract.ArrivalsConstant, ReadyTimeout: 5 * time.Second,
	})
	if err != nil || res.Failure != "" {
		t.Fatalf("err %v, failure %q", err, res.Failure)
	}
	if res.Open == nil || res.Open.Scheduled != 50 || res.Open.RateRPS != 100 || res.Load.Requests != 0 || res.Warmup.SentTotal != 10 {
		t.Fatalf("open %+v, closed load %d requests, warm-up sent %d", res.Open, res.Load.Requests, res.Warmup.SentTotal)
	}
	sink := res.API.Sinks["file"]
	if res.API.Requests != 50 || sink.Lines != 50 || res.File.FromOffset != sink.StreamCount {
		t.Errorf("the API counted %d requests and %d lines since the reset; read back %+v", res.API.Requests, sink.Lines, res.File.FromOffset)
	}
}
