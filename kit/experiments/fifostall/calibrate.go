package fifostall

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/contract/stats"
	"github.com/logbench/logbench/kit/experiment"
)

// CalibrateOptions size the calibration of the instrument: the load generator's send
// lag at the configured rate, its clock and timers, the slow reader's achieved rate, the
// pipe capacity, the kit's own per-run overhead, and the load generator's capacity.
type CalibrateOptions struct {
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

// CalibrateDefaults are what `logbench calibrate` and `reproduce` use.
var CalibrateDefaults = CalibrateOptions{
	LagRun:       5 * time.Second,
	ReaderRun:    4 * time.Second,
	Rates:        []float64{500, 1000, 2000, 4000, 6000, 8000, 12000, 16000},
	Step:         2 * time.Second,
	Trials:       3,
	CapacityCPUs: 1,
	LagBound:     time.Millisecond,
}

// Calibrate measures the instrument on pods with the Go images (images must hold "api",
// "reader" and "loadgen": the sweep needs a server that keeps up), inside the plan's
// limits. Runs that fail are an error: an instrument that cannot calibrate should not be
// trusted.
func Calibrate(ctx context.Context, pods experiment.Pods, s Settings, images map[string]string, o CalibrateOptions) (Calibration, error) {
	c := Calibration{RateRPS: s.Protocol.Rate, CapacityCPUs: o.CapacityCPUs, CapacityLagBoundMs: float64(o.LagBound) / 1e6}
	stamp := time.Now().UTC().Format("150405")
	one := func(what string, s Settings, cond Cond) (Rows, *contract.Result, error) {
		run, err := experiment.Perform(ctx, pods, s.Pod(cond, "calibrate-"+what+"-"+stamp, images), io.Discard)
		run.Condition, run.Round, run.Position = cond, 1, 1
		rec := Record(run, float64(s.MaxSendLagP99)/1e6)
		if err == nil && rec.Failure != "" {
			err = fmt.Errorf("%s run failed: %s", what, rec.Failure)
		}
		return Derive(rec), &rec.Result, err
	}

	lag := s
	lag.Protocol.Duration, lag.Protocol.MeasureTimer = o.LagRun, true
	rows, res, err := one("lag", lag, Cond{GoAPI, string(contract.ModeNone), FastReader})
	if err != nil {
		return c, err
	}
	lags := make([]float64, 0, len(rows.Requests))
	for _, q := range rows.Requests {
		lags = append(lags, q.SentMs)
	}
	c.SendLagP50Ms, c.SendLagP99Ms, c.SendLagMaxMs = stats.NearestRank(lags, 50), stats.NearestRank(lags, 99), stats.Max(lags)
	c.RunOverheadS = rows.Run.OverheadS
	if t := res.Timer; t != nil {
		c.ClockResolutionNs, c.SleepOvershootP50Us, c.SleepOvershootP99Us = t.ClockResolutionNs, t.SleepOvershootP50Us, t.SleepOvershootP99Us
	}

	reader := s
	reader.Protocol.Duration = o.ReaderRun
	if rows, _, err = one("reader", reader, Cond{GoAPI, string(contract.ModeJSONQueue), SlowReader}); err != nil {
		return c, err
	}
	c.ReaderBoundBytesPerS, _ = ReaderRate(SlowReader)
	c.ReaderAchievedBytesPerS = rows.Run.ReaderRateBytesPerS
	c.PipeCapacityBytes = rows.Run.PipeCapacityBytes

	sweep, err := Sweep(ctx, pods, s, images, contract.SweepParams{Rates: o.Rates, Step: o.Step, MaxLagP99: o.LagBound, Trials: o.Trials}, o.CapacityCPUs, "calibrate-sweep-"+stamp)
	if err != nil {
		return c, err
	}
	if sweep.Failure != "" {
		return c, fmt.Errorf("capacity sweep failed: %s", sweep.Failure)
	}
	c.CapacityRPS = sweep.CapacityRPS
	for _, r := range sweep.Rates {
		row := SweepStepRow{RateRPS: r.RateRPS, Held: r.Held}
		for _, t := range r.Trials {
			row.Errors += t.Errors
			row.LagP99Ms = append(row.LagP99Ms, t.LagP99Ms)
		}
		c.Sweep = append(c.Sweep, row)
	}
	return c, nil
}

// Sweep finds the load generator's capacity against the Go API in mode none with a fast
// reader, the load generator and the API given cpus each.
func Sweep(ctx context.Context, pods experiment.Pods, s Settings, images map[string]string, p contract.SweepParams, cpus float64, runID string) (contract.SweepResult, error) {
	rates := make([]string, len(p.Rates))
	for i, rate := range p.Rates {
		rates[i] = fmt.Sprint(rate)
	}
	l := s.Limits
	l.APICPUs, l.LoadgenCPUs = cpus, cpus
	// One Go processor per CPU of the limit: the scheduler spins just before each send,
	// and an idle processor spinning beside a busy one would exceed the CPU quota.
	procs := max(1, int(math.Ceil(l.LoadgenCPUs)))
	lg := contract.DefaultLoadgenArgs()
	lg.Sweep, lg.SweepStep, lg.SweepMaxLag, lg.SweepTrials, lg.GOMAXPROCS = strings.Join(rates, ","), p.Step, p.MaxLagP99, p.Trials, procs
	run, err := experiment.Perform(ctx, pods, s.pod(GoAPI, string(contract.ModeNone), 0, runID, l, images, lg), io.Discard)
	res, perr := sweepResult(run)
	if err != nil {
		return res, err
	}
	return res, perr
}

func durationMs(ms float64) time.Duration { return time.Duration(ms * 1e6) }
