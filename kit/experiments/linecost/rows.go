package linecost

import (
	"fmt"
	"strings"
	"sync"

	"github.com/logbench/logbench/kit/contract"
	lc "github.com/logbench/logbench/kit/incontainer/linecost"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// TrialRow is one measured trial (trials.csv): what the program reported, the
// checks the host makes of it, and its figures per line.
type TrialRow struct {
	RunID    string `csv:"run_id"`
	Language string `csv:"language"`
	Way      string `csv:"way"`
	Round    int    `csv:"round"`
	Trial    int    `csv:"trial"`
	Lines    int64  `csv:"lines"`
	// The calling thread's CPU time and the wall time over the calls alone, and the
	// wall time until every line was out of the process.
	ThreadCPUNs int64 `csv:"thread_cpu_ns"`
	WallNs      int64 `csv:"wall_ns"`
	DrainWallNs int64 `csv:"drain_wall_ns"`
	// The container's cgroup over the trial (calls and drain): CPU of every thread, the
	// CFS periods and those throttled, named and in the units of fifo-stall's
	// containers.csv (one idea, one name); all absent when the cgroup could not be read.
	// The time throttled was throttled_ns, in ns, in bundles written before: the reader
	// converts it (legacyColumns).
	CgroupCPUNs      bundle.Opt `csv:"cpu_used_ns" was:"cgroup_cpu_ns"`
	CgroupWallNs     bundle.Opt `csv:"cgroup_wall_ns"`
	CgroupPeriods    bundle.Opt `csv:"cpu_periods" was:"cgroup_periods"`
	ThrottledPeriods bundle.Opt `csv:"cpu_throttled_periods" was:"throttled_periods"`
	ThrottledMs      bundle.Opt `csv:"cpu_throttled_ms"`
	// CPULimitCores is the limit the cgroup gave: 0 is none (unlimited), absent is no reading.
	CPULimitCores   bundle.Opt `csv:"cpu_limit_cores"`
	CgroupError     string     `csv:"cgroup_error"`
	ArgsBuilt       int64      `csv:"args_built"`
	ThreadWriteSysc bundle.Opt `csv:"thread_write_syscalls"` // absent when the kernel does not say
	WriteCalls      int64      `csv:"write_calls"`
	FsyncCalls      int64      `csv:"fsync_calls"`
	WrittenBytes    int64      `csv:"written_bytes"`
	QueueFullWaits  int64      `csv:"queue_full_waits"`
	LinesDropped    int64      `csv:"lines_dropped"`
	GeneratedLines  int64      `csv:"generated_lines"`
	GeneratedBytes  int64      `csv:"generated_bytes"`
	GeneratedSHA256 string     `csv:"generated_sha256"`
	FileName        string     `csv:"file_name"`
	FileLines       int64      `csv:"file_lines"`
	FileBytes       int64      `csv:"file_bytes"`
	FileSHA256      string     `csv:"file_sha256"`
	// The file as it is, time stamps and all (file_* count it with each time stamp
	// masked): what the write calls wrote. Empty in bundles written before lines had
	// time stamps.
	FileRawBytes      int64      `csv:"file_raw_bytes"`
	FileRawSHA256     string     `csv:"file_raw_sha256"`
	Throttled         bool       `csv:"throttled"` // a CFS period of the trial was throttled
	Verified          bool       `csv:"verified"`
	Failure           string     `csv:"failure"`
	CPUNsPerLine      bundle.Opt `csv:"cpu_ns_per_line"`
	WallNsPerLine     bundle.Opt `csv:"wall_ns_per_line"`
	CgroupCPUNsPerLin bundle.Opt `csv:"cgroup_cpu_ns_per_line"`
}

// RunRow is one run (runs.csv): one container measuring one way of one language.
type RunRow struct {
	RunID      string  `csv:"run_id"`
	Language   string  `csv:"language"`
	Way        string  `csv:"way"`
	Round      int     `csv:"round"`
	Position   int     `csv:"position"`
	StartedUTC string  `csv:"started_utc"`
	WallS      float64 `csv:"wall_s"` // the kit's whole run, pod created to removed
	Runtime    string  `csv:"runtime"`
	Library    string  `csv:"library"`
	// LibraryID is the library as --libraries names it, and Line the shape it wrote;
	// both "" in bundles written before the library axis (each language's first
	// library, text-notime).
	LibraryID string `csv:"library_id"`
	Line      string `csv:"line"`
	Call      string `csv:"call"`
	Path      string `csv:"path"`
	// LineFormat is the line every enabled way writes; the host regenerates a trial's
	// expected bytes from the kit's own line of the library and shape, which it must be.
	LineFormat   string `csv:"line_format"`
	Lines        int64  `csv:"lines_per_trial"`
	Trials       int    `csv:"trials"`
	WarmupTrials int    `csv:"warmup_trials"`
	QueueSize    int    `csv:"queue_size"`
	QueueFull    string `csv:"queue_full"`
	BufferBytes  int    `csv:"buffer_bytes"`
	FlushNs      int64  `csv:"flush_interval_ns"`
	// The clocks' own cost and resolution, read back to back in the container.
	TimerMonotonicNs  float64 `csv:"timer_monotonic_ns_per_read"`
	TimerThreadCPUNs  float64 `csv:"timer_thread_cpu_ns_per_read"`
	TimerMonotonicRes int64   `csv:"timer_monotonic_resolution_ns"`
	TimerThreadCPURes int64   `csv:"timer_thread_cpu_resolution_ns"`
	// The file system the file-writing ways wrote to.
	FSDir          string `csv:"fs_dir"`
	FSType         string `csv:"fs_type"`
	FSSource       string `csv:"fs_source"`
	FSMountPoint   string `csv:"fs_mount_point"`
	MountOptions   string `csv:"mount_options"`
	SuperOptions   string `csv:"super_options"`
	Volume         string `csv:"volume"` // the named volume mounted at fs_dir
	TrialsVerified int    `csv:"trials_verified"`
	TrialsThrottle int    `csv:"trials_throttled"`
	Exits          string `csv:"exits"` // role:code per container, "oom" when killed for memory
	Verified       bool   `csv:"verified"`
	Failure        string `csv:"failure"`
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
		var problems []string
		if doc.Experiment != Name {
			problems = append(problems, fmt.Sprintf("the document is of experiment %q", doc.Experiment))
		}
		if doc.LineFormat != template {
			problems = append(problems, fmt.Sprintf("the program writes %q, not the kit's line %q", doc.LineFormat, template))
		}
		if !p.Legacy() && (doc.LibraryID != lib.ID || doc.Line != p.LineOf(lib) || doc.Library != lib.Name) {
			problems = append(problems, fmt.Sprintf("the program measured %s (%q) writing %s, not %s (%q) writing %s", doc.LibraryID, doc.Library, doc.Line, lib.ID, lib.Name, p.LineOf(lib)))
		}
		if strings.Contains(template, lc.TimeMark) && doc.TimePattern != lc.TimePattern {
			problems = append(problems, fmt.Sprintf("the program masked time stamps matching %q, not the kit's %q", doc.TimePattern, lc.TimePattern))
		}
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
		if !found {
			problems = append(problems, "the document has no trial of way "+run.Way)
		} else if len(trials) != doc.Trials {
			problems = append(problems, fmt.Sprintf("%d trials, the document says %d", len(trials), doc.Trials))
		}
		run.Failure = joinReasons(run.Failure, strings.Join(problems, "; "))
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
	reason := run.Failure
	if reason == "" && len(trials) == 0 {
		reason = "no trial measured"
	}
	if reason == "" && run.TrialsVerified < len(trials) {
		reason = fmt.Sprintf("%d of %d trials not verified", len(trials)-run.TrialsVerified, len(trials))
	}
	run.Failure = reason
	run.Verified = reason == ""
	return run
}

func trialRow(run RunRow, tr contract.LineCostTrial, template string) TrialRow {
	b, a := tr.CgroupBefore, tr.CgroupAfter
	t := TrialRow{
		RunID: run.RunID, Language: run.Language, Way: run.Way, Round: run.Round, Trial: tr.Trial, Lines: tr.Lines,
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
	t.CgroupCPUNs, t.CgroupWallNs, t.CgroupPeriods, t.ThrottledPeriods, t.ThrottledMs, t.CPULimitCores = bundle.None, bundle.None, bundle.None, bundle.None, bundle.None, bundle.None
	if tr.CgroupError == "" {
		t.CgroupCPUNs = bundle.Opt(a.CPUUsageNanos - b.CPUUsageNanos)
		t.CgroupWallNs = bundle.Opt(a.UnixNano - b.UnixNano)
		t.CgroupPeriods = bundle.Opt(a.CPUPeriods - b.CPUPeriods)
		t.ThrottledPeriods = bundle.Opt(a.CPUThrottled - b.CPUThrottled)
		t.ThrottledMs = bundle.Opt(float64(a.CPUThrottledNanos-b.CPUThrottledNanos) / 1e6) // as fifo-stall's
		t.CPULimitCores = bundle.Opt(a.CPULimitCores)
	}
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
	t.CPUNsPerLine, t.WallNsPerLine, t.CgroupCPUNsPerLin = bundle.None, bundle.None, bundle.None
	if t.Lines > 0 {
		n := bundle.Opt(t.Lines)
		t.CPUNsPerLine, t.WallNsPerLine = bundle.Opt(t.ThreadCPUNs)/n, bundle.Opt(t.WallNs)/n
		if t.CgroupError == "" && t.CgroupCPUNs.Present() {
			t.CgroupCPUNsPerLin = t.CgroupCPUNs / n
		}
	}
	var problems []string
	if t.Lines < lc.MinLines {
		problems = append(problems, fmt.Sprintf("%d lines, fewer than the minimum of %d", t.Lines, lc.MinLines))
	}
	if t.ThreadCPUNs <= 0 || t.WallNs <= 0 {
		problems = append(problems, "a clock did not advance over the trial")
	}
	if t.CgroupError != "" {
		problems = append(problems, "no cgroup reading: "+t.CgroupError)
	}
	problems = append(problems, wayChecks(t, template)...)
	t.Failure = strings.Join(problems, "; ")
	t.Verified = t.Failure == ""
	return t
}

// wayChecks: each way does what the experiment says it does, counted in the
// container, and every line written is verified against the lines generated.
func wayChecks(t TrialRow, template string) []string {
	var p []string
	want := ExpectedOf(template, t.Lines)
	none := Expected(0)
	check := func(ok bool, format string, args ...any) {
		if !ok {
			p = append(p, fmt.Sprintf(format, args...))
		}
	}
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
		return p
	case lc.Format:
		check(gen == want, "generated %d lines, %d bytes, sha256 %.12s; the kit's %d lines are %d bytes, sha256 %.12s", gen.Lines, gen.Bytes, gen.SHA256, want.Lines, want.Bytes, want.SHA256)
		check(t.ArgsBuilt == t.Lines, "arguments built %d times for %d lines", t.ArgsBuilt, t.Lines)
		check(t.FileName == "" && t.WriteCalls == 0, "the format way wrote to a file")
		return p
	case lc.Buffered, lc.Unbuffered, lc.Fsync, lc.Queue:
	default:
		return append(p, fmt.Sprintf("unknown way %q", t.Way))
	}
	check(gen == want, "generated %d lines, %d bytes, sha256 %.12s; the kit's %d lines are %d bytes, sha256 %.12s", gen.Lines, gen.Bytes, gen.SHA256, want.Lines, want.Bytes, want.SHA256)
	check(t.ArgsBuilt == t.Lines, "arguments built %d times for %d lines", t.ArgsBuilt, t.Lines)
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
	return p
}

type expectedKey struct {
	template string
	lines    int64
}

var expectedCache sync.Map // expectedKey -> contract.Counts

// Expected is what lines calls of an enabled way generate with the kit's line before
// lines had a time stamp (kit/incontainer/linecost.LineFormat).
func Expected(lines int64) contract.Counts { return ExpectedOf(lc.LineFormat, lines) }

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

func joinReasons(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}
