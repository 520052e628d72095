package bundle

import (
	"errors"
	"io/fs"
	"math"
	"path/filepath"
	"reflect"
	"slices"
)

// ProbeFile is every bundle's table of the speed probe (kit/incontainer/speedprobe):
// the host's speed before and after each run, in the run's API limits.
const ProbeFile = "probes.csv"

// ProbeDrift is how far a run's probe may be from the bundle's median before the run
// is marked: a host more than 10% slower or faster than usual is not the same host.
const ProbeDrift = 0.10

// ProbeRow is one run's probes (probes.csv): the probe's speed before and after the
// run's load, from its thread CPU time, and its request path's, and how each compares
// with the bundle's median.
type ProbeRow struct {
	RunID     string `csv:"run_id"`
	Condition string `csv:"condition"`
	// BeforeMBPerS and AfterMBPerS are the probe's MB (10^6 bytes) hashed per second of
	// its thread's CPU time; absent when that probe did not run.
	BeforeMBPerS Opt `csv:"before_mb_per_s"`
	AfterMBPerS  Opt `csv:"after_mb_per_s"`
	// SpeedMBPerS is their mean (either alone when one is absent); Relative is it over
	// the bundle's median of them.
	SpeedMBPerS Opt `csv:"speed_mb_per_s"`
	Relative    Opt `csv:"relative_speed"`
	// The request path (RequestPathColumns), absent in a bundle written before the kit
	// probed it: BeforeReqPerS and AfterReqPerS are the loopback request loop's requests
	// per second of wall time, BeforeRequestCPUUs and AfterRequestCPUUs its process's
	// CPU µs a request; RequestCPUUs is their mean (either alone), and
	// RelativeRequestPath the bundle's median of it over it, above 1 a faster path.
	// BeforeSyscallNs and AfterSyscallNs are the thread CPU ns of a one-byte write.
	BeforeReqPerS       Opt `csv:"before_req_per_s"`
	AfterReqPerS        Opt `csv:"after_req_per_s"`
	BeforeRequestCPUUs  Opt `csv:"before_request_cpu_us"`
	AfterRequestCPUUs   Opt `csv:"after_request_cpu_us"`
	RequestCPUUs        Opt `csv:"request_cpu_us"`
	RelativeRequestPath Opt `csv:"relative_request_path"`
	BeforeSyscallNs     Opt `csv:"before_syscall_ns"`
	AfterSyscallNs      Opt `csv:"after_syscall_ns"`
	// Drifted says Relative or RelativeRequestPath is more than ProbeDrift off 1.
	Drifted bool `csv:"drifted"`
}

// RequestPathColumns are probes.csv's columns of the request path: a bundle written
// before the kit probed it has none of them, and reads as one whose request path was
// not recorded.
var RequestPathColumns = []string{"before_req_per_s", "after_req_per_s", "before_request_cpu_us", "after_request_cpu_us",
	"request_cpu_us", "relative_request_path", "before_syscall_ns", "after_syscall_ns"}

// ProbeReading is what one probe read, as a row's before or after columns hold it;
// absent figures for a loop that did not run.
type ProbeReading struct{ MBPerS, ReqPerS, RequestCPUUs, SyscallNs Opt }

// NoProbe is a probe that did not run.
var NoProbe = ProbeReading{None, None, None, None}

// NewProbeRow is a run's row from its two probes, before derivation (DeriveProbes).
func NewProbeRow(runID, condition string, before, after ProbeReading) ProbeRow {
	return ProbeRow{RunID: runID, Condition: condition, BeforeMBPerS: before.MBPerS, AfterMBPerS: after.MBPerS,
		BeforeReqPerS: before.ReqPerS, AfterReqPerS: after.ReqPerS, BeforeRequestCPUUs: before.RequestCPUUs, AfterRequestCPUUs: after.RequestCPUUs,
		BeforeSyscallNs: before.SyscallNs, AfterSyscallNs: after.SyscallNs, SpeedMBPerS: None, Relative: None, RequestCPUUs: None, RelativeRequestPath: None}
}

// ProbeSummary is the probe's spread over a bundle, for its manifest.
type ProbeSummary struct {
	Kernel       string  `json:"kernel"`
	Runs         int     `json:"runs"` // runs with a speed
	MedianMBPerS float64 `json:"median_mb_per_s"`
	MinMBPerS    float64 `json:"min_mb_per_s"`
	MaxMBPerS    float64 `json:"max_mb_per_s"`
	// Drifted counts the runs marked drifted: their speed or their request path.
	Drifted int `json:"drifted_runs"`
	// RequestPath is the request path's spread; absent in a bundle written before the
	// kit probed it.
	RequestPath *RequestPathSummary `json:"request_path,omitempty"`
}

// RequestPathSummary is the request-path probe's spread over a bundle: the CPU µs a
// loopback request took (median, least, most over the runs' request_cpu_us), the
// median of the runs' one-byte writes (the mean of before and after, either alone), and
// the runs whose request path drifted.
type RequestPathSummary struct {
	Kernel          string  `json:"kernel"`
	Runs            int     `json:"runs"` // runs with a request path
	MedianCPUUs     float64 `json:"median_request_cpu_us"`
	MinCPUUs        float64 `json:"min_request_cpu_us"`
	MaxCPUUs        float64 `json:"max_request_cpu_us"`
	MedianSyscallNs float64 `json:"median_syscall_ns"`
	Drifted         int     `json:"drifted_runs"`
}

// DeriveProbes fills each row's speed and request path, each relative to the bundle's
// median, and whether either drifted, and sums them up: the one derivation, for writing
// and verifying. kernel and requestKernel name the probe's work in the summary.
func DeriveProbes(rows []ProbeRow, kernel, requestKernel string) ([]ProbeRow, *ProbeSummary) {
	out := slices.Clone(rows)
	var speeds, cpus, syscalls []float64
	for i, r := range out {
		out[i].SpeedMBPerS = meanOf(r.BeforeMBPerS, r.AfterMBPerS)
		out[i].RequestCPUUs = meanOf(r.BeforeRequestCPUUs, r.AfterRequestCPUUs)
		if s := float64(out[i].SpeedMBPerS); s > 0 {
			speeds = append(speeds, s)
		}
		if c := float64(out[i].RequestCPUUs); c > 0 {
			cpus = append(cpus, c)
		}
		if n := float64(meanOf(r.BeforeSyscallNs, r.AfterSyscallNs)); n > 0 {
			syscalls = append(syscalls, n)
		}
	}
	var sum *ProbeSummary
	if len(speeds) > 0 || len(cpus) > 0 || len(syscalls) > 0 {
		sum = &ProbeSummary{Kernel: kernel, Runs: len(speeds)}
		if len(speeds) > 0 {
			sum.MedianMBPerS, sum.MinMBPerS, sum.MaxMBPerS = median(speeds), slices.Min(speeds), slices.Max(speeds)
		}
		if len(cpus) > 0 || len(syscalls) > 0 {
			sum.RequestPath = &RequestPathSummary{Kernel: requestKernel, Runs: len(cpus)}
			if len(cpus) > 0 {
				sum.RequestPath.MedianCPUUs, sum.RequestPath.MinCPUUs, sum.RequestPath.MaxCPUUs = median(cpus), slices.Min(cpus), slices.Max(cpus)
			}
			if len(syscalls) > 0 {
				sum.RequestPath.MedianSyscallNs = median(syscalls)
			}
		}
	}
	for i := range out {
		out[i].Relative, out[i].RelativeRequestPath, out[i].Drifted = None, None, false
		if s := float64(out[i].SpeedMBPerS); s > 0 {
			out[i].Relative = Opt(s / sum.MedianMBPerS)
		}
		if c := float64(out[i].RequestCPUUs); c > 0 {
			// A path that takes less CPU a request is a faster one: above 1, as for speed.
			out[i].RelativeRequestPath = Opt(sum.RequestPath.MedianCPUUs / c)
		}
		speedDrift, pathDrift := SpeedDrifted(out[i]), RequestPathDrifted(out[i])
		out[i].Drifted = speedDrift || pathDrift
		if out[i].Drifted {
			sum.Drifted++
		}
		if pathDrift {
			sum.RequestPath.Drifted++
		}
	}
	return out, sum
}

// SpeedDrifted says a derived row's speed is more than ProbeDrift off the median.
func SpeedDrifted(r ProbeRow) bool {
	return r.Relative.Present() && math.Abs(float64(r.Relative)-1) > ProbeDrift
}

// RequestPathDrifted says a derived row's request path is more than ProbeDrift off
// the median.
func RequestPathDrifted(r ProbeRow) bool {
	return r.RelativeRequestPath.Present() && math.Abs(float64(r.RelativeRequestPath)-1) > ProbeDrift
}

// meanOf is the mean of two readings, either alone when the other is absent.
func meanOf(b, a Opt) Opt {
	switch {
	case b > 0 && a > 0:
		return (a + b) / 2
	case b > 0:
		return b
	case a > 0:
		return a
	}
	return None
}

// median of sorted or unsorted xs, at least one.
func median(xs []float64) float64 {
	xs = slices.Sorted(slices.Values(xs))
	if len(xs)%2 == 0 {
		return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
	}
	return xs[len(xs)/2]
}

// MBPerS is a probe result's speed: MB hashed per second of thread CPU time.
func MBPerS(bytes, cpuNanos int64) Opt {
	if bytes <= 0 || cpuNanos <= 0 {
		return None
	}
	return Opt(float64(bytes) / float64(cpuNanos) * 1e3)
}

// PerSecond is n over wallNanos, per second: a loop's rate.
func PerSecond(n, wallNanos int64) Opt {
	if n <= 0 || wallNanos <= 0 {
		return None
	}
	return Opt(float64(n) / float64(wallNanos) * 1e9)
}

// NanosEach is cpuNanos over n, in ns; MicrosEach in µs: a loop's CPU time an iteration.
func NanosEach(cpuNanos, n int64) Opt {
	if n <= 0 || cpuNanos <= 0 {
		return None
	}
	return Opt(float64(cpuNanos) / float64(n))
}

// MicrosEach is cpuNanos over n, in µs.
func MicrosEach(cpuNanos, n int64) Opt {
	if o := NanosEach(cpuNanos, n); o.Present() {
		return o / 1e3
	}
	return None
}

// probeTable describes probes.csv in every bundle's data package.
var probeTable = Table{File: ProbeFile, Name: "probes", Row: reflect.TypeFor[ProbeRow](), Key: []string{"run_id"},
	Text: "One row per run the speed probe ran around (absent when it was off): the same fixed work, timed before and after the run's load in a container with the run's API limits: " +
		"SHA-256 over a fixed buffer (the CPU's arithmetic), and the request path, a loopback HTTP request loop and a loop of one-byte writes (system calls and the loopback TCP stack). " +
		"A run whose speed or request path is more than 10% off the bundle's median ran on another host than its neighbours, for all its figures can tell. " +
		"Bundles written before the kit probed the request path have none of its columns."}

var probeDocs = map[string]Doc{
	"run_id":                {Unit: "", Text: "The run, as runs.csv names it."},
	"condition":             {Unit: "", Text: "The run's condition, its axes joined by /."},
	"before_mb_per_s":       {Unit: "MB/s", Text: "The probe's MB (10^6 bytes) of SHA-256 per second of its thread's CPU time, just before the run; missing when that probe failed."},
	"after_mb_per_s":        {Unit: "MB/s", Text: "The same just after the run."},
	"speed_mb_per_s":        {Unit: "MB/s", Text: "The mean of before and after (either alone when one is missing); missing when neither ran."},
	"relative_speed":        {Unit: "1", Text: "speed_mb_per_s over the bundle's median of it: above 1 a faster host than usual."},
	"before_req_per_s":      {Unit: "req/s", Text: "The probe's loopback request loop (HTTP/1.1 GETs one after another over one keep-alive 127.0.0.1 connection, client and server in the probe's process) in requests per second of wall time, just before the run: the CPU limit's throttling and the host's other work included; missing when the loop failed."},
	"after_req_per_s":       {Unit: "req/s", Text: "The same just after the run."},
	"before_request_cpu_us": {Unit: "µs", Text: "The request loop's CPU time a request (the probe's whole process, client and server, user and system), just before the run; missing when the loop failed."},
	"after_request_cpu_us":  {Unit: "µs", Text: "The same just after the run."},
	"request_cpu_us":        {Unit: "µs", Text: "The mean of before_request_cpu_us and after_request_cpu_us (either alone when one is missing); missing when neither ran."},
	"relative_request_path": {Unit: "1", Text: "The bundle's median of request_cpu_us over this run's: above 1 a faster request path than usual."},
	"before_syscall_ns":     {Unit: "ns", Text: "The probe's thread CPU time a write(2) of one byte to /dev/null, just before the run; missing when the loop failed."},
	"after_syscall_ns":      {Unit: "ns", Text: "The same just after the run."},
	"drifted":               {Unit: "", Text: "relative_speed or relative_request_path is more than 10% off 1: the host's speed or its request path drifted under this run."},
}

// EncodeProbes writes probes.csv.
func EncodeProbes(rows []ProbeRow) ([]byte, error) { return marshalCSV(&rows) }

// Layout is a bundle's files in the order an archive holds them: the experiment's data
// files, then the files every bundle may have (the data package, the probes), then
// SHA256SUMS.
func Layout(dataFiles ...string) []string {
	return append(append(slices.Clone(dataFiles), OptionalFiles...), SumsFile)
}

// ReadProbes reads the probes.csv of the bundle folder dir, for a matrix that goes on
// with it; none when the bundle has none.
func ReadProbes(dir string) ([]ProbeRow, error) { return readOptional[ProbeRow](dir, ProbeFile) }

// readOptional reads the table file of the bundle folder dir that any bundle may hold,
// for a matrix that goes on with it; none when the bundle has none.
func readOptional[R any](dir, file string) ([]R, error) {
	body, err := readLimited(filepath.Join(dir, file), MaxFileBytes(file))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	d := DecodeCSV[R](file, body, 1)
	if len(d.Errs) > 0 {
		return nil, d.Errs[0]
	}
	return d.Rows, nil
}
