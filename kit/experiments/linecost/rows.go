package linecost

import (
	"fmt"
	"strings"
	"sync"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	lc "github.com/logbench/logbench/kit/incontainer/linecost"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// RunKey are the columns that say which run a row is of, first in runs.csv and in
// trials.csv alike (its round next, tabular.RunPlace in runs.csv).
type RunKey struct {
	RunID    string `csv:"run_id" doc:"The run's identifier, unique in the bundle; runs.csv has its condition."`
	Language string `csv:"language" doc:"The language whose usual logging is measured, by a program in its API image: go (log/slog), python (logging) or node (util.format and fs.writeSync; its CPU figures are the whole process's, see thread_cpu_ns)."`
	Way      string `csv:"way" doc:"How the line is logged: format (formatted, written nowhere), disabled-eager (a disabled DEBUG line whose message is built at the call site), disabled-lazy (the same with its arguments passed apart), buffered (a 4 KiB buffer flushed when full and every flush_interval_ns), unbuffered (one write system call per line), fsync (a write and an fsync per line) or queue (handed to a bounded queue a writer thread drains)."`
}

// TrialRow is one measured trial (trials.csv): what the program reported, the
// checks the host makes of it, and its figures per line.
type TrialRow struct {
	RunKey
	Round             int        `csv:"round" unit:"1" doc:"The round of the matrix, from 1."`
	Trial             int        `csv:"trial" unit:"1" numbered:"0" doc:"The trial's number in its run, from 0, after the warm-ups."`
	Lines             int64      `csv:"lines" unit:"1" doc:"Log calls in the trial."`
	ThreadCPUNs       int64      `csv:"thread_cpu_ns" unit:"ns" doc:"The calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID) over the calls alone; for node, whose Node.js 18 has no per-thread CPU clock (process.threadCpuUsage came in a later major version), the whole process's (process.cpuUsage(): the garbage collector's and compiler's threads and, in the queue way, the writer thread's too)."`
	WallNs            int64      `csv:"wall_ns" unit:"ns" doc:"Monotonic wall time over the calls alone."`
	DrainWallNs       int64      `csv:"drain_wall_ns" unit:"ns" doc:"Wall time after the last call until every line was out of the process: the queue drained, the buffer flushed, the file closed."`
	CgroupCPUNs       bundle.Opt `csv:"cpu_used_ns" was:"cgroup_cpu_ns" unit:"ns" doc:"CPU time of every thread of the container (the queue's writer, the flusher, the runtime) from before the calls to after the drain, as fifo-stall's containers.csv names it; missing when the cgroup could not be read (0 in bundles written before)."`
	CgroupWallNs      bundle.Opt `csv:"cgroup_wall_ns" unit:"ns" doc:"Wall time between the two cgroup readings; missing when the cgroup could not be read (0 in bundles written before)."`
	CgroupPeriods     bundle.Opt `csv:"cpu_periods" was:"cgroup_periods" unit:"1" doc:"CFS periods elapsed between the two cgroup readings (0 without a CPU limit); missing without a reading (0 in bundles written before)."`
	ThrottledPeriods  bundle.Opt `csv:"cpu_throttled_periods" was:"throttled_periods" unit:"1" doc:"CFS periods in which the container was throttled between the two readings; missing without a reading (0 in bundles written before)."`
	ThrottledMs       bundle.Opt `csv:"cpu_throttled_ms" unit:"ms" doc:"Time the container was throttled between the two readings, in ms as fifo-stall's; missing without a reading. Bundles written before have throttled_ns, in ns (0 without a reading), which the kit reads as this column, divided by 1e6."`
	CPULimitCores     bundle.Opt `csv:"cpu_limit_cores" unit:"cores" doc:"The container's CPU limit as the cgroup reported it after the trial; 0 means none (unlimited); missing when the cgroup could not be read (0 in bundles written before, which could mean either)."`
	CgroupError       string     `csv:"cgroup_error" doc:"Why the cgroup could not be read; empty when it was (a trial without a reading is not verified)."`
	ArgsBuilt         int64      `csv:"args_built" unit:"1" doc:"How often the line's user argument was rendered to text: lines for every way that builds its line, 0 for disabled-lazy."`
	ThreadWriteSysc   bundle.Opt `csv:"thread_write_syscalls" unit:"1" doc:"The calling thread's write system calls as the kernel counted them (syscw of /proc/thread-self/io); empty when the kernel does not say (-1 in bundles written before)."`
	WriteCalls        int64      `csv:"write_calls" unit:"1" doc:"Write calls made on the way's file, by any thread; 0 for the ways that write no file."`
	FsyncCalls        int64      `csv:"fsync_calls" unit:"1" doc:"Fsync calls made on the way's file, by any thread."`
	WrittenBytes      int64      `csv:"written_bytes" unit:"bytes" doc:"Bytes the write calls reported written; must equal file_bytes."`
	QueueFullWaits    int64      `csv:"queue_full_waits" unit:"1" doc:"Calls of the queue way that found the queue full and waited (block) or dropped their line (drop)."`
	LinesDropped      int64      `csv:"lines_dropped" unit:"1" doc:"Lines the queue way dropped (queue_full drop); 0 otherwise."`
	GeneratedLines    int64      `csv:"generated_lines" unit:"1" doc:"Lines the calls asked for, as the library formatted them; 0 for the disabled ways."`
	GeneratedBytes    int64      `csv:"generated_bytes" unit:"bytes" doc:"Bytes of those lines."`
	GeneratedSHA256   string     `csv:"generated_sha256" doc:"SHA-256 (hex) of those bytes; must be the kit's regeneration of lines lines for every enabled way; the empty input's digest for the disabled ways."`
	FileName          string     `csv:"file_name" doc:"The way's file, relative to the run's fs_dir; empty for the ways that write no file."`
	FileLines         int64      `csv:"file_lines" unit:"1" doc:"Lines the way's file holds when read back after the trial; 0 without a file."`
	FileBytes         int64      `csv:"file_bytes" unit:"bytes" doc:"Bytes the way's file holds when read back; 0 without a file."`
	FileSHA256        string     `csv:"file_sha256" doc:"SHA-256 (hex) of the file read back, each line's time stamp replaced by {time} (as line_format has it); empty without a file."`
	FileRawBytes      int64      `csv:"file_raw_bytes" later:"it measured several libraries" unit:"bytes" doc:"Bytes the way's file holds as it is, time stamps and all: must be written_bytes; 0 without a file, or when the line has no time stamp (file_bytes is then the file as it is)."`
	FileRawSHA256     string     `csv:"file_raw_sha256" later:"it measured several libraries" doc:"SHA-256 (hex) of the file as it is; empty without a file or time stamp."`
	Throttled         bool       `csv:"throttled" doc:"true when a CFS period of the trial was throttled (throttled_periods > 0): a CPU limit stretched its wall time."`
	Verified          bool       `csv:"verified" doc:"true when the trial is data: failure is empty."`
	Failure           string     `csv:"failure" doc:"Why the trial is not data, reasons joined by \"; \" (too few lines, a clock that did not advance, no cgroup reading, the way not doing what it says, a line missing or different in the file); empty when it is."`
	CPUNsPerLine      bundle.Opt `csv:"cpu_ns_per_line" unit:"ns" doc:"thread_cpu_ns over lines: what one call costs the calling thread's CPU; empty when lines is 0."`
	WallNsPerLine     bundle.Opt `csv:"wall_ns_per_line" unit:"ns" doc:"wall_ns over lines; empty when lines is 0."`
	CgroupCPUNsPerLin bundle.Opt `csv:"cgroup_cpu_ns_per_line" unit:"ns" doc:"cpu_used_ns over lines: the whole container's CPU per line, drain included; empty when lines is 0 or the cgroup could not be read."`
}

// RunRow is one run (runs.csv): one container measuring one way of one language.
type RunRow struct {
	RunKey
	tabular.RunPlace
	Runtime           string  `csv:"runtime" doc:"The language runtime as the program reported it (\"go1.26.8 linux/amd64\", \"Python 3.11.2\", \"Node.js v18.20.4 linux/x64\"); empty when it wrote no document."`
	Library           string  `csv:"library" doc:"The logging library measured (log/slog, logging; for node, util.format and fs.writeSync, and the CPU clock it had); empty when the program wrote no document."`
	LibraryID         string  `csv:"library_id" later:"it measured several libraries" doc:"The library as --libraries names it (slog, zap, zerolog, logrus, logging, structlog, loguru, util, winston); empty in bundles written before the library axis, which measured each language's first."`
	Line              string  `csv:"line" later:"it measured several libraries" doc:"The shape of the line the library wrote (text, text-notime, json or json-notime: the manifest's line, default resolved to the library's own); empty in bundles written before the library axis, whose line was text-notime."`
	Call              string  `csv:"call" doc:"The call site of the way, as a program would write it; empty when the document has no trial of the way."`
	Path              string  `csv:"path" doc:"What the library does with the line in this way; empty when the document has no trial of the way."`
	LineFormat        string  `csv:"line_format" doc:"The line every enabled way writes, {seq} being the line's number in its trial from 0 and {time} where the library writes its time stamp; the kit regenerates a trial's expected bytes from its own line of the library and shape, time stamps masked, so a verified run has the kit's."`
	Lines             int64   `csv:"lines_per_trial" unit:"1" doc:"Log calls per trial as the program reported it (the manifest's lines_per_trial, or fsync_lines_per_trial for fsync); 0 without a document."`
	Trials            int     `csv:"trials" unit:"1" doc:"Measured trials per run as the program reported it; 0 without a document."`
	WarmupTrials      int     `csv:"warmup_trials" unit:"1" doc:"Trials run before the measured ones and discarded."`
	QueueSize         int     `csv:"queue_size" unit:"1" doc:"Lines the queue way's queue holds."`
	QueueFull         string  `csv:"queue_full" doc:"What the queue way does when its queue is full: block (wait for room) or drop (lose the line and count it); empty without a document."`
	BufferBytes       int     `csv:"buffer_bytes" unit:"bytes" doc:"The buffered way's buffer size."`
	FlushNs           int64   `csv:"flush_interval_ns" unit:"ns" doc:"How often the buffered way flushes its buffer, full or not."`
	TimerMonotonicNs  float64 `csv:"timer_monotonic_ns_per_read" unit:"ns" doc:"Cost of one read of the monotonic clock, measured back to back in the container: a trial's wall figure carries about two reads of error."`
	TimerThreadCPUNs  float64 `csv:"timer_thread_cpu_ns_per_read" unit:"ns" doc:"Cost of one read of the thread CPU clock (CLOCK_THREAD_CPUTIME_ID; for node, process.cpuUsage()), measured back to back in the container."`
	TimerMonotonicRes int64   `csv:"timer_monotonic_resolution_ns" unit:"ns" doc:"The monotonic clock's resolution (clock_getres)."`
	TimerThreadCPURes int64   `csv:"timer_thread_cpu_resolution_ns" unit:"ns" doc:"The thread CPU clock's resolution (clock_getres; for node, 1000: process.cpuUsage() counts microseconds)."`
	FSDir             string  `csv:"fs_dir" doc:"The directory the file-writing ways wrote to, in the container; empty without a document."`
	FSType            string  `csv:"fs_type" doc:"Its file system's type, from /proc/self/mountinfo; empty when no enabled way wrote a file."`
	FSSource          string  `csv:"fs_source" doc:"Its file system's source device, from /proc/self/mountinfo; empty when not read."`
	FSMountPoint      string  `csv:"fs_mount_point" doc:"The mount point holding fs_dir; empty when not read."`
	MountOptions      string  `csv:"mount_options" doc:"The mount's options (\"rw,relatime\"); empty when not read."`
	SuperOptions      string  `csv:"super_options" doc:"The file system's super-block options (\"rw,data=ordered\"); empty when not read."`
	Volume            string  `csv:"volume" doc:"The named volume mounted at fs_dir: the manifest's parameters.volume, or logbench-<run_id> when each run had a fresh one."`
	TrialsVerified    int     `csv:"trials_verified" unit:"1" doc:"The run's trials in trials.csv with verified true."`
	TrialsThrottle    int     `csv:"trials_throttled" unit:"1" doc:"The run's trials in trials.csv with throttled true."`
	Exits             string  `csv:"exits" doc:"role:exit code per container, space-separated, with :oom when the kernel killed it for memory; empty when none was seen to exit."`
	Verified          bool    `csv:"verified" doc:"true when the run is data: failure is empty."`
	Failure           string  `csv:"failure" doc:"Why the run is not data, reasons joined by \"; \" (what the engine saw, an unreadable or wrong document, no trial, trials not verified); empty when it is."`
}

// Derive turns one run's document into its rows; failure is what the engine side saw
// go wrong ("" when nothing did). The trials' checks are CheckTrial's, which verify
// repeats.
func Derive(p Params, run RunRow, doc *contract.LineCostDocument, failure string) (RunRow, []TrialRow) {
	run.Failure = failure
	var trials []TrialRow
	lib, _ := LibraryOfRun(run.Language, run.LibraryID)
	template := p.TemplateOf(lib)
	if doc != nil {
		run.Runtime, run.Library, run.LineFormat = doc.Runtime, doc.Library, doc.LineFormat
		if !p.Legacy() {
			run.Line = doc.Line
		}
		run.Lines, run.Trials, run.WarmupTrials = doc.LinesPerTrial, doc.Trials, doc.WarmupTrials
		run.QueueSize, run.QueueFull, run.BufferBytes, run.FlushNs = doc.QueueSize, doc.QueueFull, doc.BufferBytes, doc.FlushIntervalNanos
		t := doc.Timer
		run.TimerMonotonicNs, run.TimerThreadCPUNs, run.TimerMonotonicRes, run.TimerThreadCPURes =
			t.MonotonicNsPerRead, t.ThreadCPUNsPerRead, t.MonotonicResolutionNs, t.ThreadCPUResolutionNs
		fs := doc.FS
		run.FSDir, run.FSType, run.FSSource, run.FSMountPoint, run.MountOptions, run.SuperOptions =
			fs.Dir, fs.FSType, fs.Source, fs.MountPoint, fs.MountOptions, fs.SuperOptions
		var problems experiment.Failures
		problems.Unless(doc.Experiment == Name, "the document is of experiment %q", doc.Experiment)
		problems.Unless(doc.LineFormat == template, "the program writes %q, not the kit's line %q", doc.LineFormat, template)
		problems.Unless(p.Legacy() || (doc.LibraryID == lib.ID && doc.Line == p.LineOf(lib) && doc.Library == lib.Name),
			"the program measured %s (%q) writing %s, not %s (%q) writing %s", doc.LibraryID, doc.Library, doc.Line, lib.ID, lib.Name, p.LineOf(lib))
		problems.Unless(!strings.Contains(template, lc.TimeMark) || lc.KnownTimePattern(doc.TimePattern),
			"the program masked time stamps matching %q, not the kit's %q", doc.TimePattern, lc.TimePattern)
		found := false
		for _, w := range doc.Ways {
			if w.Way != run.Way {
				continue
			}
			found = true
			run.Call, run.Path = w.Call, w.Path
			for _, tr := range w.Trials {
				trials = append(trials, trialRow(run, tr, template))
			}
		}
		problems.Unless(found, "the document has no trial of way %s", run.Way)
		problems.Unless(!found || len(trials) == doc.Trials, "%d trials, the document says %d", len(trials), doc.Trials)
		run.Failure = experiment.JoinFailures(run.Failure, problems.String())
	}
	return FinishRun(run, trials), trials
}

// FinishRun counts a run's trials and says whether it is data: it is when nothing went
// wrong and every trial verified.
func FinishRun(run RunRow, trials []TrialRow) RunRow {
	run.TrialsVerified, run.TrialsThrottle = 0, 0
	for _, t := range trials {
		if t.Verified {
			run.TrialsVerified++
		}
		if t.Throttled {
			run.TrialsThrottle++
		}
	}
	if run.Failure == "" && len(trials) == 0 {
		run.Failure = "no trial measured"
	}
	if run.Failure == "" && run.TrialsVerified < len(trials) {
		run.Failure = fmt.Sprintf("%d of %d trials not verified", len(trials)-run.TrialsVerified, len(trials))
	}
	run.Verified = run.Failure == ""
	return run
}

func trialRow(run RunRow, tr contract.LineCostTrial, template string) TrialRow {
	b, a := tr.CgroupBefore, tr.CgroupAfter
	t := TrialRow{
		RunKey: run.RunKey, Round: run.Round, Trial: tr.Trial, Lines: tr.Lines,
		ThreadCPUNs: tr.ThreadCPUNanos, WallNs: tr.WallNanos, DrainWallNs: tr.DrainWallNanos,
		CgroupError: tr.CgroupError, ArgsBuilt: tr.ArgsBuilt,
		// The programs report -1 when the kernel does not say; the bundle leaves it empty.
		ThreadWriteSysc: bundle.OptIf(tr.ThreadWriteSyscalls >= 0, float64(tr.ThreadWriteSyscalls)),
		WriteCalls:      tr.WriteCalls, FsyncCalls: tr.FsyncCalls, WrittenBytes: tr.WrittenBytes,
		QueueFullWaits: tr.QueueFullWaits, LinesDropped: tr.LinesDropped,
		GeneratedLines: tr.Generated.Lines, GeneratedBytes: tr.Generated.Bytes, GeneratedSHA256: tr.Generated.SHA256,
		FileName: tr.FileName, FileLines: tr.File.Lines, FileBytes: tr.File.Bytes, FileSHA256: tr.File.SHA256,
	}
	if strings.Contains(template, lc.TimeMark) {
		t.FileRawBytes, t.FileRawSHA256 = tr.FileRaw.Bytes, tr.FileRaw.SHA256
	}
	// Without a reading the cgroup's figures are absent: 0 would read as a figure (and a
	// limit of 0 as none).
	read := tr.CgroupError == ""
	t.CgroupCPUNs = bundle.OptIf(read, float64(a.CPUUsageNanos-b.CPUUsageNanos))
	t.CgroupWallNs = bundle.OptIf(read, float64(a.UnixNano-b.UnixNano))
	t.CgroupPeriods = bundle.OptIf(read, float64(a.CPUPeriods-b.CPUPeriods))
	t.ThrottledPeriods = bundle.OptIf(read, float64(a.CPUThrottled-b.CPUThrottled))
	t.ThrottledMs = bundle.OptIf(read, float64(a.CPUThrottledNanos-b.CPUThrottledNanos)/1e6) // as fifo-stall's
	t.CPULimitCores = bundle.OptIf(read, float64(a.CPULimitCores))
	return CheckTrialWith(t, template)
}

// CheckTrial sets a trial's derived columns from its measured ones: its figures per
// line, whether a CPU limit throttled it, and whether it is verified: the way did what
// it says (see wayChecks) and every line it wrote is in its file, byte for byte, as
// the kit regenerates it from the line count. Saving and verify both call it. It is
// CheckTrialWith the kit's line before lines had a time stamp.
func CheckTrial(t TrialRow) TrialRow { return CheckTrialWith(t, lc.LineFormat) }

// CheckTrialWith is CheckTrial of a trial whose library writes template (the kit's own,
// Params.TemplateOf): every line is regenerated from it, time stamps masked.
func CheckTrialWith(t TrialRow, template string) TrialRow {
	t.Throttled = t.ThrottledPeriods.Present() && t.ThrottledPeriods > 0
	n := bundle.Opt(t.Lines)
	t.CPUNsPerLine, t.WallNsPerLine = bundle.Per(bundle.Opt(t.ThreadCPUNs), n), bundle.Per(bundle.Opt(t.WallNs), n)
	t.CgroupCPUNsPerLin = bundle.Per(t.CgroupCPUNs, n)
	if t.CgroupError != "" {
		t.CgroupCPUNsPerLin = bundle.None
	}
	var problems experiment.Failures
	problems.Unless(t.Lines >= lc.MinLines, "%d lines, fewer than the minimum of %d", t.Lines, lc.MinLines)
	problems.Unless(t.ThreadCPUNs > 0 && t.WallNs > 0, "a clock did not advance over the trial")
	problems.Unless(t.CgroupError == "", "no cgroup reading: %s", t.CgroupError)
	wayChecks(&problems, t, template)
	t.Failure = problems.String()
	t.Verified = t.Failure == ""
	return t
}

// wayChecks: each way does what the experiment says it does, counted in the
// container, and every line written is verified against the lines generated.
func wayChecks(p *experiment.Failures, t TrialRow, template string) {
	want := ExpectedOf(template, t.Lines)
	none := ExpectedOf(lc.LineFormat, 0)
	check := p.Unless
	gen := contract.Counts{Lines: t.GeneratedLines, Bytes: t.GeneratedBytes, SHA256: t.GeneratedSHA256}
	file := contract.Counts{Lines: t.FileLines, Bytes: t.FileBytes, SHA256: t.FileSHA256}
	switch t.Way {
	case lc.DisabledEager, lc.DisabledLazy:
		check(gen == none, "a disabled way generated %d lines", gen.Lines)
		check(t.FileName == "" && file.Lines == 0 && file.Bytes == 0, "a disabled way wrote a file")
		if t.Way == lc.DisabledEager {
			check(t.ArgsBuilt == t.Lines, "eager arguments built %d times for %d lines", t.ArgsBuilt, t.Lines)
		} else {
			check(t.ArgsBuilt == 0, "lazy arguments built %d times: the level check did not come first", t.ArgsBuilt)
		}
		return
	case lc.Format, lc.Buffered, lc.Unbuffered, lc.Fsync, lc.Queue:
	default:
		check(false, "unknown way %q", t.Way)
		return
	}
	check(gen == want, "generated %d lines, %d bytes, sha256 %.12s; the kit's %d lines are %d bytes, sha256 %.12s", gen.Lines, gen.Bytes, gen.SHA256, want.Lines, want.Bytes, want.SHA256)
	check(t.ArgsBuilt == t.Lines, "arguments built %d times for %d lines", t.ArgsBuilt, t.Lines)
	if t.Way == lc.Format {
		check(t.FileName == "" && t.WriteCalls == 0, "the format way wrote to a file")
		return
	}
	check(t.FileName != "", "no file")
	if t.LinesDropped > 0 {
		// A dropping queue loses lines by design: the file cannot equal what was
		// generated, so what is checked is that every line is accounted for.
		check(t.FileLines+t.LinesDropped == t.Lines, "%d lines in the file and %d dropped, of %d", t.FileLines, t.LinesDropped, t.Lines)
	} else {
		check(file == want, "the file holds %d lines, %d bytes, sha256 %.12s; want %d lines, %d bytes, sha256 %.12s", file.Lines, file.Bytes, file.SHA256, want.Lines, want.Bytes, want.SHA256)
	}
	if strings.Contains(template, lc.TimeMark) {
		check(t.WrittenBytes == t.FileRawBytes, "write calls reported %d bytes written, the file holds %d", t.WrittenBytes, t.FileRawBytes)
		check(t.LinesDropped > 0 || t.FileRawSHA256 != file.SHA256, "the file's lines have no time stamp to mask")
	} else {
		check(t.WrittenBytes == file.Bytes, "write calls reported %d bytes written, the file holds %d", t.WrittenBytes, file.Bytes)
	}
	switch t.Way {
	case lc.Unbuffered, lc.Queue:
		check(t.WriteCalls == t.Lines-t.LinesDropped, "%d write calls for %d lines: not one write a line", t.WriteCalls, t.Lines-t.LinesDropped)
		check(t.FsyncCalls == 0, "%d fsync calls", t.FsyncCalls)
	case lc.Fsync:
		check(t.WriteCalls == t.Lines, "%d write calls for %d lines: not one write a line", t.WriteCalls, t.Lines)
		check(t.FsyncCalls == t.Lines, "%d fsync calls for %d lines: not one a line", t.FsyncCalls, t.Lines)
	case lc.Buffered:
		// A 4 KiB buffer takes about sixty lines before it writes.
		check(t.WriteCalls*10 <= t.Lines, "%d write calls for %d lines: the buffer does not gather lines", t.WriteCalls, t.Lines)
		// zap's BufferedWriteSyncer syncs its file once when stopped, after the calls.
		check(t.FsyncCalls <= 1, "%d fsync calls: more than the one a buffer may make when it is closed", t.FsyncCalls)
	}
	if t.Way == lc.Queue {
		// -1 is how bundles written before said the kernel did not say.
		check(!t.ThreadWriteSysc.Present() || t.ThreadWriteSysc < 0 || t.ThreadWriteSysc*10 <= bundle.Opt(t.Lines), "the calling thread made %v write system calls for %d lines: the queue did not take the write off it", t.ThreadWriteSysc, t.Lines)
	}
}

type expectedKey struct {
	template string
	lines    int64
}

var expectedCache sync.Map // expectedKey -> contract.Counts

// ExpectedOf is what lines calls of an enabled way generate, regenerated by the kit
// from its own template (kit/incontainer/linecost.AppendTemplate) with every time stamp
// masked, whatever the program reported.
func ExpectedOf(template string, lines int64) contract.Counts {
	k := expectedKey{template, lines}
	if c, ok := expectedCache.Load(k); ok {
		return c.(contract.Counts)
	}
	c := lc.ExpectedOf(template, lines)
	expectedCache.Store(k, c)
	return c
}
