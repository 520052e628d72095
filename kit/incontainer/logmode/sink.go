package logmode

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/incontainer/tally"
)

// ErrQueueFull is returned when json-queue's bounded queue has no room: the record is
// counted as dropped and the run must fail.
var ErrQueueFull = errors.New("log queue full: record dropped")

// ErrOutputCap is returned when the records generated would exceed the output-volume
// stop condition.
var ErrOutputCap = errors.New("output volume cap reached")

// Sink takes finished records from the request path and writes them to the log
// output, counting what was generated and what was written.
type Sink struct {
	out      io.Writer
	maxBytes int64 // output-volume stop condition; 0 means none

	// handOff makes generating, counting and handing over one record a single step, as
	// a logging handler's lock does: records reach the output in the order they were
	// counted as generated, so the two digests can agree.
	handOff sync.Mutex

	mu        sync.Mutex // guards the fields below
	generated *tally.Tally
	written   *tally.Tally
	timeline  []contract.Sample
	drops     int64
	errs      int64
	failure   string

	queue chan []byte // nil for a synchronous sink
	done  chan struct{}
}

// NewSyncSink writes each record to out on the caller's goroutine, with one Write call.
func NewSyncSink(out io.Writer, maxBytes int64) *Sink {
	return &Sink{out: out, maxBytes: maxBytes, generated: tally.New(), written: tally.New()}
}

// NewQueueSink hands records to a queue of capacity records drained by one writer
// goroutine. Close stops the writer.
func NewQueueSink(out io.Writer, capacity int, maxBytes int64) *Sink {
	s := NewSyncSink(out, maxBytes)
	s.queue = make(chan []byte, capacity)
	s.done = make(chan struct{})
	go s.drain()
	return s
}

// Emit takes one record. A synchronous sink returns when the record is written; a
// queued sink returns once the record is queued, or ErrQueueFull at once.
func (s *Sink) Emit(record []byte) error {
	s.handOff.Lock()
	defer s.handOff.Unlock()
	if err := s.generate(record); err != nil {
		return err
	}
	if s.queue == nil {
		return s.write(record)
	}
	select {
	case s.queue <- record:
		return nil
	default:
		s.fail(&s.drops, ErrQueueFull)
		return ErrQueueFull
	}
}

func (s *Sink) generate(record []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.maxBytes > 0 && s.generated.Bytes()+int64(len(record)) > s.maxBytes {
		if s.failure == "" {
			s.failure = fmt.Sprintf("%v (%d bytes)", ErrOutputCap, s.maxBytes)
		}
		return ErrOutputCap
	}
	s.generated.Add(record)
	s.timeline = append(s.timeline, contract.Sample{UnixNano: time.Now().UnixNano(), Bytes: s.generated.Bytes()})
	return nil
}

// write is called with handOff held (synchronous sinks) or from the one writer goroutine.
func (s *Sink) write(record []byte) error {
	n, err := s.out.Write(record)
	s.written.Add(record[:n])
	if err != nil {
		s.fail(&s.errs, fmt.Errorf("log write: %w", err))
	}
	return err
}

func (s *Sink) drain() {
	defer close(s.done)
	for record := range s.queue {
		s.write(record) // a failure is recorded in the counters
	}
}

func (s *Sink) fail(counter *int64, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	*counter++
	if s.failure == "" {
		s.failure = err.Error()
	}
}

// Counters returns what the sink has seen since the last reset.
func (s *Sink) Counters() contract.Counters {
	s.mu.Lock()
	defer s.mu.Unlock()
	return contract.Counters{
		Generated:   s.generated.Snapshot(),
		Written:     s.written.Snapshot(),
		QueueDrops:  s.drops,
		WriteErrors: s.errs,
		Failure:     s.failure,
	}
}

// Timeline returns the cumulative bytes generated, one sample per record.
func (s *Sink) Timeline() []contract.Sample {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]contract.Sample(nil), s.timeline...)
}

// Reset starts all counts again. Call it only when nothing is in flight.
func (s *Sink) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.generated.Reset()
	s.written.Reset()
	s.timeline = nil
	s.drops, s.errs, s.failure = 0, 0, ""
}

// Close stops a queued sink's writer after it has written what is queued.
func (s *Sink) Close() {
	if s.queue != nil {
		close(s.queue)
		<-s.done
	}
}
