package contract

// The line-cost experiment's document: what its measuring program (Go:
// cmd/incontainer/linecost, Python: images/api-python/app/logbench_linecost.py, Node.js:
// images/api-node/app/logbench_linecost.js) leaves in the run's volume, and the host
// reads with one decoder whatever the language.

// LineCostDocument is what one line-cost program reports: every measured trial of every
// way.
// The three programs write the same fields in the same order (test_linecost.py and
// linecost.test.js check the Python and Node.js ones against these structs), so the host
// reads them with one decoder.
type LineCostDocument struct {
	Experiment string `json:"experiment"` // always "line-cost"
	Language   string `json:"language"`   // "go", "python" or "node"
	Runtime    string `json:"runtime"`    // e.g. "go1.26.8 linux/amd64", "Python 3.11.2"
	Library    string `json:"library"`    // the logging library measured: "log/slog", "logging"
	// LibraryID is the library as --libraries names it ("slog", "zap", "structlog");
	// "" in documents written before the experiment had a library axis.
	LibraryID string `json:"library_id"`
	// Line is the shape of the line the library wrote (text, text-notime, json,
	// json-notime; kit/incontainer/linecost.LineShapes), "" before lines had shapes.
	Line string `json:"line"`
	// LineFormat is the line every enabled way writes, {seq} being the line's number in
	// its trial from 0 and {time} where the library writes its time stamp: the host
	// regenerates a trial's expected bytes from it, time stamps masked.
	LineFormat string `json:"line_format"`
	// TimePattern is the regular expression a time stamp matched when the program
	// masked it ("" when the line has none).
	TimePattern     string `json:"time_pattern"`
	StartedUnixNano int64  `json:"started_unix_ns"`
	LinesPerTrial   int64  `json:"lines_per_trial"`
	Trials          int    `json:"trials"`
	WarmupTrials    int    `json:"warmup_trials"` // run before Trials and discarded
	QueueSize       int    `json:"queue_size"`    // lines the queue way's queue holds
	QueueFull       string `json:"queue_full"`    // "block" or "drop"
	// The buffered way's buffer: flushed when full and every FlushIntervalNanos.
	BufferBytes        int           `json:"buffer_bytes"`
	FlushIntervalNanos int64         `json:"flush_interval_ns"`
	Timer              LineCostTimer `json:"timer"`
	FS                 LineCostFS    `json:"fs"`
	Ways               []LineCostWay `json:"ways"`
}

// LineCostTimer is the cost and resolution of the two clocks a trial reads, measured by
// reading each back to back: a trial's figures carry an error of about two reads and
// one resolution step, which MinLines keeps small next to the trial.
type LineCostTimer struct {
	Reads                 int64   `json:"reads"`
	MonotonicNsPerRead    float64 `json:"monotonic_ns_per_read"`
	ThreadCPUNsPerRead    float64 `json:"thread_cpu_ns_per_read"`
	MonotonicResolutionNs int64   `json:"monotonic_resolution_ns"` // clock_getres(CLOCK_MONOTONIC)
	ThreadCPUResolutionNs int64   `json:"thread_cpu_resolution_ns"`
}

// LineCostFS are the file system the file-writing ways wrote to, from /proc/self/mountinfo:
// fsync's cost depends on it more than on anything else.
type LineCostFS struct {
	Dir          string `json:"dir"`
	MountPoint   string `json:"mount_point"`
	FSType       string `json:"fs_type"`
	Source       string `json:"source"`
	MountOptions string `json:"mount_options"` // per mount, e.g. "rw,relatime"
	SuperOptions string `json:"super_options"` // per file system, e.g. "rw,data=ordered"
}

// LineCostWay is one way's measured trials.
type LineCostWay struct {
	Way    string          `json:"way"`
	Call   string          `json:"call"`   // the call site, as a program would write it
	Path   string          `json:"path"`   // what the library does with the line
	Trials []LineCostTrial `json:"trials"` // warm-up trials excluded
}

// LineCostTrial is Lines log calls of one way in a row.
type LineCostTrial struct {
	Trial int   `json:"trial"` // from 0, after the warm-ups
	Lines int64 `json:"lines"`
	// The calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID) and the monotonic wall
	// time over the calls alone.
	ThreadCPUNanos int64 `json:"thread_cpu_ns"`
	WallNanos      int64 `json:"wall_ns"`
	// DrainWallNanos is the wall time after the last call until every line was out of
	// the process: the queue drained, the buffer flushed, the file closed.
	DrainWallNanos int64 `json:"drain_wall_ns"`
	// The process's cgroup before the calls and after the drain: its CPU counts every
	// thread (the queue's writer, the flusher, the runtime), and its throttling shows
	// whether a CPU limit stretched the trial.
	CgroupBefore CgroupSnapshot `json:"cgroup_before"`
	CgroupAfter  CgroupSnapshot `json:"cgroup_after"`
	CgroupError  string         `json:"cgroup_error"` // why they could not be read; "" when they were
	// ArgsBuilt counts how often the line's user argument was rendered to text: Lines
	// for every way that builds its line, 0 for disabled-lazy.
	ArgsBuilt int64 `json:"args_built"`
	// ThreadWriteSyscalls is the calling thread's write system calls as the kernel
	// counted them (syscw of /proc/thread-self/io); -1 when the kernel does not say.
	ThreadWriteSyscalls int64 `json:"thread_write_syscalls"`
	// WriteCalls and FsyncCalls are the write and fsync calls made on the way's file, by
	// any thread; WrittenBytes what the write calls reported written.
	WriteCalls   int64 `json:"write_calls"`
	FsyncCalls   int64 `json:"fsync_calls"`
	WrittenBytes int64 `json:"written_bytes"`
	// The queue way: calls that found the queue full and waited (block) or dropped their
	// line (drop).
	QueueFullWaits int64 `json:"queue_full_waits"`
	LinesDropped   int64 `json:"lines_dropped"`
	// Generated is the lines the calls asked for, as the library formats them (nothing
	// for the disabled ways); File what the way's file holds when read back after the
	// trial (zero with an empty digest for the ways that write no file). They are equal
	// when every line was written, in order. Both are counted with each line's time
	// stamp replaced by {time} (LineFormat): the rest of every line is regenerated.
	Generated Counts `json:"generated"`
	FileName  string `json:"file_name"` // relative to LineCostFS.Dir; "" for no file
	File      Counts `json:"file"`
	// FileRaw is the file as it is, time stamps and all: its bytes are what the write
	// calls wrote. Zero in documents written before lines had time stamps.
	FileRaw Counts `json:"file_raw"`
}
