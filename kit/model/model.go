// Package model is the FIFO and reader arithmetic behind the experiment: what a
// condition should show if the host behaves as the physics says. The kit prints it
// beside the measurement, so a user sees at once whether their host did.
//
// A reader bounded at R bytes/s reads a run's T log bytes in no less than T/R seconds
// from the first record. When the offered bytes/s exceed R, the FIFO (capacity C) fills:
//   - with a queue, responses keep their schedule; the last response comes at the end of
//     the load and the logs are read at T/R, so the drain is T/R minus the load;
//   - with synchronous writes, a response waits until its record is in the pipe; the last
//     record gets in when T-C bytes are read, at (T-C)/R, so the drain is C/R.
//
// Either way throughput to all logs read is bounded by R / bytes per request.
package model

import (
	"math"
	"time"

	"github.com/logbench/logbench/kit/logmode"
)

// Inputs describe one condition.
type Inputs struct {
	Mode              logmode.Mode
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
	LastResponseS        float64 // from the first scheduled send
	LogsReadS            float64
	ReaderBoundBytesPerS float64
}

// Predict applies the model.
func Predict(in Inputs) Prediction {
	bpr := float64(in.Mode.BytesPerRequest())
	p := Prediction{OfferedBytesPerSec: bpr * in.Rate, ReaderBoundBytesPerS: float64(in.ReaderBytesPerSec), BacklogMaxBytes: nan()}
	if in.ReaderBytesPerSec <= 0 || bpr == 0 || in.Count == 0 {
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
		}
	}
	p.DrainS = p.LogsReadS - p.LastResponseS
	p.RPSToLastResponse = float64(in.Count) / max(D, p.LastResponseS)
	p.RPSToLogsRead = float64(in.Count) / max(D, p.LogsReadS)
	return p
}

func nan() float64 { return math.NaN() }
