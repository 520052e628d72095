// Package fiforeader is the log sink's reader: it reads the FIFO in fixed-size reads,
// optionally paced to an upper bound of bytes per second, counts bytes, newlines and
// SHA-256, keeps a timeline of bytes read, optionally accounts every line as a
// numbered line, and discards the content.
package fiforeader

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/incontainer/cgroupstat"
	"github.com/logbench/logbench/kit/incontainer/clock"
	"github.com/logbench/logbench/kit/incontainer/control"
	"github.com/logbench/logbench/kit/incontainer/fifo"
	"github.com/logbench/logbench/kit/incontainer/procinfo"
	"github.com/logbench/logbench/kit/incontainer/tally"
)

// Config says what to read and how fast.
type Config struct {
	FIFOPath string
	// RateBytesPerSec bounds the bytes read per second; 0 reads as fast as it can.
	RateBytesPerSec int64
	Control         string // listen address of the control port
	// Account runs every line read through a contract.Accountant, of lines of
	// LineBytes (0: contract.NumberedLineBytes).
	Account   bool
	LineBytes int
}

// Reader reads one FIFO.
type Reader struct {
	cfg    Config
	cgroup cgroupstat.Reader
	counts *tally.Tally
	// process is read once: privileges do not change, and the control port is polled.
	process contract.ProcessFacts

	mu       sync.Mutex
	timeline []contract.Sample
	account  *contract.Accountant // nil unless cfg.Account
	capacity int64
	readErr  error
}

// New returns a reader for cfg.
func New(cfg Config) *Reader {
	r := &Reader{cfg: cfg, counts: tally.New(), process: procinfo.Read()}
	if cfg.Account {
		r.account = contract.NewAccountantOf(cmp.Or(cfg.LineBytes, contract.NumberedLineBytes))
	}
	return r
}

// Pacer returns the limiter of the pacing rule: after every read the reader waits until
// the bytes read so far fit one read plus rate x the time since it started. It starts
// empty, so the first wait follows the first read. nil means no pacing.
func Pacer(bytesPerSec int64) *rate.Limiter {
	if bytesPerSec <= 0 {
		return nil
	}
	l := rate.NewLimiter(rate.Limit(bytesPerSec), contract.ReaderReadBytes)
	l.AllowN(time.Now(), contract.ReaderReadBytes)
	return l
}

// Run serves the control port and reads the FIFO until ctx ends.
func (r *Reader) Run(ctx context.Context) error {
	ln, err := net.Listen("tcp", r.cfg.Control)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: r.controlHandler()}
	go srv.Serve(ln)
	defer srv.Close()

	// Either side may make the FIFO; make it here so the open below can wait on it.
	if err := fifo.Make(r.cfg.FIFOPath); err != nil {
		return err
	}
	in, err := os.OpenFile(r.cfg.FIFOPath, os.O_RDONLY, 0) // waits for the writer
	if err != nil {
		return err
	}
	defer in.Close()
	if c, err := fifo.Capacity(in); err == nil {
		r.mu.Lock()
		r.capacity = c
		r.mu.Unlock()
	}
	err = r.consume(ctx, in, Pacer(r.cfg.RateBytesPerSec))
	if errors.Is(err, io.EOF) || errors.Is(err, fs.ErrClosed) {
		err = nil // the writer has gone: keep answering until told to stop
	}
	r.mu.Lock()
	r.readErr = err
	r.mu.Unlock()
	<-ctx.Done()
	return err
}

// consume reads src until it ends, pacing each read with pacer when it is not nil.
func (r *Reader) consume(ctx context.Context, src io.Reader, pacer *rate.Limiter) error {
	buf := make([]byte, contract.ReaderReadBytes)
	sleeper, err := clock.NewSleeper()
	if err != nil {
		return err
	}
	defer sleeper.Close()
	// No spin: the pacer gives back a late wake-up on the next read (tokens accrue while
	// the reader is late, up to one read), so spinning 64 times a second would only burn
	// CPU beside the load generator, in the same client container when shared.
	sleeper.Spin = 0
	for {
		n, err := src.Read(buf)
		if n > 0 {
			now := time.Now().UnixNano()
			r.counts.Add(buf[:n])
			total := r.counts.Bytes()
			r.mu.Lock()
			r.timeline = append(r.timeline, contract.Sample{UnixNano: now, Bytes: total})
			if r.account != nil {
				r.account.Write(buf[:n])
			}
			r.mu.Unlock()
			if pacer != nil {
				// Wait on the kernel's clock: the runtime's timers would wake up to a
				// millisecond late each time and read 2-3% slower than the bound.
				now := time.Now()
				if err := sleeper.SleepUntil(ctx, now.Add(pacer.ReserveN(now, n).DelayFrom(now))); err != nil {
					return err
				}
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) && r.account != nil {
				// The writer has gone: a line it began and did not end never will.
				r.mu.Lock()
				r.account.Finish()
				r.mu.Unlock()
			}
			return err
		}
	}
}

func (r *Reader) status() contract.ReaderStatus {
	st := contract.ReaderStatus{Counts: r.counts.Snapshot(), RateBytesPerSec: r.cfg.RateBytesPerSec, Process: r.process}
	r.mu.Lock()
	st.PipeCapacityBytes = r.capacity
	if r.account != nil {
		account := r.account.Account()
		st.Account = &account
	}
	if r.readErr != nil {
		st.Err = r.readErr.Error()
	}
	r.mu.Unlock()
	var err error
	if st.Cgroup, err = r.cgroup.Read(); err != nil {
		st.Err = fmt.Sprintf("cgroup: %v", err)
	}
	return st
}

func (r *Reader) controlHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+contract.PathStatus, func(w http.ResponseWriter, _ *http.Request) {
		control.WriteJSON(w, r.status())
	})
	mux.HandleFunc("POST "+contract.PathReset, func(w http.ResponseWriter, _ *http.Request) {
		r.mu.Lock()
		r.counts.Reset()
		r.timeline = nil
		if r.account != nil {
			r.account.Reset()
		}
		r.mu.Unlock()
	})
	mux.HandleFunc("GET "+contract.PathReport, func(w http.ResponseWriter, _ *http.Request) {
		st := r.status()
		r.mu.Lock()
		read := append([]contract.Sample(nil), r.timeline...)
		r.mu.Unlock()
		control.WriteJSON(w, contract.ReaderReport{ReaderStatus: st, Read: read})
	})
	return mux
}
