// Package logmode does the logging work of the seven modes of the reference experiment
// and the log-driver experiment's numbered mode (contract.LogMode) in the Go API: what
// each builds per request, how it hands the record to the sink, and the exact bytes it
// produces.
package logmode

import (
	"errors"
	"sync"
	"time"

	"github.com/logbench/logbench/kit/contract"
)

// Spans are the two intervals the API times inside each request.
type Spans struct {
	Generate time.Duration // building the record ("JSON generation")
	LogCall  time.Duration // the caller-side logging call: hand-off and, when synchronous, the write
}

// Logger does one mode's logging work for a request.
type Logger struct {
	mode     contract.LogMode
	sink     *Sink
	builder  *recordBuilder
	prebuilt []byte

	// numbering makes taking a line's number and handing the line to the sink one
	// step, so that the lines reach the output in their numbers' order.
	numbering sync.Mutex
	nextLine  int64 // from 0 at start, never reset
	lineBytes int   // the numbered mode's line length
}

// NewLogger prepares mode's work. sink may be nil for modes that write nothing.
func NewLogger(mode contract.LogMode, sink *Sink) (*Logger, error) {
	return NewLoggerOf(mode, sink, contract.NumberedLineBytes)
}

// NewLoggerOf is NewLogger with the numbered mode's lines of lineBytes
// (contract.CheckNumberedLineBytes).
func NewLoggerOf(mode contract.LogMode, sink *Sink, lineBytes int) (*Logger, error) {
	if err := contract.CheckNumberedLineBytes(lineBytes); err != nil {
		return nil, err
	}
	l := &Logger{mode: mode, sink: sink, lineBytes: lineBytes}
	if mode == contract.ModeJSONOnly || mode == contract.ModeJSONSync || mode == contract.ModeJSONQueue || mode == contract.ModeJSONPrebuiltSync {
		b, err := newRecordBuilder()
		if err != nil {
			return nil, err
		}
		l.builder = b
	}
	if mode == contract.ModeJSONPrebuiltSync {
		record, err := l.builder.build(time.Now(), 0)
		if err != nil {
			return nil, err
		}
		l.prebuilt = record
	}
	return l, nil
}

// Log does the logging work of request seq and times it.
func (l *Logger) Log(seq int64) (Spans, error) {
	var spans Spans
	switch l.mode {
	case contract.ModeNone:
		return spans, nil
	case contract.ModeShort1:
		return l.emit(spans, shortLine)
	case contract.ModeShort10:
		start := time.Now()
		for range 10 {
			if err := l.sink.Emit(shortLine); err != nil {
				spans.LogCall = time.Since(start)
				return spans, err
			}
		}
		spans.LogCall = time.Since(start)
		return spans, nil
	case contract.ModeJSONPrebuiltSync:
		return l.emit(spans, l.prebuilt)
	case contract.ModeNumbered:
		return l.emitNumbered()
	}
	start := time.Now()
	record, err := l.builder.build(start, seq)
	spans.Generate = time.Since(start)
	if err != nil || l.mode == contract.ModeJSONOnly {
		return spans, err
	}
	return l.emit(spans, record)
}

func (l *Logger) emit(spans Spans, record []byte) (Spans, error) {
	start := time.Now()
	err := l.sink.Emit(record)
	spans.LogCall = time.Since(start)
	return spans, err
}

// emitNumbered writes the next numbered line. Building it is the generation; waiting
// for the number and writing are the logging call.
func (l *Logger) emitNumbered() (Spans, error) {
	var spans Spans
	start := time.Now()
	l.numbering.Lock()
	defer l.numbering.Unlock()
	numbered := time.Now()
	line := contract.NumberedLineOf(l.nextLine, l.lineBytes)
	built := time.Now()
	err := l.sink.Emit(line)
	spans.Generate = built.Sub(numbered)
	spans.LogCall = numbered.Sub(start) + time.Since(built)
	// A line over the output cap was never generated: its number is the next line's.
	if !errors.Is(err, ErrOutputCap) {
		l.nextLine++
	}
	return spans, err
}
