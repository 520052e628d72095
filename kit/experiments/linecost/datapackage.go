package linecost

import (
	"reflect"

	lc "github.com/logbench/logbench/kit/incontainer/linecost"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// DataPackageFile describes the bundle's files and columns for any reader (see
// bundle.DataPackageFile); a bundle written before the kit wrote it has none.
const DataPackageFile = bundle.DataPackageFile

// tables are the bundle's CSV files with their row types and what one row is.
var tables = []bundle.Table{
	{File: RunsFile, Name: "runs", Row: reflect.TypeFor[RunRow](), Key: []string{"run_id"}, Verified: "verified",
		// A run's library is its condition's; both are empty in bundles written before the library axis.
		Refs: []bundle.Ref{{Columns: []string{"language", "library_id", "way"}, Table: ConditionsFile}},
		Text: "One row per run, failed ones too: one container measuring one way of one language, what its program reported of itself " +
			"(runtime, library, the call, the clocks' cost, the file system), and its verdict from its trials.",
		Enums: map[string][]string{"language": Languages, "way": lc.Ways}},
	{File: TrialsFile, Name: "trials", Row: reflect.TypeFor[TrialRow](), Key: []string{"run_id", "trial"},
		Refs: []bundle.Ref{{Columns: []string{"run_id"}, Table: RunsFile}},
		Text: "One row per measured trial (warm-up trials are not kept): lines log calls of one way in a row, timed by the calling thread's CPU clock " +
			"and the monotonic clock, with the container's cgroup read around it, and every line written checked against the kit's own regeneration of it.",
		Enums: map[string][]string{"language": Languages, "way": lc.Ways}},
	{File: ConditionsFile, Name: "conditions", Row: reflect.TypeFor[ConditionRow](), Key: []string{"language", "library", "way"},
		Text: "One row per condition (language x library x way, in the manifest's order, a way the library cannot do marked not_offered): each figure the mean over its verified runs of each run's median over its trials, with a 95% Student-t interval over runs, " +
			"what the way costs a service at the manifest's rate, and the seed's published figure beside it.",
		Enums: map[string][]string{"language": Languages, "way": lc.Ways, "headline": {HeadlineCPU, HeadlineWall}}},
}

// columnDocs are every column's unit and meaning, by file ("" for the columns several
// files share); TestEveryColumnIsDescribed fails for a column missing here.
var columnDocs = map[string]map[string]bundle.Doc{
	"": {
		"run_id":   {Text: "The run's identifier, unique in the bundle; runs.csv has its condition."},
		"language": {Text: "The language whose usual logging is measured, by a program in its API image: go (log/slog), python (logging) or node (util.format and fs.writeSync; its CPU figures are the whole process's, see thread_cpu_ns)."},
		"way": {Text: "How the line is logged: format (formatted, written nowhere), disabled-eager (a disabled DEBUG line whose message is built at the call site), " +
			"disabled-lazy (the same with its arguments passed apart), buffered (a 4 KiB buffer flushed when full and every flush_interval_ns), " +
			"unbuffered (one write system call per line), fsync (a write and an fsync per line) or queue (handed to a bounded queue a writer thread drains)."},
		"round": {Unit: "1", Text: "The round of the matrix, from 1."},
		"line":  {Text: "The shape of the line the library wrote (text, text-notime, json or json-notime: the manifest's line, default resolved to the library's own); empty in bundles written before the library axis, whose line was text-notime."},
	},
	RunsFile: {
		"position":                       {Unit: "1", Text: "The run's place in its round, from 1 (the order rotates between rounds)."},
		"started_utc":                    {Text: "When the kit started the run, UTC, RFC 3339 with nanoseconds."},
		"wall_s":                         {Unit: "s", Text: "The kit's whole run, from creating the pod to removing it."},
		"runtime":                        {Text: "The language runtime as the program reported it (\"go1.26.8 linux/amd64\", \"Python 3.11.2\", \"Node.js v18.20.4 linux/x64\"); empty when it wrote no document."},
		"library":                        {Text: "The logging library measured (log/slog, logging; for node, util.format and fs.writeSync, and the CPU clock it had); empty when the program wrote no document."},
		"library_id":                     {Text: "The library as --libraries names it (slog, zap, zerolog, logrus, logging, structlog, loguru, util, winston); empty in bundles written before the library axis, which measured each language's first."},
		"call":                           {Text: "The call site of the way, as a program would write it; empty when the document has no trial of the way."},
		"path":                           {Text: "What the library does with the line in this way; empty when the document has no trial of the way."},
		"line_format":                    {Text: "The line every enabled way writes, {seq} being the line's number in its trial from 0 and {time} where the library writes its time stamp; the kit regenerates a trial's expected bytes from its own line of the library and shape, time stamps masked, so a verified run has the kit's."},
		"lines_per_trial":                {Unit: "1", Text: "Log calls per trial as the program reported it (the manifest's lines_per_trial, or fsync_lines_per_trial for fsync); 0 without a document."},
		"trials":                         {Unit: "1", Text: "Measured trials per run as the program reported it; 0 without a document."},
		"warmup_trials":                  {Unit: "1", Text: "Trials run before the measured ones and discarded."},
		"queue_size":                     {Unit: "1", Text: "Lines the queue way's queue holds."},
		"queue_full":                     {Text: "What the queue way does when its queue is full: block (wait for room) or drop (lose the line and count it); empty without a document."},
		"buffer_bytes":                   {Unit: "bytes", Text: "The buffered way's buffer size."},
		"flush_interval_ns":              {Unit: "ns", Text: "How often the buffered way flushes its buffer, full or not."},
		"timer_monotonic_ns_per_read":    {Unit: "ns", Text: "Cost of one read of the monotonic clock, measured back to back in the container: a trial's wall figure carries about two reads of error."},
		"timer_thread_cpu_ns_per_read":   {Unit: "ns", Text: "Cost of one read of the thread CPU clock (CLOCK_THREAD_CPUTIME_ID; for node, process.cpuUsage()), measured back to back in the container."},
		"timer_monotonic_resolution_ns":  {Unit: "ns", Text: "The monotonic clock's resolution (clock_getres)."},
		"timer_thread_cpu_resolution_ns": {Unit: "ns", Text: "The thread CPU clock's resolution (clock_getres; for node, 1000: process.cpuUsage() counts microseconds)."},
		"fs_dir":                         {Text: "The directory the file-writing ways wrote to, in the container; empty without a document."},
		"fs_type":                        {Text: "Its file system's type, from /proc/self/mountinfo; empty when no enabled way wrote a file."},
		"fs_source":                      {Text: "Its file system's source device, from /proc/self/mountinfo; empty when not read."},
		"fs_mount_point":                 {Text: "The mount point holding fs_dir; empty when not read."},
		"mount_options":                  {Text: "The mount's options (\"rw,relatime\"); empty when not read."},
		"super_options":                  {Text: "The file system's super-block options (\"rw,data=ordered\"); empty when not read."},
		"volume":                         {Text: "The named volume mounted at fs_dir: the manifest's parameters.volume, or logbench-<run_id> when each run had a fresh one."},
		"trials_verified":                {Unit: "1", Text: "The run's trials in trials.csv with verified true."},
		"trials_throttled":               {Unit: "1", Text: "The run's trials in trials.csv with throttled true."},
		"exits":                          {Text: "role:exit code per container, space-separated, with :oom when the kernel killed it for memory; empty when none was seen to exit."},
		"verified":                       {Text: "true when the run is data: failure is empty."},
		"failure":                        {Text: "Why the run is not data, reasons joined by \"; \" (what the engine saw, an unreadable or wrong document, no trial, trials not verified); empty when it is."},
	},
	TrialsFile: {
		"trial":                  {Unit: "1", Text: "The trial's number in its run, from 0, after the warm-ups."},
		"lines":                  {Unit: "1", Text: "Log calls in the trial."},
		"thread_cpu_ns":          {Unit: "ns", Text: "The calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID) over the calls alone; for node, whose Node.js 18 has no per-thread CPU clock (process.threadCpuUsage came in a later major version), the whole process's (process.cpuUsage(): the garbage collector's and compiler's threads and, in the queue way, the writer thread's too)."},
		"wall_ns":                {Unit: "ns", Text: "Monotonic wall time over the calls alone."},
		"drain_wall_ns":          {Unit: "ns", Text: "Wall time after the last call until every line was out of the process: the queue drained, the buffer flushed, the file closed."},
		"cpu_used_ns":            {Unit: "ns", Text: "CPU time of every thread of the container (the queue's writer, the flusher, the runtime) from before the calls to after the drain, as fifo-stall's containers.csv names it; missing when the cgroup could not be read (0 in bundles written before)."},
		"cgroup_wall_ns":         {Unit: "ns", Text: "Wall time between the two cgroup readings; missing when the cgroup could not be read (0 in bundles written before)."},
		"cpu_periods":            {Unit: "1", Text: "CFS periods elapsed between the two cgroup readings (0 without a CPU limit); missing without a reading (0 in bundles written before)."},
		"cpu_throttled_periods":  {Unit: "1", Text: "CFS periods in which the container was throttled between the two readings; missing without a reading (0 in bundles written before)."},
		"cpu_throttled_ms":       {Unit: "ms", Text: "Time the container was throttled between the two readings, in ms as fifo-stall's; missing without a reading. Bundles written before have throttled_ns, in ns (0 without a reading), which the kit reads as this column, divided by 1e6."},
		"cpu_limit_cores":        {Unit: "cores", Text: "The container's CPU limit as the cgroup reported it after the trial; 0 means none (unlimited); missing when the cgroup could not be read (0 in bundles written before, which could mean either)."},
		"cgroup_error":           {Text: "Why the cgroup could not be read; empty when it was (a trial without a reading is not verified)."},
		"args_built":             {Unit: "1", Text: "How often the line's user argument was rendered to text: lines for every way that builds its line, 0 for disabled-lazy."},
		"thread_write_syscalls":  {Unit: "1", Text: "The calling thread's write system calls as the kernel counted them (syscw of /proc/thread-self/io); empty when the kernel does not say (-1 in bundles written before)."},
		"write_calls":            {Unit: "1", Text: "Write calls made on the way's file, by any thread; 0 for the ways that write no file."},
		"fsync_calls":            {Unit: "1", Text: "Fsync calls made on the way's file, by any thread."},
		"written_bytes":          {Unit: "bytes", Text: "Bytes the write calls reported written; must equal file_bytes."},
		"queue_full_waits":       {Unit: "1", Text: "Calls of the queue way that found the queue full and waited (block) or dropped their line (drop)."},
		"lines_dropped":          {Unit: "1", Text: "Lines the queue way dropped (queue_full drop); 0 otherwise."},
		"generated_lines":        {Unit: "1", Text: "Lines the calls asked for, as the library formatted them; 0 for the disabled ways."},
		"generated_bytes":        {Unit: "bytes", Text: "Bytes of those lines."},
		"generated_sha256":       {Text: "SHA-256 (hex) of those bytes; must be the kit's regeneration of lines lines for every enabled way; the empty input's digest for the disabled ways."},
		"file_name":              {Text: "The way's file, relative to the run's fs_dir; empty for the ways that write no file."},
		"file_lines":             {Unit: "1", Text: "Lines the way's file holds when read back after the trial; 0 without a file."},
		"file_bytes":             {Unit: "bytes", Text: "Bytes the way's file holds when read back; 0 without a file."},
		"file_sha256":            {Text: "SHA-256 (hex) of the file read back, each line's time stamp replaced by {time} (as line_format has it); empty without a file."},
		"file_raw_bytes":         {Unit: "bytes", Text: "Bytes the way's file holds as it is, time stamps and all: must be written_bytes; 0 without a file, or when the line has no time stamp (file_bytes is then the file as it is)."},
		"file_raw_sha256":        {Text: "SHA-256 (hex) of the file as it is; empty without a file or time stamp."},
		"throttled":              {Text: "true when a CFS period of the trial was throttled (throttled_periods > 0): a CPU limit stretched its wall time."},
		"verified":               {Text: "true when the trial is data: failure is empty."},
		"failure":                {Text: "Why the trial is not data, reasons joined by \"; \" (too few lines, a clock that did not advance, no cgroup reading, the way not doing what it says, a line missing or different in the file); empty when it is."},
		"cpu_ns_per_line":        {Unit: "ns", Text: "thread_cpu_ns over lines: what one call costs the calling thread's CPU; empty when lines is 0."},
		"wall_ns_per_line":       {Unit: "ns", Text: "wall_ns over lines; empty when lines is 0."},
		"cgroup_cpu_ns_per_line": {Unit: "ns", Text: "cpu_used_ns over lines: the whole container's CPU per line, drain included; empty when lines is 0 or the cgroup could not be read."},
	},
	ConditionsFile: {
		"runs":                          {Unit: "1", Text: "Runs of the condition, failed ones included."},
		"runs_verified":                 {Unit: "1", Text: "Verified runs: only their trials count."},
		"trials":                        {Unit: "1", Text: "Trials of the verified runs: the figures' sample."},
		"headline":                      {Text: "Which clock the headline is read from: cpu (the calling thread's CPU time; a CPU-bound way's wall time under a CPU limit is mostly throttling) or wall (fsync, which waits on the disk)."},
		"ns_per_line":                   {Unit: "ns", Text: "The headline per line: cpu_ns_per_line, or wall_ns_per_line for wall; empty without trials. In bundles whose manifest has bootstrap_resamples (earlier kits), every figure per line is instead the median of the trials pooled over the verified runs, and its interval a bootstrap of that median."},
		"ns_per_line_ci_low":            {Unit: "ns", Text: "Lower end of the 95% Student-t interval of ns_per_line over the verified runs (kit/offline/figure: what every command states of it); empty with fewer than two runs."},
		"ns_per_line_ci_high":           {Unit: "ns", Text: "Upper end of that interval; empty with fewer than two runs."},
		"ratio_to_cheapest":             {Unit: "1", Text: "ns_per_line over the smallest positive ns_per_line of the same language's conditions; empty when either is missing."},
		"cpu_ns_per_line":               {Unit: "ns", Text: "The mean over the verified runs of each run's median of its trials' cpu_ns_per_line (the mean of the two middle ones for an even count); empty without trials."},
		"wall_ns_per_line":              {Unit: "ns", Text: "The same of the trials' wall_ns_per_line."},
		"cgroup_cpu_ns_per_line":        {Unit: "ns", Text: "The same of the trials' cgroup_cpu_ns_per_line: every thread of the container, per line."},
		"cpu_cores":                     {Unit: "cores", Text: "The trials' summed cpu_used_ns over their summed cgroup_wall_ns: how busy the container was; empty without cgroup wall time."},
		"cpu_limit_cores":               {Unit: "cores", Text: "The CPU limit the trials ran under (the last verified trial's cpu_limit_cores); 0 means none; missing without a verified trial (0 in bundles written before)."},
		"throttled_trials":              {Unit: "1", Text: "Trials with throttled true."},
		"cpu_throttled_periods":         {Unit: "1", Text: "The trials' cpu_throttled_periods summed."},
		"rate_lines_per_s":              {Unit: "lines/s", Text: "The rate the next two figures assume: the manifest's parameters.rate_lines_per_s."},
		"share_of_core_at_rate":         {Unit: "1", Text: "rate_lines_per_s x cpu_ns_per_line / 1e9: the share of one core the calls take at that rate (0.01 = 1%); empty without trials."},
		"caller_time_share_at_rate":     {Unit: "1", Text: "rate_lines_per_s x wall_ns_per_line / 1e9: the share of the calling thread's time spent in the calls at that rate; empty without trials."},
		"published_ns_per_line":         {Unit: "ns", Text: "The seed's time per line of this way (results/reference/line-cost/figures.csv), in ns; empty where the seed gives none."},
		"library":                       {Text: "The library's id (see runs.csv library_id); empty in bundles written before the library axis."},
		"not_offered":                   {Text: "Why the library cannot do this way (no encoder for the shape, no such mechanism): the row has no runs and no figures; empty when it can."},
		"cpu_ns_per_line_ci_low":        {Unit: "ns", Text: "Lower end of the 95% Student-t interval of cpu_ns_per_line over the verified runs; empty with fewer than two runs; 0 in bundles written before the library axis."},
		"cpu_ns_per_line_ci_high":       {Unit: "ns", Text: "Upper end of that interval."},
		"share_of_core_at_rate_ci_low":  {Unit: "1", Text: "rate_lines_per_s x cpu_ns_per_line_ci_low / 1e9."},
		"share_of_core_at_rate_ci_high": {Unit: "1", Text: "rate_lines_per_s x cpu_ns_per_line_ci_high / 1e9."},
		"published_figure":              {Text: "That figure as the seed gives it, with its metric (\"58.4 ns (time_per_line_written)\"); empty where the seed gives none."},
	},
}

// manifestText documents the manifest's keys a reader could misread.
const manifestText = bundle.ManifestLead + "on which engine (engine.*), with which images, " + bundle.ManifestProgress + ", " +
	"and the parameters every run shared: languages, libraries and ways (the matrix; libraries absent in bundles written before the library axis), line (the shape asked), rounds, lines_per_trial (fsync_lines_per_trial for fsync), trials and " +
	"warmup_trials per run, queue_size and queue_full (block or drop) of the queue way, rate_lines_per_s (the rate conditions.csv costs a way at), " +
	"volume (the named volume written to; empty = a fresh one per run), the container's cpus (0 = no limit), memory_bytes (no swap), pids_limit and " +
	"platform; in bundles of earlier kits, bootstrap_resamples (the bootstrap their conditions.csv intervals were drawn with)."

// DataPackage describes a line-cost bundle's files.
func DataPackage() bundle.DataPackage {
	return bundle.DescribeBundle(Name, "what one log line costs, each way in each language, every trial's clocks, cgroup and "+
		"verified lines, and each condition's figures beside the seed's. SHA256SUMS lists every file's SHA-256; `logbench verify` "+
		"repeats every trial's checks and recomputes every figure from the rows. An empty field is a missing value (bundles written before missing figures were empty cells spell it NaN).",
		manifestText, tables, columnDocs)
}
