package conductor

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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
