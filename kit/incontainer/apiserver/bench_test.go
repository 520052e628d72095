package apiserver

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/incontainer/logmode"
)

func newTestServer(tb testing.TB, mode contract.LogMode) *Server {
	s, err := New(Config{Mode: mode})
	if err != nil {
		tb.Fatal(err)
	}
	s.sink = logmode.NewSyncSink(io.Discard, 0)
	if s.logger, err = logmode.NewLogger(mode, s.sink); err != nil {
		tb.Fatal(err)
	}
	return s
}

// BenchmarkServeRequest is the request path of mode none, with and without the
// instrumentation (the sequence header makes the API time and keep the request's
// spans). The difference is what instrumentation costs each request.
func BenchmarkServeRequest(b *testing.B) {
	for _, instrumented := range []bool{false, true} {
		name := "bare"
		if instrumented {
			name = "instrumented"
		}
		b.Run(name, func(b *testing.B) {
			s := newTestServer(b, contract.ModeNone)
			req := httptest.NewRequest(http.MethodGet, "/", nil)
			if instrumented {
				req.Header.Set(contract.SeqHeader, "12345")
			}
			b.ReportAllocs()
			for b.Loop() {
				s.serveRequest(httptest.NewRecorder(), req)
			}
		})
	}
}

func TestServeRequestAnswersAndKeepsSpans(t *testing.T) {
	s := newTestServer(t, contract.ModeJSONSync)
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Header.Set(contract.SeqHeader, "7")
	rec := httptest.NewRecorder()
	s.serveRequest(rec, req)
	if rec.Code != http.StatusOK || rec.Body.String() != string(responseBody) {
		t.Fatalf("status %d, body %q", rec.Code, rec.Body.String())
	}
	if len(s.spans) != 1 || s.spans[0].Seq != 7 || s.spans[0].GenerateNanos <= 0 || s.spans[0].LogCallNanos <= 0 {
		t.Fatalf("spans %+v", s.spans)
	}
	if c := s.sink.Counters(); c.Written.Bytes != contract.JSONRecordBytes || c.Written != c.Generated {
		t.Fatalf("counters %+v", c)
	}
}
