package control

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkControlRequest times one GET of the control protocol on loopback, client and
// server in one process, on a fresh connection and on a kept-alive one (NewClient's
// between requests less than IdleTimeout apart): what a status poll costs beside the
// API's work.
func BenchmarkControlRequest(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		WriteJSON(w, map[string]bool{"ready": true})
	}))
	defer srv.Close()
	for _, tc := range []struct {
		name string
		http *http.Client
	}{
		{"fresh-connection", &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}},
		{"kept-alive", NewClient(0).HTTP},
	} {
		b.Run(tc.name, func(b *testing.B) {
			c := &Client{Base: srv.URL, HTTP: tc.http}
			var out map[string]bool
			for b.Loop() {
				if err := c.Get(context.Background(), "/ready", &out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
