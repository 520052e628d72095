package fifostall

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// sampleRecord is a small run with hand-checkable numbers: 4 requests 50 ms apart,
// 16 KiB logged per request, the reader 1 s behind.
func sampleRecord() RunRecord {
	const start = int64(1_800_000_000_000_000_000)
	ms := int64(time.Millisecond)
	res := contract.Result{Params: contract.RunParams{Rate: 20, Duration: 200 * time.Millisecond}, LoadStart: start}
	for i := range int64(4) {
		sched := start + i*50*ms
		res.Requests = append(res.Requests, contract.Observation{Seq: i, Scheduled: sched, Sent: sched + ms/10, Connected: sched + ms/5, FirstByte: sched + (i+1)*ms, Done: sched + (i+2)*ms, Status: 200})
		res.API.Spans = append(res.API.Spans, contract.Span{Seq: i, GenerateNanos: 100_000, LogCallNanos: (i + 1) * 1000})
		res.API.Generated = append(res.API.Generated, contract.Sample{UnixNano: sched + ms, Bytes: (i + 1) * 16384})
	}
	res.LastResponse = start + 3*50*ms + 5*ms // 155 ms
	res.Reader.Read = []contract.Sample{{UnixNano: start + 500*ms, Bytes: 32768}, {UnixNano: start + 1155*ms, Bytes: 65536}}
	res.LogsRead = start + 1155*ms
	counts := res.API.Counters.Written
	counts.Bytes, counts.Lines, counts.SHA256 = 65536, 4, strings.Repeat("ab", 32)
	res.API.Counters.Generated, res.API.Counters.Written, res.Reader.Counts = counts, counts, counts
	res.APIAtReset.UnixNano, res.APIAtLastResponse.UnixNano = start, start+1000*ms
	res.APIAtLastResponse.CPUUsageNanos = 20 * ms
	return RunRecord{RunID: "r1", API: "go", Mode: contract.ModeJSONQueue, Reader: "slow", Round: 1, Position: 1, Result: res}
}

func TestDeriveComputesTheRunFigures(t *testing.T) {
	run := Derive(sampleRecord()).Run
	want := map[string]float64{
		"p50_ms":             3, // latencies 2,3,4,5 ms: element ceil(2) = 3
		"p99_ms":             5, // element ceil(3.96) = 4th
		"mean_ms":            3.5,
		"to_last_response_s": 0.2,   // load duration 0.2 s is later than the last response at 0.155 s
		"to_logs_read_s":     1.155, // logs read at 1.155 s
		"drain_s":            1.0,
		"api_cpu_cores":      0.02,
		"span_log_call_us":   2.5,
		"backlog_max_bytes":  65536, // no read sample precedes the fourth record
	}
	have := map[string]float64{
		"p50_ms": float64(run.P50Ms), "p99_ms": float64(run.P99Ms), "mean_ms": float64(run.MeanMs),
		"to_last_response_s": run.ToLastResponseS, "to_logs_read_s": run.ToLogsReadS, "drain_s": run.DrainS,
		"api_cpu_cores": run.APICPUCores, "span_log_call_us": float64(run.SpanLogCallMeanUs), "backlog_max_bytes": float64(run.BacklogMaxBytes),
	}
	if diff := cmp.Diff(want, have, cmp.Comparer(func(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 })); diff != "" {
		t.Fatalf("run figures (-want +have):\n%s", diff)
	}
	if !run.Verified || run.Requests != 4 || run.Errors != 0 {
		t.Fatalf("run = %+v", run)
	}
}

func TestBacklogUsesThePrecedingReaderSample(t *testing.T) {
	gen := []contract.Sample{{UnixNano: 10, Bytes: 100}, {UnixNano: 20, Bytes: 200}, {UnixNano: 30, Bytes: 300}}
	read := []contract.Sample{{UnixNano: 15, Bytes: 100}, {UnixNano: 30, Bytes: 250}, {UnixNano: 40, Bytes: 300}}
	// At 10: nothing read yet (100). At 20: the sample at 15 (200-100). At 30: the sample at 30 (50).
	if have := BacklogMax(gen, read); have != 100 {
		t.Fatalf("have %d, want 100", have)
	}
}

func TestParseSumsRejectsMalformedLines(t *testing.T) {
	if _, err := bundle.ParseSums([]byte("xyz  runs.csv\n")); err == nil {
		t.Fatal("want an error")
	}
}

// TestARequestWithoutAResponseHasNoStatus: the generator reports status 0 when no
// response came; requests.csv leaves the status empty then, and the run counts the
// request as an error all the same.
func TestARequestWithoutAResponseHasNoStatus(t *testing.T) {
	rec := sampleRecord()
	rec.Result.Requests[1].Status, rec.Result.Requests[1].Err = 0, "timeout"
	rows := Derive(rec)
	if s := rows.Requests[1].Status; s.Present() {
		t.Errorf("no response: status %v, want empty", s)
	}
	if s := rows.Requests[0].Status; s != 200 {
		t.Errorf("a response: status %v", s)
	}
	if rows.Run.Errors != 1 {
		t.Errorf("errors %d, want 1", rows.Run.Errors)
	}
}
