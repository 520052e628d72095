// Package calibrate measures the instrument itself on the target engine, inside the same
// limits as the experiment: the load generator's send lag at the configured rate, its
// clock and timers, the slow reader's achieved rate, the pipe capacity, the kit's own
// per-run overhead, and the load generator's capacity.
package calibrate

import (
	"context"
	"fmt"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/contract/stats"
	"github.com/logbench/logbench/kit/host/bench"
	"github.com/logbench/logbench/kit/incontainer/logmode"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// Options size the calibration.
type Options struct {
	LagRun    time.Duration // the send-lag run at the configured rate
	ReaderRun time.Duration // the saturated slow-reader run
	// The capacity sweep: rising rates, each offered for Step, on CapacityCPUs for the
	// load generator and the API.
	Rates        []float64
	Step         time.Duration
	Trials       int
	CapacityCPUs float64
	LagBound     time.Duration
}

// Defaults are what `logbench calibrate` and `reproduce` use.
var Defaults = Options{
	LagRun:       5 * time.Second,
	ReaderRun:    4 * time.Second,
	Rates:        []float64{500, 1000, 2000, 4000, 6000, 8000, 12000, 16000},
	Step:         2 * time.Second,
	Trials:       3,
	CapacityCPUs: 1,
	LagBound:     time.Millisecond,
}

// Run calibrates with the Go images of runner (its API image must be the Go API: the
// sweep needs a server that keeps up). Runs that fail are an error: an instrument that
// cannot calibrate should not be trusted.
func Run(ctx context.Context, runner *bench.Runner, o Options) (bundle.Calibration, error) {
	c := bundle.Calibration{RateRPS: runner.Settings.Protocol.Rate, CapacityCPUs: o.CapacityCPUs, CapacityLagBoundMs: float64(o.LagBound) / 1e6}
	stamp := time.Now().UTC().Format("150405")

	lagRun := *runner
	lagRun.Settings.Protocol.Duration = o.LagRun
	lagRun.Settings.Protocol.MeasureTimer = true
	rec, err := lagRun.Run(ctx, bench.Condition{API: "go", Mode: logmode.None, Reader: bench.FastReader}, "calibrate-lag-"+stamp)
	if err == nil && rec.Failure != "" {
		err = fmt.Errorf("send-lag run failed: %s", rec.Failure)
	}
	if err != nil {
		return c, err
	}
	rows := bundle.Derive(rec)
	lags := make([]float64, 0, len(rows.Requests))
	for _, q := range rows.Requests {
		lags = append(lags, q.SentMs)
	}
	c.SendLagP50Ms, c.SendLagP99Ms, c.SendLagMaxMs = stats.NearestRank(lags, 50), stats.NearestRank(lags, 99), stats.Max(lags)
	c.RunOverheadS = rows.Run.OverheadS
	if t := rec.Result.Timer; t != nil {
		c.ClockResolutionNs, c.SleepOvershootP50Us, c.SleepOvershootP99Us = t.ClockResolutionNs, t.SleepOvershootP50Us, t.SleepOvershootP99Us
	}

	readerRun := *runner
	readerRun.Settings.Protocol.Duration = o.ReaderRun
	rec, err = readerRun.Run(ctx, bench.Condition{API: "go", Mode: logmode.JSONQueue, Reader: bench.SlowReader}, "calibrate-reader-"+stamp)
	if err == nil && rec.Failure != "" {
		err = fmt.Errorf("reader run failed: %s", rec.Failure)
	}
	if err != nil {
		return c, err
	}
	rows = bundle.Derive(rec)
	c.ReaderBoundBytesPerS, _ = bench.ReaderRate(bench.SlowReader)
	c.ReaderAchievedBytesPerS = rows.Run.ReaderRateBytesPerS
	c.PipeCapacityBytes = rows.Run.PipeCapacityBytes

	limits := runner.Settings.Limits
	limits.APICPUs, limits.LoadgenCPUs = o.CapacityCPUs, o.CapacityCPUs
	sweep, err := runner.Sweep(ctx, contract.SweepParams{Rates: o.Rates, Step: o.Step, MaxLagP99: o.LagBound, Trials: o.Trials}, limits, "calibrate-sweep-"+stamp)
	if err != nil {
		return c, err
	}
	if sweep.Failure != "" {
		return c, fmt.Errorf("capacity sweep failed: %s", sweep.Failure)
	}
	c.CapacityRPS = sweep.CapacityRPS
	for _, r := range sweep.Rates {
		row := bundle.SweepStepRow{RateRPS: r.RateRPS, Held: r.Held}
		for _, t := range r.Trials {
			row.Errors += t.Errors
			row.LagP99Ms = append(row.LagP99Ms, t.LagP99Ms)
		}
		c.Sweep = append(c.Sweep, row)
	}
	return c, nil
}
