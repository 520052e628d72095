// Package model is the FIFO and reader arithmetic behind the experiment: what a
// condition should show if the host behaves as the physics says. The kit prints it
// beside the measurement, so a user sees at once whether their host did.
//
// A reader bounded at R bytes/s reads a run's T log bytes in no less than T/R seconds
// from the first record. When the offered bytes/s exceed R, the FIFO (capacity C) fills:
//   - with a queue, responses keep their schedule; the last response comes at the end of
//     the load and the logs are read at T/R, so the drain is T/R minus the load;
//   - with synchronous writes, a response waits until its record is in the pipe: record
//     k (from 0) gets in when (k+1)B-C bytes are read, at ((k+1)B-C)/R, where B is the
//     bytes per request. The last one gets in at (T-C)/R, so the drain is C/R, and
//     request k's latency is that time minus its schedule, k/rate: with requests served
//     in arrival order it grows through the run, and the p99 follows.
//
// Either way throughput to all logs read is bounded by R / bytes per request.
package model

import (
	"math"
	"time"

	"github.com/logbench/logbench/kit/contract"
)

// Inputs describe one condition.
type Inputs struct {
	Mode              contract.LogMode
	ReaderBytesPerSec int64 // 0: unbounded
	Rate              float64
	Duration          time.Duration
	Count             int
	PipeCapacityBytes int64
}

// Prediction is what the model expects. Applies is false where the model says nothing
// (an unbounded reader, or a mode that writes no log).
type Prediction struct {
	Applies              bool
	Saturated            bool // offered bytes/s exceed the reader's bound
	OfferedBytesPerSec   float64
	DrainS               float64
	RPSToLastResponse    float64
	RPSToLogsRead        float64
	BacklogMaxBytes      float64 // only for the queued mode when saturated; NaN otherwise
	P99Ms                float64 // only for synchronous modes when saturated; NaN otherwise
	LastResponseS        float64 // from the first scheduled send
	LogsReadS            float64
	ReaderBoundBytesPerS float64
}

// Predict applies the model.
func Predict(in Inputs) Prediction {
	bpr := float64(in.Mode.BytesPerRequest())
	p := Prediction{OfferedBytesPerSec: bpr * in.Rate, ReaderBoundBytesPerS: float64(in.ReaderBytesPerSec), BacklogMaxBytes: nan(), P99Ms: nan()}
	if in.ReaderBytesPerSec <= 0 || bpr == 0 || in.Count <= 0 {
		return p
	}
	p.Applies = true
	R := float64(in.ReaderBytesPerSec)
	total := bpr * float64(in.Count)
	lastScheduled := float64(in.Count-1) / in.Rate
	D := in.Duration.Seconds()
	p.Saturated = p.OfferedBytesPerSec > R
	p.LastResponseS = lastScheduled
	p.LogsReadS = lastScheduled
	if p.Saturated {
		p.LogsReadS = total / R
		if in.Mode.Queued() {
			p.BacklogMaxBytes = (p.OfferedBytesPerSec-R)*lastScheduled + bpr
		} else {
			p.LastResponseS = max(lastScheduled, (total-float64(in.PipeCapacityBytes))/R)
			// Saturated, the latencies never fall from one request to the next: each
			// waits for one record more to be read (B/R) and was sent 1/rate later, and
			// B/R > 1/rate. So the p99 (nearest rank, as stats.NearestRank) is the
			// latency of the request at that rank, computed alone rather than from a
			// list of all Count, which a manifest can make as long as it likes.
			latency := func(k int) float64 {
				scheduled := float64(k) / in.Rate
				inPipe := (float64(k+1)*bpr - float64(in.PipeCapacityBytes)) / R
				return 1000 * max(0, inPipe-scheduled)
			}
			rank := int(math.Ceil(99.0 / 100 * float64(in.Count)))
			p.P99Ms = latency(min(max(rank, 1), in.Count) - 1)
		}
	}
	p.DrainS = p.LogsReadS - p.LastResponseS
	p.RPSToLastResponse = float64(in.Count) / max(D, p.LastResponseS)
	p.RPSToLogsRead = float64(in.Count) / max(D, p.LogsReadS)
	return p
}

func nan() float64 { return math.NaN() }
