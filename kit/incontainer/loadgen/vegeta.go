package loadgen

import (
	"context"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/logbench/logbench/kit/contract"
)

// Vegeta offers url rate requests a second for duration with vegeta's own attacker
// (keep-alive, connections as the kit's open loop has) and says what vegeta's metrics
// measured: an open loop written by others, to hold the kit's against. It returns once
// every response is in, or ctx ends.
func Vegeta(ctx context.Context, url string, rate float64, duration time.Duration, connections int, timeout time.Duration) contract.VegetaRun {
	out := contract.VegetaRun{RateRPS: rate, DurationS: duration.Seconds(), Connections: connections}
	attacker := vegeta.NewAttacker(vegeta.KeepAlive(true), vegeta.Connections(connections), vegeta.MaxConnections(connections), vegeta.Timeout(timeout))
	targeter := vegeta.NewStaticTargeter(vegeta.Target{Method: "GET", URL: url})
	pacer := vegeta.ConstantPacer{Freq: int(rate + 0.5), Per: time.Second}
	var m vegeta.Metrics
	results := attacker.Attack(targeter, pacer, duration, "logbench")
	for {
		select {
		case <-ctx.Done():
			attacker.Stop()
			for range results { // the attacker closes it once its workers have stopped
			}
			out.Failure = "interrupted"
			return out
		case r, ok := <-results:
			if !ok {
				m.Close()
				out.Requests, out.Success, out.ThroughputRPS = m.Requests, m.Success, m.Throughput
				ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
				out.P50Ms, out.P90Ms, out.P99Ms, out.MaxMs = ms(m.Latencies.P50), ms(m.Latencies.P90), ms(m.Latencies.P99), ms(m.Latencies.Max)
				if len(m.Errors) > 0 {
					out.ErrorSample = m.Errors[0]
				}
				return out
			}
			m.Add(r)
		}
	}
}
