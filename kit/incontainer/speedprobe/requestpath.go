package speedprobe

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/logbench/logbench/kit/contract"
)

// The request path is what a request costs an API besides its own work: system calls,
// the loopback TCP stack, the scheduler's wake-ups. SHA-256 over a buffer that stays
// in cache cannot see it slow down (it did, 2.6 times between loads seconds apart on one
// host whose SHA-256 speed held), so the probe times it too, with two loops of fixed
// work: requests over loopback and one-byte writes.

// BodyBytes is the size of every response body of the request loop.
const BodyBytes = 64

// WarmupRequests are the request loop's untimed requests before the timed ones: they
// open the connection and warm both ends.
const WarmupRequests = 100

// Body is the response body to request i: its number as 8 decimal digits, then bytes
// 'a' + j mod 26 up to BodyBytes. A digest over the bodies says which requests were
// answered, in which order.
func Body(i int) []byte {
	b := make([]byte, BodyBytes)
	copy(b, fmt.Sprintf("%08d", i))
	for j := 8; j < BodyBytes; j++ {
		b[j] = 'a' + byte(j%26)
	}
	return b
}

// Requests times n HTTP/1.1 GETs, one after another, over one keep-alive connection to
// 127.0.0.1, with net/http's client and server in this process on one P, after WarmupRequests
// untimed ones: its wall time, the process's CPU time (client and server together, as
// an API's request costs its process), the connections the server accepted, and the
// digest of the timed responses' bodies.
func Requests(n int) (contract.RequestLoopResult, error) {
	var res contract.RequestLoopResult
	// One P: client and server take turns on one thread, waking each other through the
	// kernel (a write, epoll, a read), so that the loop's CPU is the request path's and
	// not that of Go's scheduler spinning a second thread for work, which varies with
	// the host's load (and Go gives a container of 1 CPU two Ps).
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return res, fmt.Errorf("request loop: %w", err)
	}
	var conns atomic.Int64
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			i, err := strconv.Atoi(r.URL.Path[1:])
			if err != nil {
				http.Error(w, "no request number", http.StatusBadRequest)
				return
			}
			w.Header().Set("Content-Length", strconv.Itoa(BodyBytes))
			w.Write(Body(i))
		}),
		ConnState: func(_ net.Conn, s http.ConnState) {
			if s == http.StateNew {
				conns.Add(1)
			}
		},
		ReadHeaderTimeout: 10 * time.Second,
	}
	go srv.Serve(ln)
	defer srv.Close()
	tr := &http.Transport{Proxy: nil, DisableCompression: true, MaxIdleConnsPerHost: 1}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	base := "http://" + ln.Addr().String() + "/"
	get := func(i int, w io.Writer) (int64, error) {
		resp, err := client.Get(base + strconv.Itoa(i))
		if err != nil {
			return 0, fmt.Errorf("request loop: request %d: %w", i, err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return 0, fmt.Errorf("request loop: request %d: %s", i, resp.Status)
		}
		// Read to the end, so that the connection goes back to be used again.
		return io.Copy(w, resp.Body)
	}
	for i := range WarmupRequests {
		if _, err := get(i, io.Discard); err != nil {
			return res, err
		}
	}
	h := sha256.New()
	wall0, cpu0 := time.Now(), processCPU()
	for i := range n {
		b, err := get(WarmupRequests+i, h)
		if err != nil {
			return res, err
		}
		res.BodyBytes += b
	}
	cpu, wall := processCPU()-cpu0, time.Since(wall0)
	res.Requests, res.Conns, res.CPUNanos, res.WallNanos, res.SHA256 = int64(n), conns.Load(), cpu, wall.Nanoseconds(), hex.EncodeToString(h.Sum(nil))
	return res, nil
}

// Syscalls times n writes of one byte to /dev/null on one locked thread: the system
// call a log line costs, less the work of the file it goes to. It says the bytes
// written in all, n when every write took its byte.
func Syscalls(n int) (contract.SyscallLoopResult, error) {
	var res contract.SyscallLoopResult
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return res, fmt.Errorf("system-call loop: %w", err)
	}
	defer f.Close()
	fd := int(f.Fd())
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b := []byte{'\n'}
	wall0, cpu0 := time.Now(), threadCPU()
	for range n {
		w, err := unix.Write(fd, b)
		if err != nil {
			return res, fmt.Errorf("system-call loop: %w", err)
		}
		res.Bytes += int64(w)
	}
	cpu, wall := threadCPU()-cpu0, time.Since(wall0)
	res.Calls, res.CPUNanos, res.WallNanos = int64(n), cpu, wall.Nanoseconds()
	if res.Bytes != int64(n) {
		return res, errors.New("system-call loop: a write to /dev/null took less than its byte")
	}
	return res, nil
}

// processCPU is the process's CPU time, user and system, in nanoseconds.
func processCPU() int64 {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
