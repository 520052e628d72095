package loadgen

import (
	"context"
	"sort"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/contract/stats"
)

// The open loop as a run's measured load, against any service: your-api's foreign one
// (kit/incontainer/foreign) and qps's APIs under its capacity search
// (kit/incontainer/closedloop's conductor).

// The seeds of the open loop's Poisson gaps: the same in every run, so that runs
// differ by the service alone.
const (
	WarmupSeed  = 1
	MeasureSeed = 2
)

// WarmUp offers plan's rate for warmup, not measured, and returns the requests that
// left; every request of it has ended when it returns.
func WarmUp(ctx context.Context, plan Plan, warmup time.Duration) (sent int64) {
	plan.Count = int(plan.Rate * warmup.Seconds())
	if plan.Count == 0 {
		return 0
	}
	plan.Start, plan.Seed = time.Now().Add(5*time.Millisecond), WarmupSeed
	return Sent(Offer(ctx, plan))
}

// Measure offers plan's rate for duration as the measured interval and says what it
// measured, the generator's CPU over it included, and the requests that left.
func Measure(ctx context.Context, plan Plan, duration time.Duration) (r contract.OpenLoopResult, sent int64) {
	plan.Count, plan.Start, plan.FirstSeq, plan.Seed = int(plan.Rate*duration.Seconds()), time.Now().Add(5*time.Millisecond), 1<<32, MeasureSeed
	// The generator's CPU over the measured interval itself: an overloaded service
	// answers the last requests long after it, and the CPU of waiting for them is not of
	// the interval the rate and the CPU are set against (verify holds the CPU to its
	// limit over the interval).
	before := cpuTime()
	var atEnd atomic.Int64
	end := time.AfterFunc(time.Until(plan.Start.Add(duration)), func() { atEnd.Store(int64(cpuTime())) })
	obs := Offer(ctx, plan)
	end.Stop()
	after := time.Duration(atEnd.Load())
	if after == 0 { // interrupted before the interval's end
		after = cpuTime()
	}
	r = Summarize(obs, plan.Rate, duration, plan.Start)
	if plan.Conns != nil {
		r.Connections = plan.Conns.Len()
	}
	r.GeneratorCPUS = (after - before).Seconds()
	return r, Sent(obs)
}

// Sent counts the requests that left.
func Sent(obs []contract.Observation) int64 {
	var n int64
	for _, o := range obs {
		if o.Sent != 0 {
			n++
		}
	}
	return n
}

// Summarize is an open loop's observations as its result: a response counts in the
// second of the schedule in which it completed.
func Summarize(obs []contract.Observation, rate float64, duration time.Duration, start time.Time) contract.OpenLoopResult {
	r := contract.OpenLoopResult{RateRPS: rate, DurationS: duration.Seconds(), StartUnixNs: start.UnixNano(), Scheduled: int64(len(obs))}
	seconds := int(duration.Seconds())
	if float64(seconds) < duration.Seconds() {
		seconds++
	}
	r.RequestsPerSecond = make([]int64, max(seconds, 1))
	var lat, net, lag, queue []float64
	for _, o := range obs {
		if o.Sent != 0 {
			lag = append(lag, float64(o.SendLag())/1e6)
			queue = append(queue, float64(o.QueueWait())/1e6)
		}
		switch {
		case o.Err != "":
			r.Errors++
			if r.ErrorSample == "" {
				r.ErrorSample = o.Err
			}
			continue
		case o.Status < 200 || o.Status > 299:
			r.Non2xx++
		default:
			r.Status2xx++
		}
		lat = append(lat, float64(o.Latency())/1e6)
		net = append(net, float64(o.Latency()-o.SendLag())/1e6)
		sec := min(max(int((o.Done-r.StartUnixNs)/1e9), 0), len(r.RequestsPerSecond)-1)
		r.RequestsPerSecond[sec]++
	}
	sort.Float64s(lat)
	sort.Float64s(net)
	sort.Float64s(lag)
	sort.Float64s(queue)
	if len(lat) > 0 {
		r.LatencyMeanMs, r.LatencyMaxMs = stats.Mean(lat), lat[len(lat)-1]
		r.LatencyP50Ms, r.LatencyP90Ms, r.LatencyP99Ms = stats.NearestRank(lat, 50), stats.NearestRank(lat, 90), stats.NearestRank(lat, 99)
		r.NetLatencyP50Ms, r.NetLatencyP99Ms = stats.NearestRank(net, 50), stats.NearestRank(net, 99)
	}
	if len(lag) > 0 {
		r.SendLagP50Ms, r.SendLagP99Ms, r.SendLagMaxMs = stats.NearestRank(lag, 50), stats.NearestRank(lag, 99), lag[len(lag)-1]
		r.QueueWaitP99Ms = stats.NearestRank(queue, 99)
	}
	return r
}

// cpuTime is this process's CPU time (user + system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
