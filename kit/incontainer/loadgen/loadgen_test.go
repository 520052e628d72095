package loadgen

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// stallingServer answers every request after stall, and counts the connections it
// accepted.
func stallingServer(t *testing.T, stall time.Duration) (*httptest.Server, *atomic.Int64) {
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(stall)
		w.Write([]byte("ok"))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &conns
}

func TestOfferKeepsTheScheduleWhileTheServerStalls(t *testing.T) {
	// The server holds every request for 200 ms; an open-loop client still sends on
	// schedule, and each latency counts from the scheduled time.
	srv, conns := stallingServer(t, 200*time.Millisecond)
	plan := Plan{URL: srv.URL, Rate: 50, Count: 10, Start: time.Now().Add(10 * time.Millisecond), Timeout: 5 * time.Second}
	obs := Offer(context.Background(), plan)
	if len(obs) != 10 {
		t.Fatalf("%d observations", len(obs))
	}
	for i, o := range obs {
		if !o.OK() {
			t.Fatalf("request %d failed: %+v", i, o)
		}
		if want := plan.Start.Add(time.Duration(i) * 20 * time.Millisecond).UnixNano(); o.Scheduled != want {
			t.Fatalf("request %d scheduled %d, want %d", i, o.Scheduled, want)
		}
		// A schedule that waited for the server would send each request only after the
		// previous one's answer, 200 ms after its send; the open loop sends it 20 ms after.
		// So the logical check is the order, not a bound on how late a loaded host sends.
		if o.SendLag() < 0 {
			t.Errorf("request %d left %v before its schedule", i, o.SendLag())
		}
		if i > 0 && o.Sent >= obs[i-1].Done {
			t.Errorf("request %d left after request %d was answered: the schedule waited for the server", i, i-1)
		}
		if o.Latency() < 200*time.Millisecond {
			t.Errorf("request %d latency %v is shorter than the stall", i, o.Latency())
		}
		if !(o.Scheduled <= o.Sent && o.Sent <= o.Connected && o.Connected <= o.FirstByte && o.FirstByte <= o.Done) {
			t.Errorf("request %d phases out of order: %+v", i, o)
		}
	}
	if conns.Load() != 10 {
		t.Fatalf("%d connections for 10 requests", conns.Load())
	}
}

func TestKeepAliveConnectionsQueueBehindASlowServerAndCountFromTheSchedule(t *testing.T) {
	// Two keep-alive connections, a request every 20 ms, a server that takes 100 ms: each
	// connection is still busy when its next request is due, so that request leaves when
	// the previous one ends, its wait is the server's (QueueWait, in its latency) and not
	// the generator's (SendLag).
	srv, conns := stallingServer(t, 100*time.Millisecond)
	c := NewConns(2, 5*time.Second)
	defer c.Close()
	plan := Plan{URL: srv.URL, Rate: 50, Count: 8, Start: time.Now().Add(10 * time.Millisecond), Timeout: 5 * time.Second, Conns: c}
	obs := Offer(context.Background(), plan)
	for i, o := range obs {
		if !o.OK() {
			t.Fatalf("request %d failed: %+v", i, o)
		}
		if want := plan.Start.Add(time.Duration(i) * 20 * time.Millisecond).UnixNano(); o.Scheduled != want {
			t.Fatalf("request %d scheduled %d, want %d", i, o.Scheduled, want)
		}
		if o.SendLag() < 0 || o.QueueWait() < 0 {
			t.Errorf("request %d: send lag %v, queue wait %v", i, o.SendLag(), o.QueueWait())
		}
		if o.Latency() < o.QueueWait()+100*time.Millisecond {
			t.Errorf("request %d: latency %v shorter than its queue wait %v and the server's 100 ms", i, o.Latency(), o.QueueWait())
		}
		if i >= 2 {
			// Its connection's previous request ended 100 ms or more after it left, 40 ms
			// before this one's schedule at the latest: this one waited for it.
			prev := obs[i-2]
			if o.Ready != prev.Done || o.Sent < prev.Done {
				t.Errorf("request %d ready %d, sent %d; its connection's previous request ended %d", i, o.Ready, o.Sent, prev.Done)
			}
		}
	}
	if conns.Load() != 2 {
		t.Fatalf("%d connections opened for 2 keep-alive ones", conns.Load())
	}
	r := Summarize(obs, plan.Rate, 160*time.Millisecond, plan.Start)
	if r.QueueWaitP99Ms < 100 {
		t.Fatalf("queue wait p99 %.1f ms, want the server's wait past the schedule", r.QueueWaitP99Ms)
	}
}

func TestAFailedRequestIsData(t *testing.T) {
	plan := Plan{URL: "http://127.0.0.1:1/", Rate: 100, Count: 2, Start: time.Now(), Timeout: time.Second}
	obs := Offer(context.Background(), plan)
	for _, o := range obs {
		if o.OK() || o.Err == "" || o.Done == 0 {
			t.Fatalf("want a recorded failure, have %+v", o)
		}
	}
}

func TestMeasureTimer(t *testing.T) {
	f := MeasureTimer(20)
	if f.ClockResolutionNs <= 0 || f.ClockResolutionNs > int64(time.Millisecond) {
		t.Fatalf("clock resolution %d ns", f.ClockResolutionNs)
	}
	if f.SleepOvershootP50Us < 0 || f.SleepOvershootP99Us < f.SleepOvershootP50Us {
		t.Fatalf("overshoot %+v", f)
	}
}

func TestVegetaMeasuresTheSameServer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(2 * time.Millisecond)
		w.Write([]byte("ok"))
	}))
	defer srv.Close()
	v := Vegeta(context.Background(), srv.URL, 50, 400*time.Millisecond, 2, 5*time.Second)
	// vegeta ends its attack at the duration, sent or not: a starved machine sends fewer
	// than the 20 of 50/s over 400 ms, never more.
	if v.Failure != "" || v.Requests < 1 || v.Requests > 20 || v.Success != 1 {
		t.Fatalf("vegeta: %+v, want 1 to 20 requests, all answered", v)
	}
	if v.P50Ms < 2 || v.P99Ms < v.P50Ms || v.MaxMs < v.P99Ms {
		t.Fatalf("vegeta's latencies %+v: each request took at least the server's 2 ms", v)
	}
}
