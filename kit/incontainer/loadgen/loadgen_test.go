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

func TestOfferKeepsTheScheduleWhileTheServerStalls(t *testing.T) {
	// The server holds every request for 200 ms; an open-loop client still sends on
	// schedule, and each latency counts from the scheduled time.
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(200 * time.Millisecond)
		w.Write([]byte("ok"))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
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
