package qps

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/logbench/logbench/kit/contract/stats"
	"github.com/logbench/logbench/kit/incontainer/closedloop"
)

// The configurations: which access logs the API writes.
const (
	NoLog       = "none"
	Console     = "console"
	File        = "file"
	ConsoleFile = "console+file"
)

// NoisyOtherCores is the other work on the host, in cores, past which a run is marked
// as measured on a noisy host: the API, the generator and the engine share the host's
// CPUs with it, and a closed loop slows down with any of them.
const NoisyOtherCores = 0.25

// Configs are the four configurations, in published order.
var Configs = []string{ConsoleFile, Console, File, NoLog}

func hasConsole(config string) bool { return config == Console || config == ConsoleFile }
func hasFile(config string) bool    { return config == File || config == ConsoleFile }

// DeriveRun fills a run's derived columns from its observed ones and its series: the
// request counts and rates, the CPU figures, and the checks that decide whether the run
// is data. Saving and verify both call it, so that a figure in runs.csv is what its
// rows give.
func DeriveRun(r RunRow, series []SeriesRow, nonBlocking bool) RunRow {
	counts := make([]float64, len(series))
	r.Requests = 0
	for i, s := range series {
		r.Requests += s.Requests
		counts[i] = float64(s.Requests)
	}
	r.RequestsPerS, r.RequestsPerSStdev, r.RequestsPerSOver = 0, 0, 0
	if r.MeasuredS > 0 {
		r.RequestsPerSOver = float64(r.Requests) / r.MeasuredS
	}
	whole := min(int(math.Floor(r.MeasuredS)), len(counts))
	if whole == 0 {
		r.RequestsPerS = r.RequestsPerSOver
	} else {
		r.RequestsPerS = stats.Mean(counts[:whole])
		var ss float64
		for _, c := range counts[:whole] {
			ss += (c - r.RequestsPerS) * (c - r.RequestsPerS)
		}
		r.RequestsPerSStdev = math.Sqrt(ss / float64(whole))
	}
	r.GeneratorCores = 0
	if r.MeasuredS > 0 {
		r.GeneratorCores = r.GeneratorCPUS / r.MeasuredS
	}
	r.GeneratorBusy = r.GeneratorLimit > 0 && r.GeneratorCores >= closedloop.SaturationShare*r.GeneratorLimit
	apiCPUUs := float64(r.APICPUUserUs + r.APICPUSystemUs)
	r.APICPUCores, r.APICPUUsPerReq = None, None
	if r.APIIntervalMs > 0 {
		r.APICPUCores = Opt(apiCPUUs / 1e3 / r.APIIntervalMs)
	}
	if r.APIRequests > 0 {
		r.APICPUUsPerReq = Opt(apiCPUUs / float64(r.APIRequests))
	}
	r.EngineCores, r.EngineUsPerReq, r.OtherCores = None, None, None
	if r.EngineMeasured && r.EngineIntervalS > 0 {
		r.EngineCores = Opt(r.EngineCPUS / r.EngineIntervalS)
		if r.APIRequests > 0 {
			r.EngineUsPerReq = Opt(r.EngineCPUS * 1e6 / float64(r.APIRequests))
		}
	}
	if present(r.HostBusyPct) && r.HostCPUs > 0 && present(r.APICPUCores) {
		other := float64(r.HostBusyPct)/100*float64(r.HostCPUs) - float64(r.APICPUCores) - r.GeneratorCores
		if present(r.EngineCores) {
			other -= float64(r.EngineCores)
		}
		r.OtherCores = Opt(other)
	}
	r.HostNoisy = present(r.OtherCores) && float64(r.OtherCores) > NoisyOtherCores
	r.WrkAgreement = None
	if present(r.WrkRequestsPerS) && r.WrkRequestsPerS > 0 && r.RequestsPerSOver > 0 {
		r.WrkAgreement = Opt(r.RequestsPerSOver / float64(r.WrkRequestsPerS))
	}

	var fails []string
	fail := func(format string, args ...any) { fails = append(fails, fmt.Sprintf(format, args...)) }
	if r.Observed != "" {
		fails = append(fails, r.Observed)
	}
	switch {
	case r.Requests == 0:
		fail("no request completed in the measured interval")
	case r.Errors > 0 || r.Non2xx > 0:
		fail("%d errors (%d timeouts) and %d non-2xx responses", r.Errors, r.Timeouts, r.Non2xx)
	}
	if r.GeneratorBusy {
		fail("the load generator used %.2f of its %.2f cores: it may have been the bottleneck", r.GeneratorCores, r.GeneratorLimit)
	}
	if r.SinkWriteErrors > 0 {
		fail("the API's log sinks had %d write errors", r.SinkWriteErrors)
	}
	switch {
	case r.WrkFailure != "":
		fail("wrk: %s", r.WrkFailure)
	case r.WrkErrors > 0:
		fail("wrk: %d socket errors and non-2xx or 3xx responses", r.WrkErrors)
	}
	// A rate wrk does not confirm is still a verified run (every log line was read
	// back), but not a confirmed rate: wrk_agreement says by how much, and the summary,
	// compare and report name it. Failing it would hide the very figure that shows the
	// instrument's error.

	r.LogLinesWritten = r.ConsoleTotalLines + r.FileTotalLines
	read, dropped := int64(0), int64(0)
	readable := true
	// Console: the engine's log stream against what the API wrote to stdout.
	switch {
	case !hasConsole(r.Config):
		r.ConsoleVerified = "-"
		if r.ConsoleTotalLines != 0 {
			fail("console: the API wrote %d lines to stdout in configuration %s", r.ConsoleTotalLines, r.Config)
		}
	case r.LogDriver == "none":
		r.ConsoleVerified = "not read back: log driver none discards stdout"
		readable = false
	case !r.ConsoleRead:
		r.ConsoleVerified = "not read back"
		readable = false
		fail("console: the engine's log stream could not be read back")
	case r.ConsoleReadLines == r.ConsoleTotalLines && r.ConsoleReadBytes == r.ConsoleTotalBytes && r.ConsoleReadSHA256 == r.ConsoleTotalSHA256:
		r.ConsoleVerified = "equal"
		read += r.ConsoleReadLines
	case nonBlocking && r.ConsoleReadLines < r.ConsoleTotalLines && r.ConsoleReadBytes < r.ConsoleTotalBytes:
		// Non-blocking mode drops lines when its buffer is full: a figure, not a failure.
		dropped = r.ConsoleTotalLines - r.ConsoleReadLines
		r.ConsoleVerified = fmt.Sprintf("dropped %d", dropped)
		read += r.ConsoleReadLines
	default:
		r.ConsoleVerified = fmt.Sprintf("differs: read %d lines, %d bytes, SHA-256 %.12s; written %d lines, %d bytes, SHA-256 %.12s",
			r.ConsoleReadLines, r.ConsoleReadBytes, r.ConsoleReadSHA256, r.ConsoleTotalLines, r.ConsoleTotalBytes, r.ConsoleTotalSHA256)
		fail("console: %s", r.ConsoleVerified)
		read += r.ConsoleReadLines
	}
	// File: the file on the volume against what the API handed its stream.
	switch {
	case !hasFile(r.Config):
		r.FileVerified = "-"
		if r.FileTotalLines != 0 {
			fail("file: the API wrote %d lines to a file in configuration %s", r.FileTotalLines, r.Config)
		}
	case !r.FileRead:
		r.FileVerified = "not read back"
		readable = false
		fail("file: the log file could not be read back")
	case r.FileRotations != 0:
		r.FileVerified = fmt.Sprintf("the date changed %d times during the run", r.FileRotations)
		fail("file: %s: the file holds part of the lines", r.FileVerified)
	case r.FileReadLines != r.FileTotalLines || r.FileReadBytes != r.FileTotalBytes || r.FileReadSHA256 != r.FileTotalSHA256 ||
		r.FileTailLines != r.FileLines || r.FileTailBytes != r.FileBytes || r.FileTailSHA256 != r.FileSHA256:
		r.FileVerified = fmt.Sprintf("differs: read %d lines, %d bytes, SHA-256 %.12s; written %d lines, %d bytes, SHA-256 %.12s",
			r.FileReadLines, r.FileReadBytes, r.FileReadSHA256, r.FileTotalLines, r.FileTotalBytes, r.FileTotalSHA256)
		fail("file: %s", r.FileVerified)
		read += r.FileReadLines
	default:
		r.FileVerified = "equal"
		read += r.FileReadLines
	}
	r.LogLinesRead, r.LogLinesDropped = None, None
	if readable {
		r.LogLinesRead, r.LogLinesDropped = Opt(read), Opt(dropped)
	}
	r.Failure = strings.Join(fails, "; ")
	r.Verified = r.Failure == ""
	return r
}

// DeriveConditions pools each condition's verified runs: apis x configs in the order
// of the parameters.
func DeriveConditions(runs []RunRow, p Params, pub Published) []ConditionRow {
	var out []ConditionRow
	for _, api := range p.APIs {
		for _, config := range p.Configs {
			out = append(out, deriveCondition(api, config, runs, pub))
		}
	}
	// Ratios and costs set each condition against another of the same API.
	find := func(api, config string) *ConditionRow {
		for i := range out {
			if out[i].API == api && out[i].Config == config {
				return &out[i]
			}
		}
		return nil
	}
	for i := range out {
		c := &out[i]
		c.RatioToConsoleFile = None
		c.CostPerRequestUs, c.CostPerRequestAPIUs, c.CostPerRequestEngineUs = None, None, None
		if cf := find(c.API, ConsoleFile); cf != nil {
			c.RatioToConsoleFile = ratio(c.RequestsPerS, cf.RequestsPerS)
		}
		if none := find(c.API, NoLog); none != nil {
			c.CostPerRequestAPIUs = diff(c.CPUAPIUsPerReq, none.CPUAPIUsPerReq)
			c.CostPerRequestEngineUs = diff(c.CPUEngineUsPerReq, none.CPUEngineUsPerReq)
			if present(c.CostPerRequestAPIUs) && present(c.CostPerRequestEngineUs) {
				c.CostPerRequestUs = c.CostPerRequestAPIUs + c.CostPerRequestEngineUs
			}
		}
		c.PublishedReqPerS, c.PublishedRatio = None, None
		if v, ok := pub.RequestsPerS[c.Config]; ok {
			c.PublishedReqPerS = Opt(v)
			if cf, ok := pub.RequestsPerS[ConsoleFile]; ok {
				c.PublishedRatio = Opt(v / cf)
			}
		}
	}
	return out
}

func deriveCondition(api, config string, runs []RunRow, pub Published) ConditionRow {
	c := ConditionRow{API: api, Config: config}
	var rps, over, p50, p99, cores, usPer, gen, engCores, engUs, other, wrk, agree []float64
	var read, dropped int64
	readable := true
	for _, r := range runs {
		if r.API != api || r.Config != config {
			continue
		}
		c.Runs++
		if !r.Verified {
			continue
		}
		c.RunsVerified++
		if r.HostNoisy {
			c.RunsNoisy++
		}
		rps = append(rps, r.RequestsPerS)
		over = append(over, r.RequestsPerSOver)
		p50 = append(p50, r.LatencyP50Ms)
		p99 = append(p99, r.LatencyP99Ms)
		gen = append(gen, r.GeneratorCores)
		c.Errors += r.Errors
		c.LogLinesWritten += r.LogLinesWritten
		if present(r.LogLinesRead) {
			read += int64(r.LogLinesRead)
			dropped += int64(r.LogLinesDropped)
		} else {
			readable = false
		}
		if present(r.APICPUCores) {
			cores = append(cores, float64(r.APICPUCores))
		}
		if present(r.APICPUUsPerReq) {
			usPer = append(usPer, float64(r.APICPUUsPerReq))
		}
		if present(r.EngineCores) {
			engCores = append(engCores, float64(r.EngineCores))
		}
		if present(r.EngineUsPerReq) {
			engUs = append(engUs, float64(r.EngineUsPerReq))
		}
		if present(r.OtherCores) {
			other = append(other, float64(r.OtherCores))
		}
		if present(r.WrkRequestsPerS) {
			wrk = append(wrk, float64(r.WrkRequestsPerS))
		}
		if present(r.WrkAgreement) {
			agree = append(agree, float64(r.WrkAgreement))
		}
	}
	c.WrkRequestsPerS, c.WrkAgreement = meanOpt(wrk), meanOpt(agree)
	c.RequestsPerS, c.RequestsPerSCILow, c.RequestsPerSCIHigh = meanCI(rps)
	c.RequestsPerSOver = meanOpt(over)
	c.LatencyP50Ms, c.LatencyP99Ms = meanOpt(p50), meanOpt(p99)
	c.CPUAPICores, c.CPUAPIUsPerReq = meanOpt(cores), meanOpt(usPer)
	c.GeneratorCPUCores = meanOpt(gen)
	// A figure of some runs only would not be the condition's.
	c.CPUEngineCores, c.CPUEngineUsPerReq, c.OtherCPUCores = None, None, None
	if len(engCores) == c.RunsVerified {
		c.CPUEngineCores, c.CPUEngineUsPerReq = meanOpt(engCores), meanOpt(engUs)
	}
	if len(other) == c.RunsVerified {
		c.OtherCPUCores = meanOpt(other)
	}
	c.LogLinesRead, c.LogLinesDropped = None, None
	if readable && c.RunsVerified > 0 {
		c.LogLinesRead, c.LogLinesDropped = Opt(read), Opt(dropped)
	}
	return c
}

// meanCI is the mean and its 95% Student-t interval; the interval is absent with fewer
// than two values.
func meanCI(v []float64) (mean, low, high Opt) {
	if len(v) == 0 {
		return None, None, None
	}
	m := stats.Mean(v)
	if len(v) < 2 {
		return Opt(m), None, None
	}
	var ss float64
	for _, x := range v {
		ss += (x - m) * (x - m)
	}
	sd := math.Sqrt(ss / float64(len(v)-1))
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(v) - 1)}.Quantile(0.975)
	h := t * sd / math.Sqrt(float64(len(v)))
	return Opt(m), Opt(m - h), Opt(m + h)
}

func meanOpt(v []float64) Opt {
	if len(v) == 0 {
		return None
	}
	return Opt(stats.Mean(v))
}

func ratio(num, den Opt) Opt {
	if !present(num) || !present(den) || den == 0 {
		return None
	}
	return num / den
}

func diff(a, b Opt) Opt {
	if !present(a) || !present(b) {
		return None
	}
	return a - b
}

func present(o Opt) bool { return !math.IsNaN(float64(o)) }
