package logmode

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/contract"
)

// allModes are the published modes and numbered.
var allModes = append(slices.Clone(contract.LogModes), contract.ModeNumbered)

func TestEveryModeWritesItsExactBytesPerRequest(t *testing.T) {
	for _, mode := range allModes {
		t.Run(string(mode), func(t *testing.T) {
			var out bytes.Buffer
			sink := NewSyncSink(&out, 0)
			if mode.Queued() {
				sink = NewQueueSink(&out, contract.QueueCapacity, 0)
			}
			logger, err := NewLogger(mode, sink)
			if err != nil {
				t.Fatal(err)
			}
			const requests = 3
			for seq := range int64(requests) {
				if _, err := logger.Log(seq); err != nil {
					t.Fatal(err)
				}
			}
			sink.Close()
			want := requests * mode.BytesPerRequest()
			if out.Len() != want {
				t.Fatalf("wrote %d bytes, want %d", out.Len(), want)
			}
			c := sink.Counters()
			if c.Generated != c.Written || c.Written.Bytes != int64(want) {
				t.Fatalf("counters disagree: %+v", c)
			}
			if want > 0 && c.Written.Lines != int64(bytes.Count(out.Bytes(), []byte("\n"))) {
				t.Fatalf("lines %d, want %d", c.Written.Lines, bytes.Count(out.Bytes(), []byte("\n")))
			}
		})
	}
}

func TestJSONRecordsDifferPerRequestButNotInLength(t *testing.T) {
	b, err := newRecordBuilder()
	if err != nil {
		t.Fatal(err)
	}
	var prev []byte
	for seq := range int64(3) {
		rec, err := b.build(timeOf(seq), seq*987654321)
		if err != nil {
			t.Fatal(err)
		}
		if len(rec) != contract.JSONRecordBytes || rec[len(rec)-1] != '\n' {
			t.Fatalf("record %d: %d bytes, last %q", seq, len(rec), rec[len(rec)-1])
		}
		if bytes.Equal(rec, prev) {
			t.Fatal("two requests built the same record")
		}
		prev = rec
	}
}

// blockingWriter stands for a FIFO whose reader has stopped reading.
type blockingWriter struct{ release chan struct{} }

func (w blockingWriter) Write(p []byte) (int, error) { <-w.release; return len(p), nil }

func TestFullQueueIsAFailureNotASilentDrop(t *testing.T) {
	w := blockingWriter{release: make(chan struct{})}
	sink := NewQueueSink(w, 2, 0)
	var err error
	// One record is taken by the writer, two wait in the queue, the next has no room.
	for i := 0; i < 4 && err == nil; i++ {
		err = sink.Emit([]byte("x\n"))
		if i == 0 {
			waitUntilQueueEmpty(sink)
		}
	}
	if !errors.Is(err, ErrQueueFull) {
		t.Fatalf("err = %v, want ErrQueueFull", err)
	}
	c := sink.Counters()
	if c.QueueDrops != 1 || c.Failure == "" {
		t.Fatalf("counters = %+v, want one drop and a failure", c)
	}
	close(w.release)
	sink.Close()
}

func waitUntilQueueEmpty(s *Sink) {
	for len(s.queue) > 0 {
	}
}

func TestOutputCapStopsGeneration(t *testing.T) {
	sink := NewSyncSink(io.Discard, 300)
	logger, _ := NewLogger(contract.ModeShort1, sink)
	var err error
	for seq := int64(0); err == nil && seq < 10; seq++ {
		_, err = logger.Log(seq)
	}
	if !errors.Is(err, ErrOutputCap) || sink.Counters().Generated.Bytes != 256 {
		t.Fatalf("err = %v, counters %+v", err, sink.Counters())
	}
}

func TestConcurrentSyncWritesNeverInterleave(t *testing.T) {
	var out bytes.Buffer
	sink := NewSyncSink(&out, 0)
	logger, _ := NewLogger(contract.ModeJSONSync, sink)
	var wg sync.WaitGroup
	for seq := range int64(8) {
		wg.Add(1)
		go func() { defer wg.Done(); logger.Log(seq) }()
	}
	wg.Wait()
	for i, line := range bytes.SplitAfter(out.Bytes(), []byte("\n")) {
		if len(line) != 0 && len(line) != contract.JSONRecordBytes {
			t.Fatalf("line %d has %d bytes", i, len(line))
		}
	}
}

func TestConcurrentRecordsAreWrittenInTheOrderTheyWereCounted(t *testing.T) {
	for _, queued := range []bool{false, true} {
		var out bytes.Buffer
		sink := NewSyncSink(&out, 0)
		if queued {
			sink = NewQueueSink(&out, contract.QueueCapacity, 0)
		}
		logger, _ := NewLogger(contract.ModeJSONSync, sink)
		var wg sync.WaitGroup
		for seq := range int64(64) {
			wg.Add(1)
			go func() { defer wg.Done(); logger.Log(seq) }()
		}
		wg.Wait()
		sink.Close()
		if c := sink.Counters(); c.Generated != c.Written {
			t.Fatalf("queued=%v: generated %+v, written %+v", queued, c.Generated, c.Written)
		}
	}
}

func TestParseRejectsUnknownModes(t *testing.T) {
	if _, err := contract.ParseLogMode("json-async"); err == nil {
		t.Fatal("want an error")
	}
	for _, m := range contract.LogModes {
		if have, err := contract.ParseLogMode(string(m)); err != nil || have != m {
			t.Fatalf("contract.ParseLogMode(%q) = %q, %v", m, have, err)
		}
	}
}

// TestNumberedLinesCountFromZeroWhateverTheRequests: the lines are numbered by the
// logger, from 0, not by the requests' numbers (the warm-up's are negative), and a
// reset of the counters does not start them again.
func TestNumberedLinesCountFromZeroWhateverTheRequests(t *testing.T) {
	var out bytes.Buffer
	sink := NewSyncSink(&out, 0)
	logger, err := NewLogger(contract.ModeNumbered, sink)
	if err != nil {
		t.Fatal(err)
	}
	var want []byte
	for i, seq := range []int64{-2, -1, 0, 7, 7, 3} {
		if i == 2 {
			sink.Reset()
		}
		spans, err := logger.Log(seq)
		if err != nil || spans.Generate <= 0 || spans.LogCall <= 0 {
			t.Fatalf("request %d: %+v, %v", seq, spans, err)
		}
		want = append(want, contract.NumberedLine(int64(i))...)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("wrote\n%s\nwant\n%s", out.Bytes(), want)
	}
	if c := sink.Counters(); c.Written.Lines != 4 || c.Written.Bytes != 4*contract.NumberedLineBytes {
		t.Fatalf("counters since the reset: %+v", c.Written)
	}
}

// TestConcurrentNumberedLinesAreWrittenInTheirOrder: requests log at once, and the
// stream is every number once, in order.
func TestConcurrentNumberedLinesAreWrittenInTheirOrder(t *testing.T) {
	var out bytes.Buffer
	sink := NewSyncSink(&out, 0)
	logger, _ := NewLogger(contract.ModeNumbered, sink)
	var wg sync.WaitGroup
	const requests = 256
	for seq := range int64(requests) {
		wg.Go(func() { logger.Log(seq) })
	}
	wg.Wait()
	var a contract.Accountant
	a.Write(out.Bytes())
	a.Finish()
	if have := a.Account(); have.Received != requests || have.MaxSeq != requests-1 || have.Reordered != 0 || have.Corrupted != 0 || have.Duplicated != 0 {
		t.Fatalf("%+v", have)
	}
}

// TestANumberedLineOverTheCapTakesNoNumber: the cap refuses the line before it is
// generated, so the next line written would have its number.
func TestANumberedLineOverTheCapTakesNoNumber(t *testing.T) {
	var out bytes.Buffer
	sink := NewSyncSink(&out, 300)
	logger, _ := NewLogger(contract.ModeNumbered, sink)
	var err error
	for seq := int64(0); err == nil && seq < 10; seq++ {
		_, err = logger.Log(seq)
	}
	if !errors.Is(err, ErrOutputCap) || out.Len() != 2*contract.NumberedLineBytes || logger.nextLine != 2 {
		t.Fatalf("err = %v, %d bytes, next line %d", err, out.Len(), logger.nextLine)
	}
}

func timeOf(seq int64) (t time.Time) { return time.Unix(1_700_000_000+seq, seq) }

// TestNumberedLinesOfAnyLength: the numbered mode writes lines of the length it was
// given, numbered from 0; a length the format has no line of is refused.
func TestNumberedLinesOfAnyLength(t *testing.T) {
	var out bytes.Buffer
	sink := NewSyncSink(&out, 0)
	logger, err := NewLoggerOf(contract.ModeNumbered, sink, 4096)
	if err != nil {
		t.Fatal(err)
	}
	for seq := range int64(3) {
		if _, err := logger.Log(seq); err != nil {
			t.Fatal(err)
		}
	}
	want := slices.Concat(contract.NumberedLineOf(0, 4096), contract.NumberedLineOf(1, 4096), contract.NumberedLineOf(2, 4096))
	if !bytes.Equal(out.Bytes(), want) {
		t.Fatalf("wrote %d bytes, not lines 0 to 2 of 4096 bytes", out.Len())
	}
	if _, err := NewLoggerOf(contract.ModeNumbered, sink, 127); err == nil {
		t.Fatal("lines of 127 bytes taken")
	}
}
