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

// BenchmarkP99BesideItself is vegeta's check with each instrument beside itself: two
// of the kit's keep-alive open loops each offer 200 requests a second, at once, on 5
// connections each, to a loopback server for 3 s per iteration; then two of vegeta's
// attackers the same way; then the kit beside vegeta, as the check runs them. It
// reports, for each pair, the share of iterations whose two p99s were within 5% of
// each other (kit-kit-p99-agree, vegeta-vegeta-p99-agree, kit-vegeta-p99-agree) and how
// far apart the two were at the median (the larger over the smaller, -apart): where
// two loads of one instrument disagree as often and as widely as the kit and vegeta,
// two p99s of 600 requests each differ by the requests each drew, not by how the
// instruments time them.
func BenchmarkP99BesideItself(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }))
	defer srv.Close()
	kitP99 := func(out chan<- float64) {
		p := Plan{URL: srv.URL, Rate: 200, Timeout: 5 * time.Second, Conns: NewConns(5, 5*time.Second)}
		defer p.Conns.Close()
		r, _ := Measure(context.Background(), p, 3*time.Second)
		out <- r.NetLatencyP99Ms
	}
	vegetaP99 := func(out chan<- float64) {
		out <- Vegeta(context.Background(), srv.URL, 200, 3*time.Second, 5, 5*time.Second).P99Ms
	}
	pairs := []struct {
		name        string
		first, then func(chan<- float64)
		apart       []float64 // the larger p99 of a pair over the smaller
	}{{name: "kit-kit", first: kitP99, then: kitP99}, {name: "vegeta-vegeta", first: vegetaP99, then: vegetaP99}, {name: "kit-vegeta", first: kitP99, then: vegetaP99}}
	for b.Loop() {
		for i := range pairs {
			one, other := make(chan float64), make(chan float64)
			go pairs[i].first(one)
			go pairs[i].then(other)
			x, y := <-one, <-other
			pairs[i].apart = append(pairs[i].apart, max(x, y)/min(x, y))
		}
	}
	for _, p := range pairs {
		agree := 0
		for _, r := range p.apart {
			if r <= 1.05 {
				agree++
			}
		}
		slices.Sort(p.apart)
		b.ReportMetric(float64(agree)/float64(len(p.apart)), p.name+"-p99-agree")
		b.ReportMetric(p.apart[len(p.apart)/2], p.name+"-p99-apart")
	}
}
