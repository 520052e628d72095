// Package linecost measures what one log line costs, seven ways, inside a container:
// formatting alone, a disabled DEBUG line with eager and with lazy arguments, an
// enabled line to a buffer, to the file with one write per line, with an fsync per line,
// and handed to a bounded queue that a writer goroutine drains. Each way is log/slog as
// a program would call it (see goLibraries), writing the same line as the Python program
// (images/api-python/app/logbench_linecost.py).
//
// A trial is Lines calls of one way on a goroutine locked to its thread, timed by the
// thread's CPU clock and the monotonic clock; the cgroup's CPU and throttling counters
// are read before and after, and every line a way writes is read back and counted and
// hashed against what the calls generated. Trials go round-robin over the ways, so that
// a neighbour's burst of work spreads over all of them instead of landing on one.
//
// The standard library's log package is not a way of its own: log.Printf writes each
// line with one Write under a mutex, as slog's handlers do, so its buffered, unbuffered,
// fsync and queue ways differ from slog's by the formatting alone, which is cheaper
// (one Printf, no attributes: 340 ns against slog's 1,060 ns on a 2-core VM, see
// BenchmarkStdLog). It differs on disabled lines: it has no levels, so a disabled debug
// line is an if around the call, and a Logger whose output is io.Discard skips
// formatting (but its arguments are evaluated all the same).
package linecost

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/logbench/logbench/kit/incontainer/cgroupstat"
)

// MinLines is the fewest lines a trial may have. A trial's times carry the error of the
// four clock reads that bound it, whatever the clock's resolution (1 ns): measured on a
// 2-core VM, a thread CPU clock read costs 330 ns (a system call: that clock has no vDSO
// path) and a monotonic one 50 ns. The cheapest way, disabled-lazy, costs 22 ns a line
// there, so 1,000 lines last 22 us and the reads are under 4 per cent of it; the
// default, DefaultLines, brings every way under 0.2 per cent.
const MinLines = 1000

// Defaults of Config.
const (
	DefaultLines         = 20000
	DefaultTrials        = 5
	DefaultWarmup        = 1
	DefaultQueueSize     = 1024
	DefaultBufferBytes   = 4096
	DefaultFlushInterval = time.Second
	DefaultTimerReads    = 100000
)

// Config says what to measure.
type Config struct {
	// Library is the id of the Go library measured (Libraries); "" for the first.
	Library string
	// Line is the line's shape (LineShapes); "" for LineDefault.
	Line          string
	Ways          []string
	Lines         int64 // per trial
	Trials        int   // kept
	Warmup        int   // run first and discarded
	Dir           string
	QueueSize     int
	QueueFull     string // Block or Drop
	BufferBytes   int
	FlushInterval time.Duration
	TimerReads    int
	// CgroupRoot is where the cgroup file system is mounted; "" for /sys/fs/cgroup.
	CgroupRoot string
	// Mountinfo is the mount table the file system's facts come from; "" for
	// /proc/self/mountinfo.
	Mountinfo string
}

// DefaultConfig measures every way with the defaults, writing to dir.
func DefaultConfig(dir string) Config {
	return Config{
		Ways: slices.Clone(Ways), Lines: DefaultLines, Trials: DefaultTrials, Warmup: DefaultWarmup,
		Dir: dir, QueueSize: DefaultQueueSize, QueueFull: Block, BufferBytes: DefaultBufferBytes,
		FlushInterval: DefaultFlushInterval, TimerReads: DefaultTimerReads,
	}
}

// Validate says what is wrong with c, if anything.
func (c Config) Validate() error {
	var errs []error
	lib, known := LibraryOf("go", c.library())
	if !known {
		errs = append(errs, fmt.Errorf("unknown library %q (Go: %v)", c.Library, LibraryIDs("go")))
	}
	if !slices.Contains(LineShapes, c.line()) {
		errs = append(errs, fmt.Errorf("unknown line %q (lines: %v)", c.Line, LineShapes))
	}
	for _, w := range c.Ways {
		if ok, why := lib.Offers(w, c.line()); known && slices.Contains(Ways, w) && !ok {
			errs = append(errs, fmt.Errorf("%s: %s %s", w, NotOfferedMark, why))
		}
	}
	if len(c.Ways) == 0 {
		errs = append(errs, errors.New("no ways to measure"))
	}
	for i, w := range c.Ways {
		if !slices.Contains(Ways, w) {
			errs = append(errs, fmt.Errorf("unknown way %q (ways: %v)", w, Ways))
		} else if slices.Contains(c.Ways[:i], w) {
			errs = append(errs, fmt.Errorf("way %q given twice", w))
		}
	}
	if c.Lines < MinLines {
		errs = append(errs, fmt.Errorf("%d lines per trial is below the minimum of %d: a shorter trial is too close to the clock's resolution and the cost of reading it", c.Lines, MinLines))
	}
	if c.Trials < 1 {
		errs = append(errs, fmt.Errorf("trials must be at least 1, not %d", c.Trials))
	}
	if c.Warmup < 0 {
		errs = append(errs, fmt.Errorf("warm-up trials must be 0 or more, not %d", c.Warmup))
	}
	if c.QueueSize < 1 {
		errs = append(errs, fmt.Errorf("queue size must be at least 1, not %d", c.QueueSize))
	}
	if c.QueueFull != Block && c.QueueFull != Drop {
		errs = append(errs, fmt.Errorf("queue-full policy must be %q or %q, not %q", Block, Drop, c.QueueFull))
	}
	if c.BufferBytes < 1 {
		errs = append(errs, fmt.Errorf("buffer size must be at least 1 byte, not %d", c.BufferBytes))
	}
	if c.FlushInterval <= 0 {
		errs = append(errs, fmt.Errorf("flush interval must be positive, not %v", c.FlushInterval))
	}
	if c.TimerReads < 1 {
		errs = append(errs, fmt.Errorf("timer reads must be at least 1, not %d", c.TimerReads))
	}
	if c.writesFiles() {
		if st, err := os.Stat(c.Dir); err != nil {
			errs = append(errs, fmt.Errorf("directory for the log files: %w", err))
		} else if !st.IsDir() {
			errs = append(errs, fmt.Errorf("%s is not a directory", c.Dir))
		}
	}
	return errors.Join(errs...)
}

func (c Config) library() string {
	if c.Library == "" {
		return DefaultLibrary("go").ID
	}
	return c.Library
}

func (c Config) line() string {
	if c.Line == "" {
		return LineDefault
	}
	return c.Line
}

func (c Config) writesFiles() bool {
	return slices.ContainsFunc(c.Ways, writesFile)
}

func writesFile(way string) bool {
	return way == Buffered || way == Unbuffered || way == Fsync || way == Queue
}

// Run measures c's ways and returns the document. It stops between trials when ctx
// ends. Files of kept trials stay in c.Dir for the host to verify; warm-ups' are removed.
func Run(ctx context.Context, c Config) (Document, error) {
	if err := c.Validate(); err != nil {
		return Document{}, err
	}
	// One thread for the whole run: the thread CPU clock and /proc/thread-self/io then
	// follow the calls, and the trials share a thread's cache and scheduling history.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()

	lib, _ := LibraryOf("go", c.library())
	shape := lib.Shape(c.line())
	template, _ := lib.Template(shape)
	doc := Document{
		Experiment: "line-cost", Language: "go",
		Runtime: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH,
		Library: lib.Name, LibraryID: lib.ID, Line: shape, LineFormat: template, StartedUnixNano: time.Now().UnixNano(),
		LinesPerTrial: c.Lines, Trials: c.Trials, WarmupTrials: c.Warmup,
		QueueSize: c.QueueSize, QueueFull: c.QueueFull,
		BufferBytes: c.BufferBytes, FlushIntervalNanos: int64(c.FlushInterval),
		FS: FSFacts{Dir: c.Dir},
	}
	if strings.Contains(template, TimeMark) {
		doc.TimePattern = TimePattern
	}
	timer, err := MeasureTimer(c.TimerReads)
	if err != nil {
		return doc, err
	}
	doc.Timer = timer
	if c.writesFiles() {
		mi := c.Mountinfo
		if mi == "" {
			mi = "/proc/self/mountinfo"
		}
		if doc.FS, err = ReadFSFacts(mi, c.Dir); err != nil {
			return doc, err
		}
	}
	for _, w := range c.Ways {
		call, path := goWayInfo(lib, shape, w)
		doc.Ways = append(doc.Ways, WayResult{Way: w, Call: call, Path: path})
	}
	for round := range c.Warmup + c.Trials {
		for i, w := range c.Ways {
			if err := ctx.Err(); err != nil {
				return doc, err
			}
			warm := round < c.Warmup
			name := fmt.Sprintf("linecost-go-%s-%02d.log", w, round-c.Warmup)
			if warm {
				name = fmt.Sprintf("linecost-go-%s-warmup-%02d.log", w, round)
			}
			if lib.ID != DefaultLibrary("go").ID {
				name = "linecost-go-" + lib.ID + strings.TrimPrefix(name, "linecost-go")
			}
			tr, err := c.trial(w, name)
			if err != nil {
				return doc, fmt.Errorf("%s, trial %d: %w", w, round, err)
			}
			if warm {
				if tr.FileName != "" {
					os.Remove(filepath.Join(c.Dir, tr.FileName))
				}
				continue
			}
			tr.Trial = round - c.Warmup
			doc.Ways[i].Trials = append(doc.Ways[i].Trials, tr)
		}
	}
	return doc, nil
}

// trial runs one trial of way; the caller is locked to its thread.
func (c Config) trial(way, name string) (Trial, error) {
	tr := Trial{Lines: c.Lines}
	path := ""
	if writesFile(way) {
		tr.FileName = name
		path = filepath.Join(c.Dir, name)
	}
	lib, _ := LibraryOf("go", c.library())
	template, _ := lib.Template(c.line())
	in, err := newLibraryInstance(lib, c.line(), way, path, wayOptions{
		bufferBytes: c.BufferBytes, flushInterval: c.FlushInterval,
		queueSize: c.QueueSize, queueFull: c.QueueFull,
	}, nil)
	if err != nil {
		return tr, err
	}
	// Every trial starts from a collected heap, so that one trial does not pay for the
	// garbage of the one before.
	runtime.GC()
	cg := cgroupstat.Reader{Root: c.CgroupRoot}
	before, errBefore := cg.Read()
	sys0 := threadWriteSyscalls()

	cpu0 := threadCPUNanos()
	t0 := time.Now()
	in.run(c.Lines)
	t1 := time.Now()
	cpu1 := threadCPUNanos()

	sys1 := threadWriteSyscalls()
	errFinish := in.finish()
	t2 := time.Now()
	after, errAfter := cg.Read()
	if errFinish != nil {
		return tr, errFinish
	}

	tr.ThreadCPUNanos = cpu1 - cpu0
	tr.WallNanos = t1.Sub(t0).Nanoseconds()
	tr.DrainWallNanos = t2.Sub(t1).Nanoseconds()
	tr.CgroupBefore, tr.CgroupAfter = before, after
	if err := errors.Join(errBefore, errAfter); err != nil {
		tr.CgroupError = err.Error()
	}
	tr.ArgsBuilt = in.user.built
	tr.ThreadWriteSyscalls = -1
	if sys0 >= 0 && sys1 >= 0 {
		tr.ThreadWriteSyscalls = sys1 - sys0
	}
	fill(&tr, way, in, template)
	if in.file != nil {
		if tr.File, tr.FileRaw, err = readBack(path, NewMasker(template)); err != nil {
			return tr, err
		}
	}
	return tr, nil
}

// fill sets the counts that follow from the way's instance after its trial.
func fill(tr *Trial, way string, in *instance, template string) {
	if in.file != nil {
		tr.WriteCalls = in.file.writes.Load()
		tr.FsyncCalls = in.file.syncs.Load()
		tr.WrittenBytes = in.file.bytes.Load()
	}
	if in.queue != nil {
		tr.QueueFullWaits, tr.LinesDropped = in.queue.waits, in.queue.drops
	}
	tr.Generated = nothing()
	if way != DisabledEager && way != DisabledLazy {
		tr.Generated = ExpectedOf(template, tr.Lines)
	}
}

// threadCPUNanos reads the calling thread's CPU clock.
func threadCPUNanos() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return ts.Nano()
}

// MeasureTimer reads each clock reads times back to back.
func MeasureTimer(reads int) (TimerCost, error) {
	tc := TimerCost{Reads: int64(reads)}
	var res unix.Timespec
	if err := unix.ClockGetres(unix.CLOCK_MONOTONIC, &res); err != nil {
		return tc, fmt.Errorf("clock_getres(CLOCK_MONOTONIC): %w", err)
	}
	tc.MonotonicResolutionNs = res.Nano()
	if err := unix.ClockGetres(unix.CLOCK_THREAD_CPUTIME_ID, &res); err != nil {
		return tc, fmt.Errorf("clock_getres(CLOCK_THREAD_CPUTIME_ID): %w", err)
	}
	tc.ThreadCPUResolutionNs = res.Nano()

	start := time.Now()
	var last time.Time
	for range reads {
		last = time.Now()
	}
	tc.MonotonicNsPerRead = float64(last.Sub(start).Nanoseconds()) / float64(reads)

	start = time.Now()
	var sum int64
	for range reads {
		sum += threadCPUNanos()
	}
	tc.ThreadCPUNsPerRead = float64(time.Since(start).Nanoseconds()) / float64(reads)
	if sum == 0 {
		return tc, errors.New("the thread CPU clock cannot be read")
	}
	return tc, nil
}
