package loadgen

import (
	"context"
	"net/http"
	"net/http/httptest"
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
