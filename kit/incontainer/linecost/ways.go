package linecost

import (
	"bufio"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"
)

// The ways of writing one line, in the article's order.
const (
	Format        = "format"         // format the line, write nothing
	DisabledEager = "disabled-eager" // a disabled DEBUG line whose message is built at the call site
	DisabledLazy  = "disabled-lazy"  // the same line with its arguments passed apart
	Buffered      = "buffered"       // enabled, to a buffer flushed when full and every second
	Unbuffered    = "unbuffered"     // enabled, one write system call per line (what stderr does)
	Fsync         = "fsync"          // enabled, write and fsync per line
	Queue         = "queue"          // enabled, handed to a bounded queue that a writer drains
)

// Ways lists every way.
var Ways = []string{Format, DisabledEager, DisabledLazy, Buffered, Unbuffered, Fsync, Queue}

// What the queue way does when its queue is full.
const (
	// Block waits for room: no line is lost, and a writer slower than the callers shows
	// up in the call-site cost. The default, because the experiment verifies every line.
	Block = "block"
	// Drop discards the line and counts it: the call site stays cheap, the log has holes.
	Drop = "drop"
)

// The line: four fields after the level and the message. It carries no time stamp, so
// that a trial's bytes follow from its line count and the host can verify every written
// line without the measured loop hashing anything.
const (
	userName   = "alice"
	itemPath   = "/api/items"
	httpStatus = 200
	// LineFormat is Document.LineFormat.
	LineFormat = "level=INFO msg=served seq={seq} user=alice path=/api/items status=200"
)

// AppendLine appends line seq as every enabled way writes it, newline included.
func AppendLine(b []byte, seq int64) []byte {
	b = append(b, "level=INFO msg=served seq="...)
	b = strconv.AppendInt(b, seq, 10)
	b = append(b, " user="+userName+" path="+itemPath+" status=200\n"...)
	return b
}

// user is the line's one argument that costs something to render; it counts its
// renderings so that a test, and every trial, can show which ways build their lines.
type user struct {
	name  string
	built int64
}

func (u *user) String() string {
	u.built++
	return u.name
}

// LogValue is how slog renders the user: only when the record is handled, that is
// when the level is enabled.
func (u *user) LogValue() slog.Value {
	u.built++
	return slog.StringValue(u.name)
}

// dropTime removes slog's time stamp from every record (the -notime shapes).
func dropTime(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}

// wayPath says what each way does with the line once the library has made it.
var wayPath = map[string]string{
	Format:        "formats the line and writes it to io.Discard",
	DisabledEager: "fmt.Sprintf builds the message at the call site; the logger finds DEBUG disabled and returns",
	DisabledLazy:  "the logger finds DEBUG disabled and returns: the arguments are never rendered",
	Buffered:      "writes each line to a bufio.Writer of 4 KiB, which writes to the file when full; a goroutine flushes it every second",
	Unbuffered:    "writes each line to the *os.File: one write system call per line, as to os.Stderr",
	Fsync:         "writes each line to a writer that calls Write then Sync (fsync) on the *os.File",
	Queue:         "formats on the caller, whose Write copies the line into a bounded channel; one goroutine writes each line to the *os.File with one write system call",
}

// instance is one trial's set-up of a way.
type instance struct {
	user *user
	// run makes lines seq 0..n-1; it is the measured loop.
	run func(n int64)
	// finish gets every line out of the process and closes the file.
	finish func() error
	file   *countingFile // nil for the ways that write no file
	queue  *queueWriter  // the queue way's
}

type wayOptions struct {
	bufferBytes   int
	flushInterval time.Duration
	queueSize     int
	queueFull     string
}

// newInstance prepares way of log/slog's text handler without time (the kit's line
// before lines had a time stamp) for one trial; see newLibraryInstance.
func newInstance(way, path string, o wayOptions, discard io.Writer) (*instance, error) {
	return newLibraryInstance(DefaultLibrary("go"), LineTextNoTime, way, path, o, discard)
}

// newLibraryInstance prepares way of lib writing line (a shape) for one trial, writing
// to path (unused by the ways that write no file). discard stands in for io.Discard in
// the format way, so that a test can see what was formatted.
func newLibraryInstance(lib Library, line, way, path string, o wayOptions, discard io.Writer) (*instance, error) {
	if ok, why := lib.Offers(way, line); !ok {
		return nil, fmt.Errorf("%s %s", NotOfferedMark, why)
	}
	g, ok := goLibraries[lib.ID]
	if !ok {
		return nil, fmt.Errorf("no Go library %q", lib.ID)
	}
	in := &instance{user: &user{name: userName}, finish: func() error { return nil }}
	u := in.user
	var out io.Writer
	switch way {
	case Format:
		if discard == nil {
			discard = io.Discard
		}
		out = discard
	case DisabledEager:
		c := g.make(io.Discard, lib.Shape(line), u)
		in.run = func(n int64) {
			for seq := range n {
				c.debugEager(seq)
			}
		}
		return in, nil
	case DisabledLazy:
		c := g.make(io.Discard, lib.Shape(line), u)
		in.run = func(n int64) {
			for seq := range n {
				c.debugLazy(seq)
			}
		}
		return in, nil
	case Buffered, Unbuffered, Fsync, Queue:
		f, err := createCounting(path)
		if err != nil {
			return nil, err
		}
		in.file = f
		in.finish = f.Close
		switch way {
		case Buffered:
			if g.buffered != nil {
				w, closeBuf := g.buffered(f, o.bufferBytes, o.flushInterval)
				out = w
				in.finish = func() error { return firstError(closeBuf(), f.Close()) }
				break
			}
			pw := newPeriodicWriter(f, o.bufferBytes, o.flushInterval)
			out = pw
			in.finish = func() error { return firstError(pw.Close(), f.Close()) }
		case Unbuffered:
			out = f
		case Fsync:
			out = syncEach{f}
		case Queue:
			q := newQueueWriter(f, o.queueSize, o.queueFull == Drop)
			in.queue = q
			out = q
			in.finish = func() error { return firstError(q.Close(), f.Close()) }
		}
	default:
		return nil, fmt.Errorf("unknown way %q (ways: %v)", way, Ways)
	}
	c := g.make(out, lib.Shape(line), u)
	in.run = func(n int64) {
		for seq := range n {
			c.info(seq)
		}
	}
	return in, nil
}

func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// syncEach makes every line durable before the call returns: write, then fsync.
type syncEach struct{ f *countingFile }

func (s syncEach) Write(p []byte) (int, error) {
	n, err := s.f.Write(p)
	if err != nil {
		return n, err
	}
	return n, s.f.Sync()
}

// periodicWriter is a buffer that writes when full and is flushed every interval by
// its own goroutine, so that a quiet logger's last lines still reach the file: the
// balance most logging libraries strike between losing lines and paying a system call
// for each. Safe for concurrent use.
type periodicWriter struct {
	mu   sync.Mutex
	w    *bufio.Writer
	stop chan struct{}
	done chan struct{}
}

func newPeriodicWriter(out io.Writer, size int, interval time.Duration) *periodicWriter {
	p := &periodicWriter{w: bufio.NewWriterSize(out, size), stop: make(chan struct{}), done: make(chan struct{})}
	go p.flushEvery(interval)
	return p
}

func (p *periodicWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.w.Write(b)
}

func (p *periodicWriter) flushEvery(interval time.Duration) {
	defer close(p.done)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.mu.Lock()
			_ = p.w.Flush() // an error sticks in the bufio.Writer: Write and Close report it
			p.mu.Unlock()
		}
	}
}

// Close stops the flusher and flushes what is left.
func (p *periodicWriter) Close() error {
	close(p.stop)
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.w.Flush()
}

// queueWriter hands each line to a bounded queue drained by one writer goroutine. The
// caller formats (slog's handler calls Write with the finished line), as Python's
// QueueHandler does in prepare(); only the write system call leaves the caller.
type queueWriter struct {
	ch    chan *[]byte
	drop  bool
	pool  sync.Pool // of *[]byte, so that a steady state allocates nothing
	out   io.Writer
	done  chan struct{}
	err   error // the writer's first error, read after done
	waits int64 // calls that found the queue full; Write is called under slog's lock
	drops int64
}

func newQueueWriter(out io.Writer, size int, drop bool) *queueWriter {
	q := &queueWriter{ch: make(chan *[]byte, size), drop: drop, out: out, done: make(chan struct{})}
	q.pool.New = func() any { return new([]byte) }
	go q.drain()
	return q
}

func (q *queueWriter) Write(p []byte) (int, error) {
	bp := q.pool.Get().(*[]byte)
	*bp = append((*bp)[:0], p...) // slog reuses p once Write returns
	select {
	case q.ch <- bp:
		return len(p), nil
	default:
	}
	if q.drop {
		q.drops++
		q.pool.Put(bp)
		return len(p), nil
	}
	q.waits++
	q.ch <- bp
	return len(p), nil
}

func (q *queueWriter) drain() {
	defer close(q.done)
	for bp := range q.ch {
		if _, err := q.out.Write(*bp); err != nil && q.err == nil {
			q.err = err
		}
		q.pool.Put(bp)
	}
}

// Close waits until every queued line is written.
func (q *queueWriter) Close() error {
	close(q.ch)
	<-q.done
	return q.err
}
