package conductor

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/incontainer/control"
)

// fakePod plays the API and the reader on their control protocol: each request to the
// workload generates one 100-byte record, written at once; the reader reads what the
// API wrote unless it is stalled, and can be made to miscount.
type fakePod struct {
	mu        sync.Mutex
	generated []byte
	readUpTo  int
	stalled   bool
	corrupt   bool
	// stallAtReset stops the reader once the counters are reset after the warm-up.
	stallAtReset bool

	// numbered makes the records numbered lines, numbered from 0 through resets, as
	// the API's numbered mode does; of those, every loseEvery-th never reaches the
	// reader (0: none), and line damageLine reaches it damaged (0: none).
	numbered   bool
	loseEvery  int64
	damageLine int64
	nextLine   int64
	// delivered is what reaches the reader: generated, less what the log path lost.
	delivered []byte
	// account has the reader account its lines, fed what it reads.
	account  bool
	accounts contract.Accountant
	fed      int
	// readAt is the reader's timeline: a sample each time its count grew.
	readAt     []contract.Sample
	readerHits int
}

func (f *fakePod) counts(b []byte) contract.Counts {
	sum := sha256.Sum256(b)
	return contract.Counts{Bytes: int64(len(b)), Lines: int64(strings.Count(string(b), "\n")), SHA256: hex.EncodeToString(sum[:])}
}

func (f *fakePod) servers(t *testing.T) (api, reader, workload *httptest.Server) {
	t.Helper()
	write := func(w http.ResponseWriter, v any) { json.NewEncoder(w).Encode(v) }
	api = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		c := f.counts(f.generated)
		st := contract.APIStatus{Implementation: "fake", Ready: true, Counters: contract.Counters{Generated: c, Written: c}}
		switch r.URL.Path {
		case contract.PathReset:
			f.generated, f.readUpTo = nil, 0
			f.stalled = f.stallAtReset
		case contract.PathStatus:
			write(w, st)
		case contract.PathReport:
			write(w, contract.APIReport{APIStatus: st})
		}
	}))
	reader = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.readerHits++
		if r.URL.Path == contract.PathReset {
			f.delivered, f.readUpTo, f.fed, f.readAt = nil, 0, 0, nil
			f.accounts.Reset()
			return
		}
		if !f.stalled && f.readUpTo < len(f.delivered) {
			f.readUpTo = len(f.delivered)
			f.readAt = append(f.readAt, contract.Sample{UnixNano: time.Now().UnixNano(), Bytes: int64(f.readUpTo)})
		}
		read := append([]byte(nil), f.delivered[:f.readUpTo]...)
		if f.corrupt && len(read) > 0 {
			read[0] ^= 1
		}
		st := contract.ReaderStatus{Counts: f.counts(read)}
		if f.account {
			f.accounts.Write(read[f.fed:])
			f.fed = len(read)
			a := f.accounts.Account()
			st.Account = &a
		}
		switch r.URL.Path {
		case contract.PathStatus:
			write(w, st)
		case contract.PathReport:
			write(w, contract.ReaderReport{ReaderStatus: st, Read: f.readAt})
		}
	}))
	workload = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		record, delivered, damaged := []byte(strings.Repeat("x", 99)+"\n"), true, false
		if f.numbered {
			record = contract.NumberedLine(f.nextLine)
			delivered = f.loseEvery == 0 || f.nextLine%f.loseEvery != 0
			damaged = f.damageLine != 0 && f.nextLine == f.damageLine
			f.nextLine++
		}
		f.generated = append(f.generated, record...)
		if delivered {
			f.delivered = append(f.delivered, record...)
			if damaged {
				f.delivered[len(f.delivered)-10] ^= 1
			}
		}
		f.mu.Unlock()
		w.Write([]byte("{}"))
	}))
	t.Cleanup(func() { api.Close(); reader.Close(); workload.Close() })
	return api, reader, workload
}

func (f *fakePod) run(t *testing.T, maxRunTime time.Duration) contract.Result {
	return f.runWith(t, true, func(p *contract.RunParams) { p.MaxRunTime = maxRunTime })
}

// runWith conducts a run of 10 requests after 2 warm-up, with a reader or none, the
// parameters changed by set.
func (f *fakePod) runWith(t *testing.T, withReader bool, set func(*contract.RunParams)) contract.Result {
	api, reader, workload := f.servers(t)
	c := &Conductor{
		API:         &control.Client{Base: api.URL, HTTP: api.Client()},
		Reader:      &control.Client{Base: reader.URL, HTTP: reader.Client()},
		WorkloadURL: workload.URL,
		Poll:        5 * time.Millisecond,
	}
	if !withReader {
		c.Reader = nil
	}
	p := contract.RunParams{Rate: 50, Duration: 200 * time.Millisecond, WarmupCount: 2, RequestTimeout: time.Second, MaxRunTime: 5 * time.Second}
	set(&p)
	return c.Run(context.Background(), p)
}

func TestAVerifiedRunReadsEveryByte(t *testing.T) {
	res := (&fakePod{}).run(t, 5*time.Second)
	if res.Failure != "" || len(res.Requests) != 10 || res.API.Counters.Written.Bytes != 1000 || res.LogsRead == 0 || res.LastResponse == 0 {
		t.Fatalf("failure %q, %d requests, %+v, logs read at %d", res.Failure, len(res.Requests), res.API.Counters.Written, res.LogsRead)
	}
}

// TestADrainThatNeverEndsHitsTheRunTimeCap: a stalled reader ends the run at its cap,
// named as the stop condition, and what was measured is still collected.
func TestADrainThatNeverEndsHitsTheRunTimeCap(t *testing.T) {
	res := (&fakePod{stallAtReset: true}).run(t, 1500*time.Millisecond)
	if !strings.Contains(res.StopCondition, "run time cap of 1.5s") || !strings.Contains(res.Failure, "draining logs") {
		t.Fatalf("stop condition %q, failure %q", res.StopCondition, res.Failure)
	}
	if len(res.Requests) != 10 || res.API.Counters.Generated.Bytes != 1000 || res.LogsRead != 0 {
		t.Fatalf("what was measured: %d requests, %+v generated, logs read at %d", len(res.Requests), res.API.Counters.Generated, res.LogsRead)
	}
}

// TestAReaderThatMiscountsFailsTheRun: equal byte counts with another digest are a lost
// byte, and the run says so.
func TestAReaderThatMiscountsFailsTheRun(t *testing.T) {
	res := (&fakePod{corrupt: true}).run(t, 5*time.Second)
	if !strings.Contains(res.Failure, "api wrote 1000 bytes/10 lines") || !strings.Contains(res.Failure, "but reader read 1000/10/") {
		t.Fatalf("failure %q", res.Failure)
	}
}

// TestARunWithoutAReaderNeitherWaitsForNorReadsOne: the run is verified on the API's
// counts alone, and the reader is never asked anything.
func TestARunWithoutAReaderNeitherWaitsForNorReadsOne(t *testing.T) {
	f := &fakePod{numbered: true, stallAtReset: true}
	res := f.runWith(t, false, func(*contract.RunParams) {})
	if res.Failure != "" || len(res.Requests) != 10 || res.API.Counters.Written.Bytes != 10*contract.NumberedLineBytes || f.readerHits != 0 {
		t.Fatalf("failure %q, %d requests, %+v, reader asked %d times", res.Failure, len(res.Requests), res.API.Counters.Written, f.readerHits)
	}
	if res.LogsRead != 0 || res.LastRead != 0 || res.Reader.Account != nil {
		t.Fatalf("logs read at %d, last read at %d, account %+v", res.LogsRead, res.LastRead, res.Reader.Account)
	}
}

func lossAllowed(quiet time.Duration) func(*contract.RunParams) {
	return func(p *contract.RunParams) { p.LossAllowed, p.QuietPeriod = true, quiet }
}

// TestALossyRunEndsItsDrainsWhenTheReaderIsQuiet: a log path that loses every third
// line never delivers all the API wrote; with loss allowed, each drain ends once the
// reader has read nothing for the quiet period, the lines lost are counted, not a
// failure, and the last read is noted.
func TestALossyRunEndsItsDrainsWhenTheReaderIsQuiet(t *testing.T) {
	start := time.Now()
	res := (&fakePod{numbered: true, account: true, loseEvery: 3}).runWith(t, true, lossAllowed(100*time.Millisecond))
	if res.Failure != "" || res.StopCondition != "" || len(res.Requests) != 10 {
		t.Fatalf("failure %q, stop condition %q, %d requests", res.Failure, res.StopCondition, len(res.Requests))
	}
	// Warm-up: lines 0 (lost) and 1; the run: lines 2 to 11, of which 3, 6 and 9 lost.
	a := res.Reader.Account
	want := contract.LineAccount{FirstSeq: 2, Received: 7, MaxSeq: 11, Missing: []contract.SeqRange{{First: 3, Last: 3}, {First: 6, Last: 6}, {First: 9, Last: 9}}, MissingRanges: 3}
	if a == nil || !cmp.Equal(*a, want) || a.Lost(res.API.Counters.Written.Lines) != 3 {
		t.Fatalf("account %+v, want %+v", a, want)
	}
	if res.LogsRead != 0 || res.LastRead < res.LoadStart || res.LastRead > res.LastResponse+int64(time.Second) || res.LastRead > time.Now().UnixNano() {
		t.Fatalf("logs read at %d, last read at %d, last response at %d", res.LogsRead, res.LastRead, res.LastResponse)
	}
	if elapsed := time.Since(start); elapsed > 3*time.Second {
		t.Fatalf("the run took %v", elapsed)
	}
}

// TestALosslessRunWithLossAllowedEndsWhenAllIsRead: the quiet period is only for
// lines that never come.
func TestALosslessRunWithLossAllowedEndsWhenAllIsRead(t *testing.T) {
	start := time.Now()
	res := (&fakePod{numbered: true, account: true}).runWith(t, true, lossAllowed(3*time.Second))
	if elapsed := time.Since(start); res.Failure != "" || elapsed > 2*time.Second {
		t.Fatalf("failure %q after %v", res.Failure, elapsed)
	}
	if a := res.Reader.Account; a == nil || a.Received != 10 || a.Lost(res.API.Counters.Written.Lines) != 0 || res.LogsRead == 0 || res.LastRead != res.LogsRead {
		t.Fatalf("account %+v, logs read at %d, last read at %d", a, res.LogsRead, res.LastRead)
	}
}

// TestLossWithoutLossAllowedStillHitsTheCap: the same lossy log path, without loss
// allowed, is today's run: the warm-up drain never ends.
func TestLossWithoutLossAllowedStillHitsTheCap(t *testing.T) {
	res := (&fakePod{numbered: true, account: true, loseEvery: 3}).run(t, time.Second)
	if !strings.Contains(res.StopCondition, "run time cap of 1s") || !strings.Contains(res.Failure, "draining warm-up logs") {
		t.Fatalf("stop condition %q, failure %q", res.StopCondition, res.Failure)
	}
}

// TestADamagedLineFailsALossyRun: loss is data, damage is not.
func TestADamagedLineFailsALossyRun(t *testing.T) {
	res := (&fakePod{numbered: true, account: true, loseEvery: 3, damageLine: 5}).runWith(t, true, lossAllowed(100*time.Millisecond))
	if !strings.Contains(res.Failure, "reader: 1 corrupted lines") || res.Reader.Account == nil || res.Reader.Account.Received != 6 {
		t.Fatalf("failure %q, account %+v", res.Failure, res.Reader.Account)
	}
}

func TestLossAllowedNeedsAnAccountAndAQuietPeriod(t *testing.T) {
	res := (&fakePod{numbered: true, loseEvery: 3}).runWith(t, true, lossAllowed(100*time.Millisecond))
	if !strings.Contains(res.Failure, "the reader did not account its lines") {
		t.Fatalf("without an account: failure %q", res.Failure)
	}
	res = (&fakePod{numbered: true, account: true}).runWith(t, true, lossAllowed(0))
	if !strings.Contains(res.Failure, "quiet period of 0s") || len(res.Requests) != 0 {
		t.Fatalf("without a quiet period: failure %q, %d requests", res.Failure, len(res.Requests))
	}
}

// fakeEngine plays the engine helper: each sample finds dockerd 0.25 s of CPU further
// on and a shim 0.01 s; dockerd's resident memory is rss[i] at the i-th sample (the
// last value repeated after), the shim's always larger than any of it, as every
// container's shims together can be. From sample failFrom on (0: never) it answers
// 500.
type fakeEngine struct {
	mu       sync.Mutex
	rss      []int64
	failFrom int
	calls    []time.Time
}

const shimRSS = 1 << 40

func (e *fakeEngine) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	i := len(e.calls)
	e.calls = append(e.calls, time.Now())
	if r.URL.Path != "/sample" || e.failFrom > 0 && i+1 >= e.failFrom {
		http.Error(w, "none of docker's processes", http.StatusInternalServerError)
		return
	}
	rss := e.rss[min(i, len(e.rss)-1)]
	json.NewEncoder(w).Encode(contract.EngineSample{UnixNano: time.Now().UnixNano(), Processes: []contract.EngineProcess{
		{PID: 1, Comm: "dockerd", CPUS: 10 + 0.25*float64(i), RSSBytes: rss}, {PID: 2, Comm: "containerd-shim", CPUS: 1 + 0.01*float64(i), RSSBytes: shimRSS}}})
}

// runWithEngine conducts a numbered run of 10 requests over 200 ms with no reader,
// asking the engine helper at url every 20 ms.
func runWithEngine(t *testing.T, url string) contract.Result {
	t.Helper()
	api, _, workload := (&fakePod{numbered: true}).servers(t)
	c := &Conductor{API: &control.Client{Base: api.URL, HTTP: api.Client()}, WorkloadURL: workload.URL, Poll: 5 * time.Millisecond,
		EngineURL: url + "/sample", EngineEvery: 20 * time.Millisecond}
	return c.Run(context.Background(), contract.RunParams{Rate: 50, Duration: 200 * time.Millisecond, RequestTimeout: time.Second, MaxRunTime: 5 * time.Second})
}

// TestTheEngineIsSampledFromTheResetToTheDrainsEnd: its CPU is the difference of the
// two ends, and the daemon's peak memory is the largest of every sample between them,
// though it came and went in the middle; the shims' memory is not the daemon's.
func TestTheEngineIsSampledFromTheResetToTheDrainsEnd(t *testing.T) {
	e := &fakeEngine{rss: []int64{100 << 20, 300 << 20, 120 << 20}}
	helper := httptest.NewServer(e)
	defer helper.Close()
	res := runWithEngine(t, helper.URL)
	e.mu.Lock()
	calls := e.calls
	e.mu.Unlock()
	if res.Failure != "" || res.Engine == nil || res.Engine.Failure != "" {
		t.Fatalf("failure %q, engine %+v", res.Failure, res.Engine)
	}
	// The sample in flight when the sampling stops is dropped: asked, not noted.
	n := len(calls)
	if n < 5 || (res.EngineSamples != n && res.EngineSamples != n-1) {
		t.Fatalf("%d samples asked over 200 ms every 20 ms, %d noted", n, res.EngineSamples)
	}
	first, last := calls[0].UnixNano(), calls[n-1].UnixNano()
	if first > res.LoadStart || last < res.LastResponse {
		t.Errorf("samples from %d to %d; the load from %d to %d", first, last, res.LoadStart, res.LastResponse)
	}
	// The drain's end is the last sample asked; or, where the sample in flight at the
	// stop was dropped, it may be the one before: on a busy machine the dropped one can
	// reach the helper after it. Each sample asked adds 0.26 s.
	cpuOver := func(k int) bool {
		return math.Abs(res.Engine.CPUS-0.26*float64(k)) < 1e-9 && math.Abs(res.Engine.ByComm["dockerd"]-0.25*float64(k)) < 1e-9
	}
	if !cpuOver(n-1) && !(res.EngineSamples == n-1 && cpuOver(n-2)) {
		t.Errorf("engine CPU %g s (%v), want %g over %d samples asked (%d noted)", res.Engine.CPUS, res.Engine.ByComm, 0.26*float64(n-1), n, res.EngineSamples)
	}
	if res.EngineRSSPeakBytes != 300<<20 || res.Engine.IntervalS <= 0.2 {
		t.Errorf("daemon peak %d bytes, want %d; interval %g s", res.EngineRSSPeakBytes, 300<<20, res.Engine.IntervalS)
	}
}

// TestAnEngineThatCannotBeSampledIsNoFailureOfTheRun: a helper that fails at the
// reset is not asked again; one that fails at the drain's end keeps what it saw.
func TestAnEngineThatCannotBeSampledIsNoFailureOfTheRun(t *testing.T) {
	at := &fakeEngine{rss: []int64{1}, failFrom: 1}
	helper := httptest.NewServer(at)
	res := runWithEngine(t, helper.URL)
	helper.Close()
	if res.Failure != "" || res.Engine == nil || !strings.Contains(res.Engine.Failure, "engine sample at the reset: GET") || len(at.calls) != 1 || res.EngineSamples != 0 {
		t.Errorf("failing at once: failure %q, engine %+v, asked %d times", res.Failure, res.Engine, len(at.calls))
	}

	later := &fakeEngine{rss: []int64{1 << 20, 2 << 20}, failFrom: 3}
	helper = httptest.NewServer(later)
	res = runWithEngine(t, helper.URL)
	helper.Close()
	if res.Failure != "" || res.Engine == nil || !strings.Contains(res.Engine.Failure, "engine sample at the drain's end") || res.EngineSamples != 2 || res.EngineRSSPeakBytes != 2<<20 {
		t.Errorf("failing from the third: failure %q, engine %+v, %d samples, peak %d", res.Failure, res.Engine, res.EngineSamples, res.EngineRSSPeakBytes)
	}
}

// TestAHelperNotListeningYetIsWaitedFor: the helper starts just before the conductor;
// the first sample is asked again until it listens.
func TestAHelperNotListeningYetIsWaitedFor(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	e := &fakeEngine{rss: []int64{1 << 20}}
	srv := &http.Server{Handler: e}
	go func() {
		time.Sleep(300 * time.Millisecond)
		if l, err := net.Listen("tcp", addr); err == nil {
			srv.Serve(l)
		}
	}()
	defer srv.Close()
	res := runWithEngine(t, "http://"+addr)
	if res.Engine == nil || res.Engine.Failure != "" || res.EngineSamples < 2 || res.EngineRSSPeakBytes != 1<<20 {
		t.Fatalf("engine %+v, %d samples, peak %d", res.Engine, res.EngineSamples, res.EngineRSSPeakBytes)
	}
}
