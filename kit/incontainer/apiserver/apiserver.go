// Package apiserver is the Go implementation of the API under test: net/http over
// HTTP/1.1, a small fixed hash computation and the same small JSON body for every
// request, and one of the logging modes writing to the log FIFO or to standard output.
package apiserver

import (
	"context"
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
	"sync"
	"sync/atomic"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/incontainer/cgroupstat"
	"github.com/logbench/logbench/kit/incontainer/control"
	"github.com/logbench/logbench/kit/incontainer/fifo"
	"github.com/logbench/logbench/kit/incontainer/logmode"
	"github.com/logbench/logbench/kit/incontainer/procinfo"
)

// Config says how to serve.
type Config struct {
	Mode contract.LogMode
	// FIFOPath is the log FIFO; contract.LogToStdout writes the log to Stdout instead.
	FIFOPath    string
	Stdout      io.Writer // the process's standard output, which its main hands over
	MaxLogBytes int64     // output-volume stop condition; 0 means none
	LineBytes   int       // the numbered mode's line length (0: contract.NumberedLineBytes)
	Workload    string    // listen address of the request path
	Control     string    // listen address of the control port
}

// Server is one API process.
type Server struct {
	cfg    Config
	cgroup cgroupstat.Reader
	ready  atomic.Bool
	// process is read once: privileges do not change, and the control port is polled.
	process contract.ProcessFacts

	sink   *logmode.Sink
	logger *logmode.Logger

	mu    sync.Mutex
	spans []contract.Span
}

// New checks cfg. Run does the rest.
func New(cfg Config) (*Server, error) {
	if _, err := contract.ParseLogMode(string(cfg.Mode)); err != nil {
		return nil, err
	}
	if cfg.LineBytes == 0 {
		cfg.LineBytes = contract.NumberedLineBytes
	}
	if err := contract.CheckNumberedLineBytes(cfg.LineBytes); err != nil {
		return nil, fmt.Errorf("-line-bytes: %w", err)
	}
	return &Server{cfg: cfg, process: procinfo.Read()}, nil
}

// Run serves until ctx ends. The control port answers at once; the request path opens
// once the FIFO has a reader, or at once when the log goes to standard output.
func (s *Server) Run(ctx context.Context) error {
	ctl, err := net.Listen("tcp", s.cfg.Control)
	if err != nil {
		return err
	}
	ctlServer := &http.Server{Handler: s.controlHandler()}
	go ctlServer.Serve(ctl)
	defer ctlServer.Close()

	out, err := s.openLog(ctx)
	if err != nil {
		return err
	}
	defer out.Close()
	if s.cfg.Mode.Queued() {
		s.sink = logmode.NewQueueSink(out, contract.QueueCapacity, s.cfg.MaxLogBytes)
	} else {
		s.sink = logmode.NewSyncSink(out, s.cfg.MaxLogBytes)
	}
	defer s.sink.Close()
	if s.logger, err = logmode.NewLoggerOf(s.cfg.Mode, s.sink, s.cfg.LineBytes); err != nil {
		return err
	}

	work, err := net.Listen("tcp", s.cfg.Workload)
	if err != nil {
		return err
	}
	workServer := &http.Server{Handler: http.HandlerFunc(s.serveRequest)}
	workServer.SetKeepAlivesEnabled(false) // one connection per request, as measured
	go workServer.Serve(work)
	defer workServer.Close()
	s.ready.Store(true)

	<-ctx.Done()
	return nil
}

// openLog opens the log's output: standard output, which stays open, or the FIFO.
func (s *Server) openLog(ctx context.Context) (io.WriteCloser, error) {
	if s.cfg.FIFOPath == contract.LogToStdout {
		if s.cfg.Stdout == nil {
			return nil, errors.New("the log goes to standard output, but none was given")
		}
		return nopCloser{s.cfg.Stdout}, nil
	}
	if err := fifo.Make(s.cfg.FIFOPath); err != nil {
		return nil, err
	}
	// Opening for write blocks until the reader opens the other end.
	f, err := openWhenReady(ctx, s.cfg.FIFOPath)
	if err != nil {
		return nil, err
	}
	return f, nil
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

func openWhenReady(ctx context.Context, path string) (*os.File, error) {
	type result struct {
		f   *os.File
		err error
	}
	opened := make(chan result, 1)
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		opened <- result{f, err}
	}()
	select {
	case r := <-opened:
		return r.f, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// responseBody is the same for every request.
var responseBody = []byte(`{"status":"ok","service":"logbench-api"}` + "\n")

// hashRounds sizes the fixed per-request computation: small next to the I/O.
const hashRounds = 64

func (s *Server) serveRequest(w http.ResponseWriter, r *http.Request) {
	digest := sha256.Sum256([]byte(r.URL.Path))
	for range hashRounds - 1 {
		digest = sha256.Sum256(digest[:])
	}
	seq, seqErr := strconv.ParseInt(r.Header.Get(contract.SeqHeader), 10, 64)
	spans, err := s.logger.Log(seq)
	if seqErr == nil {
		s.record(contract.Span{Seq: seq, GenerateNanos: spans.Generate.Nanoseconds(), LogCallNanos: spans.LogCall.Nanoseconds(), Error: errText(err)})
	}
	if err != nil {
		http.Error(w, "logging failed: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Digest", hex.EncodeToString(digest[:8]))
	w.Write(responseBody)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func (s *Server) record(span contract.Span) {
	s.mu.Lock()
	s.spans = append(s.spans, span)
	s.mu.Unlock()
}

func (s *Server) status() (contract.APIStatus, error) {
	st := contract.APIStatus{Implementation: "go", Runtime: runtime.Version(), Mode: string(s.cfg.Mode), Ready: s.ready.Load(), Process: s.process}
	if st.Ready {
		st.Counters = s.sink.Counters()
	}
	var err error
	st.Cgroup, err = s.cgroup.Read()
	return st, err
}

func (s *Server) controlHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+contract.PathStatus, func(w http.ResponseWriter, r *http.Request) {
		st, err := s.status()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		control.WriteJSON(w, st)
	})
	mux.HandleFunc("POST "+contract.PathReset, func(w http.ResponseWriter, r *http.Request) {
		if !s.ready.Load() {
			http.Error(w, "not ready", http.StatusServiceUnavailable)
			return
		}
		s.sink.Reset()
		s.mu.Lock()
		s.spans = nil
		s.mu.Unlock()
	})
	mux.HandleFunc("GET "+contract.PathReport, func(w http.ResponseWriter, r *http.Request) {
		st, err := s.status()
		if err == nil && !st.Ready {
			err = errors.New("not ready")
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		s.mu.Lock()
		spans := append([]contract.Span(nil), s.spans...)
		s.mu.Unlock()
		control.WriteJSON(w, contract.APIReport{APIStatus: st, Spans: spans, Generated: s.sink.Timeline()})
	})
	return mux
}
