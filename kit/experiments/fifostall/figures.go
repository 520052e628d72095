package fifostall

import (
	"math"

	"github.com/logbench/logbench/kit/offline/bundle"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/contract/stats"
)

// DefaultMaxSendLagP99Ms is the send-lag bound of a bundle whose manifest records none
// (kits before the bound was written into the manifest wrote 0 there).
const DefaultMaxSendLagP99Ms = 1.0

// RunFigures derives every figure of a run from the run's rows in the other files. It
// is the one definition of a run's figures: saving a bundle and verifying one both
// call it, so what verify recomputes is exactly what was written. Identity, the proof
// of the log bytes and the run's times are observed, not derived, and are kept from
// run. maxSendLagP99Ms is the manifest's bound (parameters.max_send_lag_p99_ms).
func RunFigures(run RunRow, requests []RequestRow, containers []ContainerRow, timeline []TimelineRow, maxSendLagP99Ms float64) RunRow {
	latencies := make([]float64, 0, len(requests))
	lags := make([]float64, 0, len(requests))
	var gens, calls, allGens, allCalls []float64
	errors := 0
	for _, q := range requests {
		latencies = append(latencies, q.LatencyMs)
		lags = append(lags, q.SentMs)
		allGens, allCalls = append(allGens, q.SpanGenerateUs), append(allCalls, q.SpanLogCallUs)
		// A request the API reported no span for has spans of 0: the means are over
		// the requests that have one, or over all when none has (mode none's spans
		// are all 0).
		if q.SpanGenerateUs != 0 || q.SpanLogCallUs != 0 {
			gens, calls = append(gens, q.SpanGenerateUs), append(calls, q.SpanLogCallUs)
		}
		// No status (no response) is an error, as 0 was in bundles written before.
		if !q.Status.Present() || !contract.RequestOK(int(q.Status), q.Error) {
			errors++
		}
	}
	if len(gens) == 0 {
		gens, calls = allGens, allCalls
	}
	run.Requests = len(requests)
	run.Errors = errors
	run.P50Ms = bundle.Opt(stats.NearestRank(latencies, 50))
	run.P99Ms = bundle.Opt(stats.NearestRank(latencies, 99))
	run.MeanMs = bundle.Opt(stats.Mean(latencies))
	run.MaxMs = bundle.Opt(stats.Max(latencies))
	run.SendLagP99Ms = bundle.Opt(stats.NearestRank(lags, 99))
	run.SendLagTrusted = SendLagTrusted(float64(run.SendLagP99Ms), maxSendLagP99Ms)
	run.HostNoisy = HostNoisy(float64(run.HostStealPct), float64(run.HostCPUPressurePct))
	run.SpanGenerateMeanUs = bundle.Opt(stats.Mean(gens))
	run.SpanLogCallMeanUs = bundle.Opt(stats.Mean(calls))

	var generated, read []contract.Sample
	for _, t := range timeline {
		s := contract.Sample{UnixNano: OffsetNanos(t.OffsetS), Bytes: t.Bytes}
		switch t.Series {
		case SeriesGenerated:
			generated = append(generated, s)
		case SeriesRead:
			read = append(read, s)
		}
	}
	run.BacklogMaxBytes = BacklogMax(generated, read)
	run.ReaderRateBytesPerS = readRate(read)

	run.APICPUCores, run.APICPUThrottledPeriods = 0, 0
	for _, c := range containers {
		if c.Role == "api" {
			run.APICPUCores, run.APICPUThrottledPeriods = c.CPUCores, c.CPUThrottled
			break
		}
	}
	return run
}

// SendLagTrusted is the rule for a run's latencies: trusted when the load generator's
// send lag (p99) stayed within the bound. A run with no request is not trusted.
func SendLagTrusted(lagP99Ms, boundMs float64) bool {
	return !math.IsNaN(lagP99Ms) && lagP99Ms <= boundMs
}

// The thresholds of a noisy host, over a run: a run during which the hypervisor stole
// more than NoisyStealPct of the host's CPU time, or some runnable task waited for a CPU
// more than NoisyCPUPressurePct of the wall time, was measured on a host busy enough to
// delay the load generator's wake-ups. Its figures are still data; the flag says why
// its send lag may be high.
const (
	NoisyStealPct       = 5.0
	NoisyCPUPressurePct = 20.0
)

// HostNoisy is the rule for a noisy host (absent figures are not noise).
func HostNoisy(stealPct, cpuPressurePct float64) bool {
	return stealPct > NoisyStealPct || cpuPressurePct > NoisyCPUPressurePct
}

// ResolutionFactor is how many times the instrument's own error a latency figure must
// be to stand as measured: a p99 below ResolutionFactor x the send-lag p99 of the runs
// it pools is within a few times the load generator's lateness (a 3 ms p99 measured
// with 1 ms of lag is not a 3 ms fact), and is shown as not resolved ("~").
const ResolutionFactor = 5.0

// Resolved is the rule: figureMs is at least ResolutionFactor x lagMs. An absent figure
// or lag is not resolved.
func Resolved(figureMs, lagMs float64) bool {
	return !math.IsNaN(figureMs) && !math.IsNaN(lagMs) && figureMs >= ResolutionFactor*lagMs
}

// The series of timeline.csv.
const (
	SeriesGenerated = "generated" // the API's cumulative log bytes, one sample per record
	SeriesRead      = "read"      // the reader's, one sample per read
)

// OffsetNanos turns a timeline offset back into nanoseconds. Offsets are nanoseconds
// divided by 1e9: rounding back gives the exact nanosecond, so samples order as they
// did when the run was derived.
func OffsetNanos(offsetS float64) int64 { return int64(math.Round(offsetS * 1e9)) }
