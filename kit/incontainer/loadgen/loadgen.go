// Package loadgen offers open-loop HTTP load: requests are scheduled whether or not
// earlier ones have finished, and latency is measured from the scheduled send time, so
// a stalled server cannot hide its stall (no coordinated omission).
//
// Two ways to carry them: a new TCP connection per request, each sent on its schedule
// from a goroutine of its own (fifo-stall's article does so), or a fixed set of
// keep-alive connections, each with its own share of the schedule (as wrk2 does), which
// costs the generator a fraction of the CPU and is what a capacity search uses.
package loadgen

import (
	"context"
	"io"
	"net/http"
	"net/http/httptrace"
	"strconv"
	"sync"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/incontainer/clock"
)

// Plan is one burst of load.
type Plan struct {
	URL      string
	Rate     float64   // requests per second
	Count    int       // requests to send
	Start    time.Time // scheduled time of the first request
	FirstSeq int64     // sequence number of the first request
	Timeout  time.Duration
	// Arrivals is the arrival process (Constant, the default, or Poisson), Seed the
	// seed of Poisson's gaps.
	Arrivals string
	Seed     uint64
	// Conns, when set, carry the requests on keep-alive connections; nil opens a new
	// connection per request.
	Conns *Conns
}

// Interval is the time between two scheduled sends.
func (p Plan) Interval() time.Duration { return time.Duration(float64(time.Second) / p.Rate) }

// Offer sends plan's requests on schedule and returns once every one has finished,
// in schedule order. A failed request is an observation, never an abort.
func Offer(ctx context.Context, plan Plan) []contract.Observation {
	if plan.Conns != nil {
		return plan.Conns.offer(ctx, plan)
	}
	client := &http.Client{
		Transport: &http.Transport{
			DisableKeepAlives: true, // a new connection per request
		},
		Timeout: plan.Timeout,
	}
	defer client.CloseIdleConnections()
	obs := make([]contract.Observation, plan.Count)
	var wg sync.WaitGroup
	offsets := Offsets(plan.Arrivals, plan.Rate, plan.Count, plan.Seed)
	sleep := newSleep(clock.DefaultSpin)
	defer sleep.close()
	for i := range plan.Count {
		at := plan.Start.Add(offsets[i])
		sleep.until(ctx, at)
		o := &obs[i]
		o.Seq, o.Scheduled = plan.FirstSeq+int64(i), at.UnixNano()
		wg.Add(1)
		go func() {
			defer wg.Done()
			send(ctx, client, plan.URL, o)
		}()
	}
	wg.Wait()
	return obs
}

// Conns are an open loop's keep-alive connections. Request i of a plan goes on
// connection i mod n, which sends it at its scheduled time or, when the previous request
// on it is still out then, as soon as that one ends: latency still counts from the
// schedule, and the wait is the request's QueueWait. Conns are kept from the warm-up into
// the measured load, so the measured load opens none unless the service closes one.
type Conns struct {
	clients []*http.Client
}

// NewConns makes n connections (opened by their first request), each request on them
// bounded by timeout.
func NewConns(n int, timeout time.Duration) *Conns {
	c := &Conns{}
	for range n {
		c.clients = append(c.clients, &http.Client{
			Transport: &http.Transport{MaxIdleConnsPerHost: 1, DisableCompression: true},
			Timeout:   timeout,
		})
	}
	return c
}

// Close closes the connections.
func (c *Conns) Close() {
	for _, client := range c.clients {
		client.CloseIdleConnections()
	}
}

// Len is the number of connections.
func (c *Conns) Len() int { return len(c.clients) }

func (c *Conns) offer(ctx context.Context, plan Plan) []contract.Observation {
	obs := make([]contract.Observation, plan.Count)
	offsets := Offsets(plan.Arrivals, plan.Rate, plan.Count, plan.Seed)
	// The sleeper's spin keeps the woken thread running into the send: without it the
	// kit's own round trip read 0.06-0.13 ms longer than vegeta's beside it on the same
	// server, with it 0.01-0.1 ms shorter (BenchmarkVegetaBeside; qps README). A spin is
	// paid per request, so its CPU is held to a tenth of a core: the whole spin at low
	// rates, less as the rate grows and the generator's threads stay busy anyway.
	spin := min(clock.DefaultSpin, time.Duration(float64(time.Second)*maxSpinShare/plan.Rate))
	var wg sync.WaitGroup
	for first, client := range c.clients {
		wg.Go(func() {
			sleep := newSleep(spin)
			defer sleep.close()
			var free int64 // when the previous request on this connection ended
			for i := first; i < plan.Count; i += len(c.clients) {
				at := plan.Start.Add(offsets[i])
				o := &obs[i]
				o.Seq, o.Scheduled = plan.FirstSeq+int64(i), at.UnixNano()
				if free > o.Scheduled {
					o.Ready = free
				} else {
					sleep.until(ctx, at)
				}
				send(ctx, client, plan.URL, o)
				free = o.Done
			}
		})
	}
	wg.Wait()
	return obs
}

// maxSpinShare is the most of a core the keep-alive connections' spins may take.
const maxSpinShare = 0.1

// sleep waits for a schedule on a timerfd, or on the runtime's timers where there is
// none: up to a millisecond late, which the send lag of every observation shows.
type sleep struct{ s *clock.Sleeper }

func newSleep(spin time.Duration) sleep {
	s, err := clock.NewSleeper()
	if err != nil {
		return sleep{}
	}
	s.Spin = spin
	return sleep{s}
}

func (s sleep) until(ctx context.Context, at time.Time) {
	if s.s != nil {
		s.s.SleepUntil(ctx, at)
		return
	}
	if wait := time.Until(at); wait > 0 {
		select {
		case <-time.After(wait):
		case <-ctx.Done():
		}
	}
}

func (s sleep) close() {
	if s.s != nil {
		s.s.Close()
	}
}

func send(ctx context.Context, client *http.Client, url string, o *contract.Observation) {
	trace := &httptrace.ClientTrace{
		ConnectDone:          func(_, _ string, _ error) { o.Connected = time.Now().UnixNano() },
		GotFirstResponseByte: func() { o.FirstByte = time.Now().UnixNano() },
	}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), http.MethodGet, url, nil)
	if err != nil {
		o.Err, o.Done = err.Error(), time.Now().UnixNano()
		return
	}
	req.Header.Set(contract.SeqHeader, strconv.FormatInt(o.Seq, 10))
	o.Sent = time.Now().UnixNano()
	resp, err := client.Do(req)
	if err == nil {
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		o.Status = resp.StatusCode
	}
	o.Done = time.Now().UnixNano()
	if err != nil {
		o.Err = err.Error()
	}
}
