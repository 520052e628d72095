// Package closedloop offers closed-loop HTTP/1.1 load the way autocannon does, for the
// qps experiment (reference/qps-experiment.md): a fixed number of keep-alive
// connections, each with a fixed number of requests in flight, a new request leaving
// as soon as a response has fully arrived. The server's speed sets the rate; what is
// measured is how many requests per second it completes.
//
// The client is an event loop on one thread (epoll, as wrk's), because net/http does
// not pipeline and a goroutine per connection costs the generator CPU the API it loads
// may need (eventloop_linux.go says how much); responses are parsed by a small parser
// of its own (response.go). Each connection writes its first Pipelining requests at
// once, then one more after each response.
//
// The figures follow autocannon's definitions where it has one: requests per second is
// the mean of the counts of responses completed in each second of the measured
// interval, and latency runs from a request's send to the last byte of its response.
// The generator also reports its own CPU time over the measured interval, so that a
// caller can tell whether the generator, not the server, was the bottleneck.
package closedloop

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/contract/stats"
)

// Defaults and rules.
const (
	// DefaultTimeout is autocannon's: a response must be complete this long after its
	// request was sent, or the request counts as a timeout. The conductor's -timeout
	// defaults to it (contract.QPSLoadArgs).
	DefaultTimeout = contract.ClosedLoopTimeout
	// RedialDelay is the pause after a failed connect, so that a refusing server does
	// not turn the generator into a busy loop.
	RedialDelay = 10 * time.Millisecond
)

// Params are one closed-loop load.
type Params struct {
	URL         string        // http://host[:port]/path; only plain HTTP
	Connections int           // keep-alive connections, all open at once
	Pipelining  int           // requests in flight on each connection
	Warmup      time.Duration // load before the measured interval, not counted
	Duration    time.Duration // the measured interval
	Timeout     time.Duration // per request, from its send; 0 means DefaultTimeout
	// CPULimitCores is the CPU the generator may use (e.g. its container's limit);
	// 0 means GOMAXPROCS. The saturation rule compares the generator's CPU with it.
	CPULimitCores float64
	// AtMeasureStart, if set, is called once when the measured interval begins, while
	// the load goes on (e.g. to reset the server's counters after the warm-up). It is
	// not called if the load ends in its warm-up.
	AtMeasureStart func()

	// maxRequests, when positive, stops sending after that many requests in all
	// phases (benchmarks only).
	maxRequests int64
}

// target is a parsed Params.URL.
type target struct {
	addr    string // host:port to dial
	request []byte // one request, as written
}

func parseTarget(raw string) (target, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return target{}, err
	}
	if u.Scheme != "http" {
		return target{}, fmt.Errorf("url %q: only http:// is supported", raw)
	}
	if u.Host == "" {
		return target{}, fmt.Errorf("url %q: no host", raw)
	}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), "80")
	}
	// The smallest keep-alive request, as autocannon sends it.
	req := "GET " + u.RequestURI() + " HTTP/1.1\r\nHost: " + u.Host + "\r\n\r\n"
	return target{addr: addr, request: []byte(req)}, nil
}

func (p Params) validate() (target, error) {
	switch {
	case p.Connections < 1:
		return target{}, fmt.Errorf("connections %d: need at least 1", p.Connections)
	case p.Pipelining < 1:
		return target{}, fmt.Errorf("pipelining %d: need at least 1", p.Pipelining)
	case p.Duration <= 0:
		return target{}, fmt.Errorf("duration %v: need more than 0", p.Duration)
	case p.Warmup < 0:
		return target{}, fmt.Errorf("warmup %v: need 0 or more", p.Warmup)
	case p.Timeout < 0:
		return target{}, fmt.Errorf("timeout %v: need 0 or more", p.Timeout)
	case p.CPULimitCores < 0:
		return target{}, fmt.Errorf("cpu limit %v: need 0 or more", p.CPULimitCores)
	}
	return parseTarget(p.URL)
}

// Run offers p's load and returns what it measured. Failed requests are observations,
// never an abort: the error is for invalid parameters (nothing was sent) or a ctx
// ended early (the result then covers the interval up to that moment).
func Run(ctx context.Context, p Params) (contract.ClosedLoopResult, error) {
	tg, err := p.validate()
	if err != nil {
		return contract.ClosedLoopResult{}, err
	}
	if p.Timeout == 0 {
		p.Timeout = DefaultTimeout
	}
	loadCtx, stop := context.WithCancel(ctx)
	defer stop()

	start := time.Now()
	sh := &shared{
		p:      p,
		tg:     tg,
		from:   start.Add(p.Warmup),
		to:     start.Add(p.Warmup + p.Duration),
		budget: p.maxRequests,
	}
	workers := make([]*worker, p.Connections)
	for i := range workers {
		workers[i] = &worker{sh: sh}
	}
	allDone := make(chan struct{})
	go func() {
		defer close(allDone)
		sh.drive(loadCtx, workers)
	}()

	// The measured interval starts after the warm-up and ends at its end, at the end
	// of ctx, or when every connection has stopped (a request budget), whichever is
	// first.
	var cpuFrom, cpuTo time.Duration
	to := sh.to
	if waitUntil(ctx, allDone, sh.from) {
		if p.AtMeasureStart != nil {
			p.AtMeasureStart()
		}
		cpuFrom = ownCPU()
		if !waitUntil(ctx, allDone, sh.to) {
			to = time.Now()
		}
		cpuTo = ownCPU()
	} else {
		to = sh.from // ended in the warm-up: an empty interval
	}
	stop()
	<-allDone

	res := summarize(p, workers, sh.from, to)
	res.GeneratorCPUS = (cpuTo - cpuFrom).Seconds()
	res.GOMAXPROCS = runtime.GOMAXPROCS(0)
	res.GeneratorCPULimitCores = float64(res.GOMAXPROCS)
	if p.CPULimitCores > 0 {
		res.GeneratorCPULimitCores = min(p.CPULimitCores, res.GeneratorCPULimitCores)
	}
	res.GeneratorCPULimitCores = min(res.GeneratorCPULimitCores, float64(p.Connections))
	if res.MeasuredS > 0 {
		res.GeneratorCPUCores = res.GeneratorCPUS / res.MeasuredS
	}
	if res.Requests > 0 {
		res.GeneratorCPUNsPerRequest = float64(cpuTo-cpuFrom) / float64(res.Requests)
	}
	res.GeneratorSaturated = res.GeneratorCPUCores >= contract.SaturationShare*res.GeneratorCPULimitCores
	return res, ctx.Err()
}

// waitUntil waits for t; false if ctx ended or every worker stopped first.
func waitUntil(ctx context.Context, allDone <-chan struct{}, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return true
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	case <-allDone:
		return false
	}
}

// ownCPU is the process's user + system CPU time so far.
func ownCPU() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// shared is what every connection's goroutine reads.
type shared struct {
	p        Params
	tg       target
	from, to time.Time // the measured interval, as planned
	budget   int64     // requests left to send when maxRequests is set
	errOnce  sync.Once
	errFirst string
}

// take reserves one request to send; false once a request budget is spent.
func (s *shared) take() bool {
	return s.p.maxRequests <= 0 || atomic.AddInt64(&s.budget, -1) >= 0
}

func (s *shared) noteError(err error) {
	s.errOnce.Do(func() { s.errFirst = err.Error() })
}

// worker is what one connection observed (across its redials). Only the event loop
// writes it, and it is read after the loop has ended.
type worker struct {
	sh *shared

	// Completions in the measured interval: offset of the last byte from the start of
	// the interval and latency, both in nanoseconds, and status.
	doneAt  []int64
	latency []int64
	status  []int16

	errors, timeouts, warmup int64
	connects, bytes          int64
	sent, responses          int64
	inFlight                 int64
}

func (w *worker) countTimeouts(at time.Time, n int) {
	if !at.Before(w.sh.from) && at.Before(w.sh.to) {
		w.timeouts += int64(n)
	}
}

func (w *worker) fail(at time.Time, err error, n int) {
	w.sh.noteError(err)
	switch {
	case at.Before(w.sh.from):
		w.warmup += int64(n)
	case at.Before(w.sh.to):
		w.errors += int64(n)
	}
}

func (w *worker) complete(done time.Time, latency time.Duration, status int) {
	w.responses++
	if done.Before(w.sh.from) || !done.Before(w.sh.to) {
		return
	}
	w.doneAt = append(w.doneAt, int64(done.Sub(w.sh.from)))
	w.latency = append(w.latency, int64(latency))
	w.status = append(w.status, int16(status))
}

// summarize merges the workers' observations over the measured interval [from, to).
func summarize(p Params, workers []*worker, from, to time.Time) contract.ClosedLoopResult {
	res := contract.ClosedLoopResult{
		URL:         p.URL,
		Connections: p.Connections,
		Pipelining:  p.Pipelining,
		WarmupS:     p.Warmup.Seconds(),
		DurationS:   p.Duration.Seconds(),
		StartUnixNs: from.UnixNano(),
	}
	measured := max(to.Sub(from), 0)
	res.MeasuredS = measured.Seconds()
	bins := int((measured + time.Second - 1) / time.Second)
	res.RequestsPerSecond = make([]int64, bins)
	var lat []float64
	first := workers[0].sh
	for _, w := range workers {
		res.Errors += w.errors
		res.Timeouts += w.timeouts
		res.WarmupErrors += w.warmup
		res.Connects += w.connects
		res.BytesRead += w.bytes
		res.SentTotal += w.sent
		res.ResponsesTotal += w.responses
		res.InFlightAtEnd += w.inFlight
		for i, at := range w.doneAt {
			if at >= int64(measured) { // after an interrupted interval's end
				continue
			}
			res.RequestsPerSecond[at/int64(time.Second)]++
			lat = append(lat, float64(w.latency[i])/1e6)
			if st := w.status[i]; st >= 200 && st < 300 {
				res.Status2xx++
			} else {
				res.Non2xx++
			}
		}
	}
	res.ErrorSample = first.errFirst
	res.Requests = int64(len(lat))
	if measured > 0 {
		res.RequestsPerSInterval = float64(res.Requests) / measured.Seconds()
	}
	whole := int(measured / time.Second)
	if whole == 0 {
		res.RequestsPerSMean = res.RequestsPerSInterval
	} else {
		counts := make([]float64, whole)
		for i := range counts {
			counts[i] = float64(res.RequestsPerSecond[i])
		}
		res.RequestsPerSMean = stats.Mean(counts)
		res.RequestsPerSStdev = stats.PopulationStdev(counts)
	}
	if len(lat) > 0 {
		res.LatencyMeanMs = stats.Mean(lat)
		res.LatencyP50Ms = stats.NearestRank(lat, 50)
		res.LatencyP90Ms = stats.NearestRank(lat, 90)
		res.LatencyP99Ms = stats.NearestRank(lat, 99)
		res.LatencyMaxMs = stats.Max(lat)
	}
	return res
}
