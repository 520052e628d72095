package loadgen

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"testing"
	"time"
)

// BenchmarkSendLag offers 20 requests a second (the published rate) to a loopback
// server for one second per iteration and reports the send lag's p50 and p99 over all
// iterations, in microseconds: the instrument's own error, on this machine, with what
// else runs on it. Run with -benchtime=10x for 200 sends.
func BenchmarkSendLag(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	defer srv.Close()
	var lags []float64
	for b.Loop() {
		obs := Offer(context.Background(), Plan{URL: srv.URL, Rate: 20, Count: 20, Start: time.Now().Add(20 * time.Millisecond), Timeout: 5 * time.Second})
		for _, o := range obs {
			lags = append(lags, float64(o.SendLag())/1e3)
		}
	}
	sort.Float64s(lags)
	at := func(p float64) float64 { return lags[min(len(lags)-1, int(p/100*float64(len(lags))))] }
	b.ReportMetric(at(50), "lag-p50-us")
	b.ReportMetric(at(99), "lag-p99-us")
	b.ReportMetric(lags[len(lags)-1], "lag-max-us")
}

// BenchmarkVegetaBeside has the kit's keep-alive open loop and vegeta each offer 200
// requests a second, at once, on 5 connections each, to a loopback server for 3 s per
// iteration, and reports each one's p50 (and the kit's p99) in microseconds: the kit's
// latency less its send lag, as vegeta's from its own send, and the kit's from the
// schedule. Both see the same seconds of the same server, so what differs is how each
// times a round trip.
func BenchmarkVegetaBeside(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	defer srv.Close()
	var vegeta, net, sched, p99 []float64
	for b.Loop() {
		half := Plan{URL: srv.URL, Rate: 200, Timeout: 5 * time.Second, Conns: NewConns(5, 5*time.Second)}
		done := make(chan struct{})
		go func() {
			defer close(done)
			r, _ := Measure(context.Background(), half, 3*time.Second)
			net, sched, p99 = append(net, r.NetLatencyP50Ms*1e3), append(sched, r.LatencyP50Ms*1e3), append(p99, r.LatencyP99Ms*1e3)
		}()
		v := Vegeta(context.Background(), srv.URL, 200, 3*time.Second, 5, 5*time.Second)
		<-done
		half.Conns.Close()
		vegeta = append(vegeta, v.P50Ms*1e3)
	}
	median := func(xs []float64) float64 { sort.Float64s(xs); return xs[len(xs)/2] }
	b.ReportMetric(median(vegeta), "vegeta-p50-us")
	b.ReportMetric(median(net), "kit-net-p50-us")
	b.ReportMetric(median(sched), "kit-p50-us")
	b.ReportMetric(median(p99), "kit-p99-us")
}

// BenchmarkP99BesideItself is vegeta's check with the kit in vegeta's place: two of the
// kit's keep-alive open loops each offer 200 requests a second, at once, on 5
// connections each, to a loopback server for 3 s per iteration, and after them the
// kit and vegeta do the same. It reports the share of iterations whose two p99s were
// within 5% of each other, for two loads of the kit (kit-kit-p99-agree) and for the
// kit's and vegeta's (kit-vegeta-p99-agree), and how far apart each pair was at the
// median (the larger over the smaller): where two loads of one instrument disagree as
// often and as widely, two p99s of 600 requests each differ by the requests each drew,
// not by how the instruments time them.
func BenchmarkP99BesideItself(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	defer srv.Close()
	kitP99 := func(out chan<- float64) {
		p := Plan{URL: srv.URL, Rate: 200, Timeout: 5 * time.Second, Conns: NewConns(5, 5*time.Second)}
		defer p.Conns.Close()
		r, _ := Measure(context.Background(), p, 3*time.Second)
		out <- r.NetLatencyP99Ms
	}
	var kitKit, kitVegeta []float64 // the larger p99 of a pair over the smaller
	apart := func(x, y float64) float64 { return max(x, y) / min(x, y) }
	for b.Loop() {
		first, second := make(chan float64), make(chan float64)
		go kitP99(first)
		go kitP99(second)
		kitKit = append(kitKit, apart(<-first, <-second))
		go kitP99(first)
		v := Vegeta(context.Background(), srv.URL, 200, 3*time.Second, 5, 5*time.Second)
		kitVegeta = append(kitVegeta, apart(<-first, v.P99Ms))
	}
	agree := func(ratios []float64) float64 {
		n := 0
		for _, r := range ratios {
			if r <= 1.05 {
				n++
			}
		}
		return float64(n) / float64(len(ratios))
	}
	b.ReportMetric(agree(kitKit), "kit-kit-p99-agree")
	b.ReportMetric(agree(kitVegeta), "kit-vegeta-p99-agree")
	median := func(xs []float64) float64 { slices.Sort(xs); return xs[len(xs)/2] }
	b.ReportMetric(median(kitKit), "kit-kit-p99-apart")
	b.ReportMetric(median(kitVegeta), "kit-vegeta-p99-apart")
}
