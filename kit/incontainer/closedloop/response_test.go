package closedloop

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestParseResponseFindsWhereEachResponseEnds(t *testing.T) {
	cases := []struct {
		name, in          string
		size, status      int
		close, untilClose bool
	}{
		{"content length", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhiNEXT", 40, 200, false, false},
		{"no reason phrase", "HTTP/1.1 404\r\ncontent-length: 0\r\n\r\n", 35, 404, false, false},
		{"chunked with extension and trailer", "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n3;x=y\r\nabc\r\n0\r\nT: 1\r\n\r\nNEXT", 76, 200, false, false},
		{"connection close", "HTTP/1.1 500 Oops\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx", 60, 500, true, false},
		{"HTTP/1.0 closes by default", "HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx", 39, 200, true, false},
		{"HTTP/1.0 keep-alive", "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nx", 63, 200, false, false},
		{"no length: to the connection's end", "HTTP/1.1 200 OK\r\n\r\nbody", 19, 200, true, true},
		{"204 has no body", "HTTP/1.1 204 No Content\r\n\r\n", 27, 204, false, false},
		{"304 has no body despite a length", "HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n", 49, 304, false, false},
		{"100 continue has no body", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n", 25, 100, false, false},
	}
	for _, c := range cases {
		r, err := parseResponse([]byte(c.in))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if r.size != c.size || r.status != c.status || r.close != c.close || r.untilClose != c.untilClose {
			t.Errorf("%s: got %+v, want size %d status %d close %v untilClose %v", c.name, r, c.size, c.status, c.close, c.untilClose)
		}
	}
}

func TestParseResponseWaitsForTheWholeResponse(t *testing.T) {
	whole := "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
	for i := range len(whole) {
		if _, err := parseResponse([]byte(whole[:i])); !errors.Is(err, errIncomplete) {
			t.Fatalf("the first %d bytes: %v, want incomplete", i, err)
		}
	}
	if r, err := parseResponse([]byte(whole)); err != nil || r.size != len(whole) {
		t.Fatalf("whole: %+v, %v", r, err)
	}
}

func TestParseResponseRefusesWhatIsNotHTTP(t *testing.T) {
	for _, in := range []string{
		"HTTP/2 200 OK\r\n\r\n",
		"HTTP/1.1 20 OK\r\n\r\n",
		"HTTP/1.1 2000 OK\r\n\r\n",
		"SSH-2.0-OpenSSH\r\n\r\n",
		"HTTP/1.1 200 OK\r\nno colon\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxx",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nabc",
		"HTTP/1.1 200 OK\r\n" + strings.Repeat("X-A: b\r\n", maxHeaderBytes/8+1),
	} {
		if _, err := parseResponse([]byte(in)); err == nil || errors.Is(err, errIncomplete) {
			t.Errorf("%.40q: %v, want an error", in, err)
		}
	}
}

// Servers of every framing, through the whole generator: each response is counted
// once and none is an error.
func TestEveryFramingThroughTheLoop(t *testing.T) {
	bodies := map[string]http.HandlerFunc{
		"chunked": func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte("part one "))
			w.(http.Flusher).Flush()
			w.Write([]byte("part two"))
		},
		"content length": func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello") },
		"no content":     func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) },
		"close each": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Connection", "close")
			fmt.Fprint(w, "bye")
		},
	}
	for name, h := range bodies {
		t.Run(name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			srv := &http.Server{Handler: h}
			go srv.Serve(ln)
			defer srv.Close()
			// The budget ends the load, not the clock: a busy host only makes it slower.
			p := Params{URL: "http://" + ln.Addr().String() + "/", Connections: 3, Pipelining: 1, Duration: time.Minute, maxRequests: 200}
			res, err := Run(t.Context(), p)
			if err != nil {
				t.Fatal(err)
			}
			if res.Errors != 0 || res.ResponsesTotal != 200 || res.Status2xx != res.Requests || res.SentTotal != 200 {
				t.Fatalf("%+v (first error %q)", res, res.ErrorSample)
			}
		})
	}
}

// A body delimited by the connection's end is complete when the server closes.
func TestABodyToTheConnectionsEnd(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				buf := make([]byte, 1024)
				c.Read(buf)
				io.WriteString(c, "HTTP/1.1 200 OK\r\n\r\nuntil the end")
			}()
		}
	}()
	// The budget ends the load, not the clock: a busy host only makes it slower.
	res, err := Run(t.Context(), Params{URL: "http://" + ln.Addr().String() + "/", Connections: 2, Pipelining: 1, Duration: time.Minute, maxRequests: 50})
	if err != nil {
		t.Fatal(err)
	}
	// A connection per response, and one more each that finds the budget spent.
	if res.Errors != 0 || res.ResponsesTotal != 50 || res.Connects < 50 || res.Connects > 52 {
		t.Fatalf("%+v (first error %q)", res, res.ErrorSample)
	}
}
