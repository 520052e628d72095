// Package accesslog is the Go API of the qps experiment: net/http with an access log
// written by gorilla/handlers' CustomLoggingHandler, one line per request in the seed's
// two morgan formats (reference/qps-experiment.md), so that the Go API's lines carry
// the same content as the Node.js API's:
//
//	console: [HH:mm:ss.SSS] 127.0.0.1 - "GET / HTTP/1.1" 200 - 0.123 ms
//	file:    [YYYY-MM-DD HH:mm:ss.SSS+00:00] 127.0.0.1 - "GET / HTTP/1.1" 200 - 0.123 ms
//
// Console is the process's stdout; file is dir/YYYY-MM-DD.log, a new file when the date
// changes. Every byte handed to a sink is counted (lines, bytes, SHA-256, since the last
// reset and since the start), and the control port serves the counters in the Node.js
// API's shape (contract.AccessLogReport).
package accesslog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/handlers"
	"golang.org/x/sys/unix"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/incontainer/control"
)

// The configurations.
const (
	None        = "none"
	Console     = "console"
	File        = "file"
	ConsoleFile = "console+file"
)

// Configs are the four configurations.
var Configs = []string{None, Console, File, ConsoleFile}

// The published time formats of the two lines (dayjs's HH:mm:ss.SSS and
// YYYY-MM-DD HH:mm:ss.SSSZ) and of the file's date.
const (
	consoleTime = "15:04:05.000"
	fileTime    = "2006-01-02 15:04:05.000-07:00"
	fileDate    = "2006-01-02"
)

// Body is the published service's fixed response.
const Body = `{"statusCode":200,"message":"Hello World!"}`

// Line is one access-log line: the bracketed time as layout formats it, then morgan's
// `:remote-addr - ":method :url HTTP/:http-version" :status - :response-time ms`, the
// response time in milliseconds with three decimals as morgan gives it.
func Line(layout string, at time.Time, remote, method, uri string, major, minor, status int, took time.Duration) []byte {
	b := make([]byte, 0, 96)
	b = append(b, '[')
	b = at.AppendFormat(b, layout)
	b = append(b, "] "...)
	b = append(b, remote...)
	b = append(b, ` - "`...)
	b = append(b, method...)
	b = append(b, ' ')
	b = append(b, uri...)
	b = append(b, " HTTP/"...)
	b = strconv.AppendInt(b, int64(major), 10)
	b = append(b, '.')
	b = strconv.AppendInt(b, int64(minor), 10)
	b = append(b, `" `...)
	b = strconv.AppendInt(b, int64(status), 10)
	b = append(b, " - "...)
	b = strconv.AppendFloat(b, float64(took.Nanoseconds())/1e6, 'f', 3, 64)
	b = append(b, " ms\n"...)
	return b
}

// Options say how to serve.
type Options struct {
	Config string
	LogDir string    // the file configurations' directory
	Stdout io.Writer // the console: the process's stdout
	// Now is the clock of the lines and of the file's date; time.Now when nil.
	Now func() time.Time
}

// Server is one API process.
type Server struct {
	opt      Options
	sinks    map[string]*sink
	handler  http.Handler
	ready    atomic.Bool
	requests atomic.Int64

	mu       sync.Mutex
	resetAt  time.Time
	cpuReset time.Duration
}

// New checks opt and opens the sinks.
func New(opt Options) (*Server, error) {
	switch opt.Config {
	case None, Console, File, ConsoleFile:
	default:
		return nil, fmt.Errorf("unknown configuration %q (known: none, console, file, console+file)", opt.Config)
	}
	if opt.Stdout == nil && (opt.Config == Console || opt.Config == ConsoleFile) {
		return nil, errors.New("the console configurations need the process's stdout")
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	s := &Server{opt: opt, sinks: map[string]*sink{}}
	var h http.Handler = http.HandlerFunc(s.serve)
	// As published: the file logger is registered first, then the console logger.
	if opt.Config == Console || opt.Config == ConsoleFile {
		s.sinks[Console] = newSink(opt.Stdout)
		h = handlers.CustomLoggingHandler(s.sinks[Console], h, s.formatter(consoleTime))
	}
	if opt.Config == File || opt.Config == ConsoleFile {
		if opt.LogDir == "" {
			return nil, errors.New("the file configurations need a log directory")
		}
		if err := os.MkdirAll(opt.LogDir, 0o755); err != nil {
			return nil, err
		}
		f, err := openDated(opt.LogDir, opt.Now)
		if err != nil {
			return nil, err
		}
		s.sinks[File] = newSink(f)
		h = handlers.CustomLoggingHandler(s.sinks[File], h, s.formatter(fileTime))
	}
	s.handler = h
	s.Reset()
	return s, nil
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(Body)))
	io.WriteString(w, Body)
}

// formatter writes a line when the response is complete: params.TimeStamp is when the
// request arrived, so the time since is the response time, as morgan measures it.
func (s *Server) formatter(layout string) handlers.LogFormatter {
	return func(w io.Writer, p handlers.LogFormatterParams) {
		took := time.Since(p.TimeStamp)
		remote, _, err := net.SplitHostPort(p.Request.RemoteAddr)
		if err != nil {
			remote = p.Request.RemoteAddr
		}
		w.Write(Line(layout, s.opt.Now().UTC(), remote, p.Request.Method, p.Request.RequestURI, p.Request.ProtoMajor, p.Request.ProtoMinor, p.StatusCode, took))
	}
}

// Handler is the request path, access logs included.
func (s *Server) Handler() http.Handler { return s.handler }

// Reset starts the counters again (after the warm-up).
func (s *Server) Reset() {
	for _, k := range s.sinks {
		k.reset()
	}
	s.requests.Store(0)
	s.mu.Lock()
	s.resetAt, s.cpuReset = time.Now(), cpuTime()
	s.mu.Unlock()
}

// Report is the counters since the reset, in the Node.js API's shape.
func (s *Server) Report() contract.AccessLogReport {
	r := contract.AccessLogReport{Implementation: "go", Runtime: runtime.Version(), Versions: versions(), Config: s.opt.Config,
		Requests: s.requests.Load(), Sinks: map[string]contract.AccessLogSink{}}
	for name, k := range s.sinks {
		r.Sinks[name] = k.snapshot()
	}
	s.mu.Lock()
	since, cpuFrom := time.Since(s.resetAt), s.cpuReset
	s.mu.Unlock()
	var ru unix.Rusage
	unix.Getrusage(unix.RUSAGE_SELF, &ru)
	r.Usage.SinceResetMs = float64(since) / 1e6
	// User and system together since the reset; the split is not kept.
	r.Usage.CPUUserUs = int64((cpuTime() - cpuFrom) / time.Microsecond)
	r.Usage.RSSBytes = ru.Maxrss * 1024
	return r
}

func cpuTime() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// versions are the Go toolchain's and gorilla/handlers' versions, as built.
func versions() map[string]string {
	v := map[string]string{"go": runtime.Version()}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, d := range info.Deps {
			if d.Path == "github.com/gorilla/handlers" {
				v["gorilla/handlers"] = d.Version
			}
		}
	}
	return v
}

// ControlHandler serves /ready, /status, POST /reset and /report.
func (s *Server) ControlHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ready", func(w http.ResponseWriter, r *http.Request) {
		if !s.ready.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		control.WriteJSON(w, map[string]bool{"ready": s.ready.Load()})
	})
	mux.HandleFunc("GET /status", func(w http.ResponseWriter, r *http.Request) { control.WriteJSON(w, s.Report()) })
	mux.HandleFunc("GET /report", func(w http.ResponseWriter, r *http.Request) { control.WriteJSON(w, s.Report()) })
	mux.HandleFunc("POST /reset", func(w http.ResponseWriter, r *http.Request) { s.Reset() })
	return mux
}

// Run serves the control port and the request path until ctx ends.
func (s *Server) Run(ctx context.Context, workload, controlAddr string) error {
	cl, err := net.Listen("tcp", controlAddr)
	if err != nil {
		return err
	}
	wl, err := net.Listen("tcp", workload)
	if err != nil {
		cl.Close()
		return err
	}
	servers := []*http.Server{{Handler: s.ControlHandler()}, {Handler: s.Handler()}}
	errs := make(chan error, 2)
	for i, l := range []net.Listener{cl, wl} {
		go func() { errs <- servers[i].Serve(l) }()
	}
	s.ready.Store(true)
	select {
	case <-ctx.Done():
	case err = <-errs:
	}
	for _, srv := range servers {
		srv.Close()
	}
	if f, ok := s.fileSink(); ok {
		f.Close()
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

func (s *Server) fileSink() (*datedFile, bool) {
	k, ok := s.sinks[File]
	if !ok {
		return nil, false
	}
	f, ok := k.target.(*datedFile)
	return f, ok
}

// sink counts exactly the bytes written to its target.
type sink struct {
	target io.Writer
	mu     sync.Mutex
	since  counter
	total  counter
	errs   int64
	fail   string
	// The file sink: where the counted bytes begin, and the date changes since.
	startOffset int64
	rotations   int
}

type counter struct {
	lines, bytes int64
	h            hash.Hash
}

func (c *counter) add(b []byte) {
	c.bytes += int64(len(b))
	for _, x := range b {
		if x == '\n' {
			c.lines++
		}
	}
	c.h.Write(b)
}

func (c *counter) count() contract.StreamCount {
	return contract.StreamCount{Lines: c.lines, Bytes: c.bytes, SHA256: hex.EncodeToString(c.h.Sum(nil))}
}

func newSink(target io.Writer) *sink {
	return &sink{target: target, total: counter{h: sha256.New()}, since: counter{h: sha256.New()}}
}

// Write hands one line to the target; what the target took is what is counted.
func (k *sink) Write(b []byte) (int, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	n, err := k.target.Write(b)
	k.since.add(b[:n])
	k.total.add(b[:n])
	if err != nil {
		k.errs++
		if k.fail == "" {
			k.fail = err.Error()
		}
	}
	return n, err
}

func (k *sink) reset() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.since = counter{h: sha256.New()}
	k.errs, k.fail = 0, ""
	if f, ok := k.target.(*datedFile); ok {
		k.startOffset, k.rotations = f.offset, f.rotations
	}
}

func (k *sink) snapshot() contract.AccessLogSink {
	k.mu.Lock()
	defer k.mu.Unlock()
	s := contract.AccessLogSink{StreamCount: k.since.count(), Total: k.total.count(), WriteErrors: k.errs, Failure: k.fail}
	if f, ok := k.target.(*datedFile); ok {
		s.Path, s.StartOffsetBytes, s.Rotations = f.path, k.startOffset, f.rotations-k.rotations
	}
	return s
}

// datedFile is dir/YYYY-MM-DD.log, appended to, a new file when the date changes. Each
// line is one write(2): nothing is pending when a report is asked for.
type datedFile struct {
	dir       string
	now       func() time.Time
	f         *os.File
	date      string
	path      string
	offset    int64
	rotations int
}

func openDated(dir string, now func() time.Time) (*datedFile, error) {
	d := &datedFile{dir: dir, now: now}
	if err := d.open(now().UTC().Format(fileDate)); err != nil {
		return nil, err
	}
	d.rotations = 0
	return d, nil
}

func (d *datedFile) open(date string) error {
	if d.f != nil {
		d.f.Close()
		d.rotations++
	}
	d.date, d.path = date, filepath.Join(d.dir, date+".log")
	f, err := os.OpenFile(d.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	d.f, d.offset = f, info.Size()
	return nil
}

func (d *datedFile) Write(b []byte) (int, error) {
	if date := d.now().UTC().Format(fileDate); date != d.date {
		if err := d.open(date); err != nil {
			return 0, err
		}
	}
	n, err := d.f.Write(b)
	d.offset += int64(n)
	return n, err
}

func (d *datedFile) Close() error { return d.f.Close() }
