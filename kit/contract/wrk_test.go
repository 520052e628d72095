package contract

import (
	"os"
	"strings"
	"testing"
)

// TestParseWrkReadsItsRealOutput reads wrk 4.1.0's output as Debian's package printed
// it (testdata/wrk-python-http-server.txt: wrk -t1 -c 10 -d 2s --latency against
// python3 -m http.server on loopback).
func TestParseWrkReadsItsRealOutput(t *testing.T) {
	body, err := os.ReadFile("testdata/wrk-python-http-server.txt")
	if err != nil {
		t.Fatal(err)
	}
	f, err := ParseWrk(string(body))
	if err != nil {
		t.Fatal(err)
	}
	if f.Requests != 518 || f.DurationS != 2.01 || f.RequestsPerS != 258.09 || f.Errors != 0 ||
		f.LatencyP50Ms != 18.81 || f.LatencyP99Ms != 60.38 {
		t.Errorf("parsed %+v", f)
	}
	// Errors and other units, as wrk prints them when it sees any.
	more := strings.Replace(string(body), "Requests/sec:", "  Socket errors: connect 1, read 2, write 0, timeout 3\n  Non-2xx or 3xx responses: 4\nRequests/sec:", 1)
	more = strings.Replace(more, "518 requests in 2.01s", "518 requests in 1.00m", 1)
	if f, err := ParseWrk(more); err != nil || f.Errors != 10 || f.DurationS != 60 {
		t.Errorf("with errors: %+v, %v", f, err)
	}
	for _, bad := range []string{"", strings.Replace(string(body), "Requests/sec:", "Req:", 1), strings.Replace(string(body), "requests in 2.01s", "requests in 2.01", 1)} {
		if _, err := ParseWrk(bad); err == nil {
			t.Errorf("no error for %q", bad)
		}
	}
}
