// Package loadgen offers open-loop HTTP load: requests leave on a fixed schedule
// whether or not earlier ones have finished, each on a new TCP connection, and latency
// is measured from the scheduled send time, so a stalled server cannot hide its stall
// (no coordinated omission).
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
}

// Interval is the time between two scheduled sends.
func (p Plan) Interval() time.Duration { return time.Duration(float64(time.Second) / p.Rate) }

// Offer sends plan's requests on schedule and returns once every one has finished,
// in schedule order. A failed request is an observation, never an abort.
func Offer(ctx context.Context, plan Plan) []contract.Observation {
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
	sleeper, err := clock.NewSleeper()
	if err != nil {
		// No timerfd: fall back to the runtime's timers, up to a millisecond late (the
		// send lag of every observation shows it).
		sleeper = nil
	} else {
		defer sleeper.Close()
	}
	for i := range plan.Count {
		at := plan.Start.Add(offsets[i])
		if sleeper != nil {
			sleeper.SleepUntil(ctx, at)
		} else if wait := time.Until(at); wait > 0 {
			select {
			case <-time.After(wait):
			case <-ctx.Done():
			}
		}
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
