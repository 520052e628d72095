package model

import (
	"math"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/contract/stats"
)

// The published setup: 160 requests of 16 KiB at 20 req/s for 8 s, a 256 KiB/s reader,
// a 64 KiB pipe.
func published(mode contract.LogMode) Inputs {
	return Inputs{Mode: mode, ReaderBytesPerSec: 256 << 10, Rate: 20, Duration: 8 * time.Second, Count: 160, PipeCapacityBytes: 64 << 10}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestQueuedModeDrainsAfterTheLoad(t *testing.T) {
	p := Predict(published(contract.ModeJSONQueue))
	// 2,560 KiB at 256 KiB/s is read at 10 s; the last request is scheduled at 7.95 s.
	if !p.Applies || !p.Saturated || !near(p.LogsReadS, 10) || !near(p.DrainS, 2.05) {
		t.Fatalf("prediction %+v", p)
	}
	if !near(p.RPSToLastResponse, 20) || !near(p.RPSToLogsRead, 16) {
		t.Fatalf("throughputs %v, %v; want 20, 16", p.RPSToLastResponse, p.RPSToLogsRead)
	}
	// 64 KiB/s more than is read, for 7.95 s, plus one record.
	if !near(p.BacklogMaxBytes, 65536*7.95+16384) {
		t.Fatalf("backlog %v", p.BacklogMaxBytes)
	}
}

func TestSynchronousModeWaitsForThePipe(t *testing.T) {
	p := Predict(published(contract.ModeJSONSync))
	// The last record enters the pipe when 2,496 KiB are read: 9.75 s; the pipe's
	// 64 KiB drain in 0.25 s, the published synchronous drain.
	if !near(p.LastResponseS, 9.75) || !near(p.DrainS, 0.25) {
		t.Fatalf("prediction %+v", p)
	}
	if !near(p.RPSToLastResponse, 160/9.75) || !near(p.RPSToLogsRead, 16) {
		t.Fatalf("throughputs %v, %v", p.RPSToLastResponse, p.RPSToLogsRead)
	}
	if !math.IsNaN(p.BacklogMaxBytes) {
		t.Fatal("no backlog prediction for synchronous writes")
	}
	// The p99 is request 159 of 160 (from 1): in the pipe at (159 x 16 KiB - 64 KiB) /
	// 256 KiB/s = 9.6875 s, scheduled at 7.9 s.
	if !near(p.P99Ms, 1787.5) {
		t.Fatalf("p99 %v ms", p.P99Ms)
	}
}

func TestShortLinesStayBelowTheBound(t *testing.T) {
	p := Predict(published(contract.ModeShort10)) // 25 KiB/s
	if !p.Applies || p.Saturated || p.DrainS != 0 || !near(p.RPSToLogsRead, 20) {
		t.Fatalf("prediction %+v", p)
	}
}

func TestNoPredictionWithoutABoundOrALog(t *testing.T) {
	fast := published(contract.ModeJSONSync)
	fast.ReaderBytesPerSec = 0
	if Predict(fast).Applies || Predict(published(contract.ModeJSONOnly)).Applies {
		t.Fatal("the model does not apply")
	}
}

// TestTheP99IsTheNearestRankOfEveryLatency: the p99 computed from the request at its
// rank is the nearest-rank p99 of every request's latency, listed and sorted, over
// rates, readers, pipes and counts; and a count a manifest could give (billions)
// allocates nothing.
func TestTheP99IsTheNearestRankOfEveryLatency(t *testing.T) {
	for _, rate := range []float64{5, 20, 97.5, 400} {
		for _, reader := range []int64{16 << 10, 256 << 10, 1 << 20} {
			for _, pipe := range []int64{4 << 10, 64 << 10} {
				for _, count := range []int{1, 2, 99, 100, 101, 160, 1234} {
					in := Inputs{Mode: contract.ModeJSONSync, ReaderBytesPerSec: reader, Rate: rate, Duration: time.Duration(float64(count) / rate * float64(time.Second)),
						Count: count, PipeCapacityBytes: pipe}
					p := Predict(in)
					if !p.Saturated {
						continue
					}
					bpr, R := float64(in.Mode.BytesPerRequest()), float64(reader)
					latencies := make([]float64, count)
					for k := range count {
						latencies[k] = 1000 * max(0, (float64(k+1)*bpr-float64(pipe))/R-float64(k)/rate)
					}
					if want := stats.NearestRank(latencies, 99); math.Abs(p.P99Ms-want) > 1e-9*math.Max(1, want) {
						t.Errorf("%+v: p99 %v, want %v", in, p.P99Ms, want)
					}
				}
			}
		}
	}
	huge := Inputs{Mode: contract.ModeJSONSync, ReaderBytesPerSec: 256 << 10, Rate: 1e9, Duration: 8 * time.Second, Count: 8e9, PipeCapacityBytes: 64 << 10}
	if n := testing.AllocsPerRun(3, func() { Predict(huge) }); n > 0 {
		t.Errorf("%v allocations for %d requests", n, huge.Count)
	}
	if p := Predict(Inputs{Mode: contract.ModeJSONSync, ReaderBytesPerSec: 256 << 10, Rate: 20, Count: -5}); p.Applies {
		t.Errorf("a negative count: %+v", p)
	}
}
