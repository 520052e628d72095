package logmode

import (
	"time"
)

// Spans are the two intervals the API times inside each request.
type Spans struct {
	Generate time.Duration // building the record ("JSON generation")
	LogCall  time.Duration // the caller-side logging call: hand-off and, when synchronous, the write
}

// Logger does one mode's logging work for a request.
type Logger struct {
	mode     Mode
	sink     *Sink
	builder  *recordBuilder
	prebuilt []byte
}

// NewLogger prepares mode's work. sink may be nil for modes that write nothing.
func NewLogger(mode Mode, sink *Sink) (*Logger, error) {
	l := &Logger{mode: mode, sink: sink}
	if mode == JSONOnly || mode == JSONSync || mode == JSONQueue || mode == JSONPrebuiltSync {
		b, err := newRecordBuilder()
		if err != nil {
			return nil, err
		}
		l.builder = b
	}
	if mode == JSONPrebuiltSync {
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
	case None:
		return spans, nil
	case Short1:
		return l.emit(spans, shortLine)
	case Short10:
		start := time.Now()
		for range 10 {
			if err := l.sink.Emit(shortLine); err != nil {
				spans.LogCall = time.Since(start)
				return spans, err
			}
		}
		spans.LogCall = time.Since(start)
		return spans, nil
	case JSONPrebuiltSync:
		return l.emit(spans, l.prebuilt)
	}
	start := time.Now()
	record, err := l.builder.build(start, seq)
	spans.Generate = time.Since(start)
	if err != nil || l.mode == JSONOnly {
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
