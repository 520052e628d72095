package closedloop

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The benchmark's server runs in a child process (this test binary again), so that
// the generator's CPU time, read from getrusage(RUSAGE_SELF), is the generator's alone.
const serverEnv = "LOGBENCH_CLOSEDLOOP_CANNED_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(serverEnv) == "1" {
		cannedServer()
		return
	}
	os.Exit(m.Run())
}

// The published API's response, headers as Express sends them.
const cannedResponse = "HTTP/1.1 200 OK\r\nX-Powered-By: Express\r\nContent-Type: application/json; charset=utf-8\r\n" +
	"Content-Length: 43\r\nETag: W/\"2b-Y5Xb8Yb1gEbGbJfGdJbD0aQnJ0A\"\r\nDate: Sun, 08 Apr 2023 04:05:06 GMT\r\n" +
	"Connection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\n" + `{"statusCode":200,"message":"Hello World!"}`

// cannedServer answers every request with cannedResponse, as cheaply as it can, until
// its stdin closes. It prints its address first.
func cannedServer() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr())
	go func() {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	for {
		c, err := ln.Accept()
		if err != nil {
			os.Exit(1)
		}
		go func() {
			defer c.Close()
			br := bufio.NewReaderSize(c, 64<<10)
			var out []byte
			for {
				line, err := br.ReadSlice('\n')
				if err != nil {
					return
				}
				if len(line) == 2 { // the empty line ending a request's head
					out = append(out, cannedResponse...)
				}
				if br.Buffered() == 0 && len(out) > 0 {
					if _, err := c.Write(out); err != nil {
						return
					}
					out = out[:0]
				}
			}
		}()
	}
}

func startCannedServer(b *testing.B) string {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serverEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		stdin.Close() // the server exits
		cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		b.Fatal(err)
	}
	return "http://" + strings.TrimSpace(line) + "/"
}

// BenchmarkGenerator measures the generator's own CPU per request (cpu-ns/req, from
// getrusage over the load), apart from the server's, which runs in another process.
func BenchmarkGenerator(b *testing.B) {
	url := startCannedServer(b)
	for _, c := range []struct{ conns, pipe int }{{1, 1}, {10, 1}, {10, 10}} {
		b.Run(fmt.Sprintf("c%d-p%d", c.conns, c.pipe), func(b *testing.B) {
			p := Params{URL: url, Connections: c.conns, Pipelining: c.pipe, Duration: time.Hour, maxRequests: int64(b.N)}
			b.ResetTimer()
			r, err := Run(context.Background(), p)
			b.StopTimer()
			if err != nil {
				b.Fatal(err)
			}
			if r.Requests != int64(b.N) || r.Errors != 0 {
				b.Fatalf("requests %d of %d, errors %d (%s)", r.Requests, b.N, r.Errors, r.ErrorSample)
			}
			b.ReportMetric(r.GeneratorCPUNsPerRequest, "cpu-ns/req")
			b.ReportMetric(r.RequestsPerSInterval, "req/s")
		})
	}
}
