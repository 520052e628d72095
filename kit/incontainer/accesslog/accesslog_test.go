package accesslog

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/incontainer/closedloop"
)

// T is 2023-04-08 04:05:06.789 UTC, the article's date (as in the Node.js API's tests).
var T = time.Date(2023, 4, 8, 4, 5, 6, 789_000_000, time.UTC)

func TestLinesAreMorgansTokenForToken(t *testing.T) {
	// The Node.js API's pinned examples (images/api-node/tests/format.test.js), in UTC.
	took := 123456 * time.Nanosecond
	if got := string(Line(consoleTime, T, "127.0.0.1", "GET", "/", 1, 1, 200, took)); got != "[04:05:06.789] 127.0.0.1 - \"GET / HTTP/1.1\" 200 - 0.123 ms\n" {
		t.Errorf("console line %q", got)
	}
	if got := string(Line(fileTime, T, "127.0.0.1", "GET", "/", 1, 1, 200, took)); got != "[2023-04-08 04:05:06.789+00:00] 127.0.0.1 - \"GET / HTTP/1.1\" 200 - 0.123 ms\n" {
		t.Errorf("file line %q", got)
	}
	pad := time.Date(2024, 1, 2, 3, 4, 5, 6_000_000, time.UTC)
	if got := string(Line(fileTime, pad, "127.0.0.1", "GET", "/", 1, 1, 200, 1500*time.Millisecond)); got != "[2024-01-02 03:04:05.006+00:00] 127.0.0.1 - \"GET / HTTP/1.1\" 200 - 1500.000 ms\n" {
		t.Errorf("padded line %q", got)
	}
}

var consoleLine = regexp.MustCompile(`^\[\d\d:\d\d:\d\d\.\d{3}\] 127\.0\.0\.1 - "GET / HTTP/1\.1" 200 - \d+\.\d{3} ms$`)
var fileLine = regexp.MustCompile(`^\[2023-04-08 \d\d:\d\d:\d\d\.\d{3}\+00:00\] 127\.0\.0\.1 - "GET / HTTP/1\.1" 200 - \d+\.\d{3} ms$`)

func TestEveryRequestIsOneCountedLinePerSink(t *testing.T) {
	var stdout bytes.Buffer
	dir := t.TempDir()
	s, err := New(Options{Config: ConsoleFile, LogDir: dir, Stdout: &stdout, Now: func() time.Time { return T }})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	get := func(n int) {
		for range n {
			resp, err := http.Get(srv.URL + "/")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("status %d", resp.StatusCode)
			}
		}
	}
	get(3) // the warm-up
	s.Reset()
	get(5)
	r := s.Report()
	if r.Requests != 5 || r.Config != ConsoleFile || r.Implementation != "go" {
		t.Fatalf("report %+v", r)
	}
	for _, line := range strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n") {
		if !consoleLine.MatchString(line) {
			t.Errorf("console line %q", line)
		}
	}
	console := r.Sinks[Console]
	if console.Total != contract.CountStream(stdout.Bytes()) || console.Lines != 5 || console.Total.Lines != 8 {
		t.Errorf("console counted %+v, stdout %+v", console, contract.CountStream(stdout.Bytes()))
	}
	file := r.Sinks[File]
	if file.Path != filepath.Join(dir, "2023-04-08.log") || file.Rotations != 0 {
		t.Errorf("file sink %+v", file)
	}
	body, err := os.ReadFile(file.Path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSuffix(string(body), "\n"), "\n") {
		if !fileLine.MatchString(line) {
			t.Errorf("file line %q", line)
		}
	}
	rb := closedloop.ReadBack(file.Path, file.StartOffsetBytes)
	if rb.Whole != file.Total || rb.FromOffset != file.StreamCount || file.Lines != 5 {
		t.Errorf("file read back %+v, counted %+v", rb, file)
	}
}

func TestNoneWritesNothing(t *testing.T) {
	var stdout bytes.Buffer
	s, err := New(Options{Config: None, Stdout: &stdout})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if rec.Body.String() != Body || stdout.Len() != 0 || len(s.Report().Sinks) != 0 {
		t.Errorf("body %q, stdout %q, sinks %v", rec.Body.String(), stdout.String(), s.Report().Sinks)
	}
	if _, err := New(Options{Config: "syslog"}); err == nil {
		t.Error("an unknown configuration must be refused")
	}
	if _, err := New(Options{Config: File}); err == nil {
		t.Error("a file configuration without a directory must be refused")
	}
}
