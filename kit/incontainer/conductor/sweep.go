package conductor

import (
	"context"
	"fmt"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/contract/stats"
	"github.com/logbench/logbench/kit/incontainer/loadgen"
)

// Sweep warms up, then offers each rate for one step per trial, in order, and stops
// after the first rate that is not held.
func (c *Conductor) Sweep(ctx context.Context, p contract.SweepParams) contract.SweepResult {
	res := contract.SweepResult{Params: p}
	if err := c.waitReady(ctx); err != nil {
		res.Failure = fmt.Sprintf("waiting for %s: %v", c.awaited(), err)
		return res
	}
	if len(p.Rates) > 0 {
		// A warm-up at the first rate, not counted: the first seconds of a fresh pod
		// (processes paging in their binaries, heaps growing) are not the steady state.
		c.say("sweep: warm-up")
		c.sweepStep(ctx, p.Rates[0], p)
	}
	trials := max(1, p.Trials)
	for _, rate := range p.Rates {
		r := contract.SweepRate{RateRPS: rate}
		held := 0
		for range trials {
			c.say("sweep: %g req/s", rate)
			step := c.sweepStep(ctx, rate, p)
			r.Trials = append(r.Trials, step)
			if step.Held {
				held++
			}
		}
		r.Held = 2*held > trials
		res.Rates = append(res.Rates, r)
		if !r.Held || ctx.Err() != nil {
			break
		}
		res.CapacityRPS = rate
	}
	return res
}

func (c *Conductor) sweepStep(ctx context.Context, rate float64, p contract.SweepParams) contract.SweepStep {
	count := int(rate*p.Step.Seconds() + 0.5)
	obs := loadgen.Offer(ctx, loadgen.Plan{URL: c.WorkloadURL, Rate: rate, Count: count, Start: time.Now().Add(20 * time.Millisecond), Timeout: contract.SweepRequestTimeout})
	step := contract.SweepStep{RateRPS: rate, Requests: len(obs)}
	lags, lat := make([]float64, 0, len(obs)), make([]float64, 0, len(obs))
	for _, o := range obs {
		if !o.OK() {
			step.Errors++
		}
		lags = append(lags, float64(o.SendLag())/1e6)
		lat = append(lat, float64(o.Latency())/1e6)
	}
	step.LagP50Ms, step.LagP99Ms, step.LatencyP99Ms = stats.NearestRank(lags, 50), stats.NearestRank(lags, 99), stats.NearestRank(lat, 99)
	step.Held = step.Errors == 0 && step.LagP99Ms <= float64(p.MaxLagP99)/1e6
	return step
}
