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
		if !f.stalled {
			f.readUpTo = len(f.generated)
		}
		read := append([]byte(nil), f.generated[:f.readUpTo]...)
		if f.corrupt && len(read) > 0 {
			read[0] ^= 1
		}
		st := contract.ReaderStatus{Counts: f.counts(read)}
		switch r.URL.Path {
		case contract.PathStatus:
			write(w, st)
		case contract.PathReport:
			write(w, contract.ReaderReport{ReaderStatus: st, Read: []contract.Sample{{UnixNano: time.Now().UnixNano(), Bytes: int64(len(read))}}})
		}
	}))
	workload = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.generated = append(f.generated, []byte(strings.Repeat("x", 99)+"\n")...)
		f.mu.Unlock()
		w.Write([]byte("{}"))
	}))
	t.Cleanup(func() { api.Close(); reader.Close(); workload.Close() })
	return api, reader, workload
}

func (f *fakePod) run(t *testing.T, maxRunTime time.Duration) contract.Result {
	api, reader, workload := f.servers(t)
	c := &Conductor{
		API:         &control.Client{Base: api.URL, HTTP: api.Client()},
		Reader:      &control.Client{Base: reader.URL, HTTP: reader.Client()},
		WorkloadURL: workload.URL,
		Poll:        5 * time.Millisecond,
	}
	return c.Run(context.Background(), contract.RunParams{Rate: 50, Duration: 200 * time.Millisecond, WarmupCount: 2,
		RequestTimeout: time.Second, MaxRunTime: maxRunTime})
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
