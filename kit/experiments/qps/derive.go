package qps

import (
	"fmt"
	"math"
	"strings"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/contract/stats"
	"github.com/logbench/logbench/kit/offline/bundle"
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
	// Without a measured interval there is no rate, no spread and no generator CPU to
	// speak of: absent, not 0, which would read as a figure.
	r.RequestsPerS, r.RequestsPerSStdev, r.RequestsPerSOver, r.GeneratorCores = None, None, None, None
	if r.MeasuredS > 0 {
		r.RequestsPerSOver = Opt(float64(r.Requests) / r.MeasuredS)
		r.GeneratorCores = Opt(r.GeneratorCPUS / r.MeasuredS)
	}
	whole := min(int(math.Floor(r.MeasuredS)), len(counts))
	if whole == 0 {
		r.RequestsPerS = r.RequestsPerSOver
	} else {
		mean := stats.Mean(counts[:whole])
		r.RequestsPerS = Opt(mean)
		var ss float64
		for _, c := range counts[:whole] {
			ss += (c - mean) * (c - mean)
		}
		r.RequestsPerSStdev = Opt(math.Sqrt(ss / float64(whole)))
	}
	r.GeneratorBusy = r.GeneratorLimit > 0 && r.GeneratorCores.Present() && float64(r.GeneratorCores) >= contract.SaturationShare*r.GeneratorLimit
	apiCPUUs := float64(r.APICPUUserUs + r.APICPUSystemUs)
	hasCPU := r.APICPUUserUs.Present() && r.APICPUSystemUs.Present()
	r.APICPUCores, r.APICPUUsPerReq = None, None
	if hasCPU && r.APIIntervalMs.Present() && r.APIIntervalMs > 0 {
		r.APICPUCores = Opt(apiCPUUs / 1e3 / float64(r.APIIntervalMs))
	}
	if hasCPU && r.APIRequests.Present() && r.APIRequests > 0 {
		r.APICPUUsPerReq = Opt(apiCPUUs / float64(r.APIRequests))
	}
	r.EngineCores, r.EngineUsPerReq, r.OtherCores = None, None, None
	if r.EngineMeasured && r.EngineCPUS.Present() && r.EngineIntervalS.Present() && r.EngineIntervalS > 0 {
		r.EngineCores = r.EngineCPUS / r.EngineIntervalS
		if r.APIRequests.Present() && r.APIRequests > 0 {
			r.EngineUsPerReq = r.EngineCPUS * 1e6 / r.APIRequests
		}
	}
	if r.HostBusyPct.Present() && r.HostCPUs.Present() && r.HostCPUs > 0 && r.APICPUCores.Present() && r.GeneratorCores.Present() {
		other := float64(r.HostBusyPct)/100*float64(r.HostCPUs) - float64(r.APICPUCores) - float64(r.GeneratorCores)
		if r.EngineCores.Present() {
			other -= float64(r.EngineCores)
		}
		r.OtherCores = Opt(other)
	}
	r.HostNoisy = r.OtherCores.Present() && float64(r.OtherCores) > NoisyOtherCores
	r.WrkAgreement = None
	if r.WrkRequestsPerS.Present() && r.WrkRequestsPerS > 0 && r.RequestsPerSOver.Present() && r.RequestsPerSOver > 0 {
		r.WrkAgreement = r.RequestsPerSOver / r.WrkRequestsPerS
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
		fail("the load generator used %.2f of its %.2f cores: it may have been the bottleneck", float64(r.GeneratorCores), r.GeneratorLimit)
	}
	if !r.APIRequests.Present() {
		// Without the API's report nothing says it answered the load or wrote its lines.
		fail("the API sent no report of its requests")
	}
	if r.SinkWriteErrors > 0 {
		fail("the API's log sinks had %d write errors", r.SinkWriteErrors)
	}
	switch {
	case r.WrkFailure != "":
		fail("wrk: %s", r.WrkFailure)
	case r.WrkErrors.Present() && r.WrkErrors > 0:
		fail("wrk: %.0f socket errors and non-2xx or 3xx responses", float64(r.WrkErrors))
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
		r.ConsoleVerified = "" // missing: no console log to check
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
	case !r.ConsoleReadLines.Present() || !r.ConsoleReadBytes.Present():
		// Read back, yet no counts: nothing to set against what was written.
		r.ConsoleVerified = "read back without its counts"
		readable = false
		fail("console: %s", r.ConsoleVerified)
	case int64(r.ConsoleReadLines) == r.ConsoleTotalLines && int64(r.ConsoleReadBytes) == r.ConsoleTotalBytes && r.ConsoleReadSHA256 == r.ConsoleTotalSHA256:
		r.ConsoleVerified = "equal"
		read += int64(r.ConsoleReadLines)
	case nonBlocking && int64(r.ConsoleReadLines) < r.ConsoleTotalLines && int64(r.ConsoleReadBytes) < r.ConsoleTotalBytes:
		// Non-blocking mode drops lines when its buffer is full: a figure, not a failure.
		dropped = r.ConsoleTotalLines - int64(r.ConsoleReadLines)
		r.ConsoleVerified = fmt.Sprintf("dropped %d", dropped)
		read += int64(r.ConsoleReadLines)
	default:
		r.ConsoleVerified = fmt.Sprintf("differs: read %d lines, %d bytes, SHA-256 %.12s; written %d lines, %d bytes, SHA-256 %.12s",
			int64(r.ConsoleReadLines), int64(r.ConsoleReadBytes), r.ConsoleReadSHA256, r.ConsoleTotalLines, r.ConsoleTotalBytes, r.ConsoleTotalSHA256)
		fail("console: %s", r.ConsoleVerified)
		read += int64(r.ConsoleReadLines)
	}
	// File: the file on the volume against what the API handed its stream.
	switch {
	case !hasFile(r.Config):
		r.FileVerified = "" // missing: no log file to check
		if r.FileTotalLines != 0 {
			fail("file: the API wrote %d lines to a file in configuration %s", r.FileTotalLines, r.Config)
		}
	case !r.FileRead:
		r.FileVerified = "not read back"
		readable = false
		fail("file: the log file could not be read back")
	case !r.FileReadLines.Present() || !r.FileReadBytes.Present() || !r.FileTailLines.Present() || !r.FileTailBytes.Present():
		r.FileVerified = "read back without its counts"
		readable = false
		fail("file: %s", r.FileVerified)
	case r.FileRotations != 0:
		r.FileVerified = fmt.Sprintf("the date changed %d times during the run", r.FileRotations)
		fail("file: %s: the file holds part of the lines", r.FileVerified)
	case int64(r.FileReadLines) != r.FileTotalLines || int64(r.FileReadBytes) != r.FileTotalBytes || r.FileReadSHA256 != r.FileTotalSHA256:
		r.FileVerified = fmt.Sprintf("differs: read %d lines, %d bytes, SHA-256 %.12s; written %d lines, %d bytes, SHA-256 %.12s",
			int64(r.FileReadLines), int64(r.FileReadBytes), r.FileReadSHA256, r.FileTotalLines, r.FileTotalBytes, r.FileTotalSHA256)
		fail("file: %s", r.FileVerified)
		read += int64(r.FileReadLines)
	case int64(r.FileTailLines) != r.FileLines || int64(r.FileTailBytes) != r.FileBytes || r.FileTailSHA256 != r.FileSHA256:
		// The whole file is as written, but the counted part does not begin at the
		// reset's offset: the API recorded the offset and zeroed its counts apart.
		r.FileVerified = fmt.Sprintf("differs from the reset's offset on: read %d lines, %d bytes, SHA-256 %.12s; counted %d lines, %d bytes, SHA-256 %.12s",
			int64(r.FileTailLines), int64(r.FileTailBytes), r.FileTailSHA256, r.FileLines, r.FileBytes, r.FileSHA256)
		fail("file: %s", r.FileVerified)
		read += int64(r.FileReadLines)
	default:
		r.FileVerified = "equal"
		read += int64(r.FileReadLines)
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
			c.RatioToConsoleFile = bundle.Ratio(c.RequestsPerS, cf.RequestsPerS)
		}
		if none := find(c.API, NoLog); none != nil {
			c.CostPerRequestAPIUs = bundle.Diff(c.CPUAPIUsPerReq, none.CPUAPIUsPerReq)
			c.CostPerRequestEngineUs = bundle.Diff(c.CPUEngineUsPerReq, none.CPUEngineUsPerReq)
			if c.CostPerRequestAPIUs.Present() && c.CostPerRequestEngineUs.Present() {
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
		if r.RequestsPerS.Present() {
			rps = append(rps, float64(r.RequestsPerS))
		}
		if r.RequestsPerSOver.Present() {
			over = append(over, float64(r.RequestsPerSOver))
		}
		// A run without a response has no latency (a verified run has responses).
		if r.LatencyP50Ms.Present() && r.LatencyP99Ms.Present() {
			p50 = append(p50, float64(r.LatencyP50Ms))
			p99 = append(p99, float64(r.LatencyP99Ms))
		}
		if r.GeneratorCores.Present() {
			gen = append(gen, float64(r.GeneratorCores))
		}
		c.Errors += r.Errors
		c.LogLinesWritten += r.LogLinesWritten
		if r.LogLinesRead.Present() {
			read += int64(r.LogLinesRead)
			dropped += int64(r.LogLinesDropped)
		} else {
			readable = false
		}
		if r.APICPUCores.Present() {
			cores = append(cores, float64(r.APICPUCores))
		}
		if r.APICPUUsPerReq.Present() {
			usPer = append(usPer, float64(r.APICPUUsPerReq))
		}
		if r.EngineCores.Present() {
			engCores = append(engCores, float64(r.EngineCores))
		}
		if r.EngineUsPerReq.Present() {
			engUs = append(engUs, float64(r.EngineUsPerReq))
		}
		if r.OtherCores.Present() {
			other = append(other, float64(r.OtherCores))
		}
		if r.WrkRequestsPerS.Present() {
			wrk = append(wrk, float64(r.WrkRequestsPerS))
		}
		if r.WrkAgreement.Present() {
			agree = append(agree, float64(r.WrkAgreement))
		}
	}
	c.WrkRequestsPerS = bundle.MeanOf(wrk)
	c.WrkAgreement, c.WrkAgreementCILow, c.WrkAgreementCIHigh = bundle.MeanCI(agree)
	c.RunsWrk, c.RunsWrkAgreeing = None, None
	if len(agree) > 0 {
		n := 0
		for _, a := range agree {
			if WrkAgrees(a) {
				n++
			}
		}
		c.RunsWrk, c.RunsWrkAgreeing = Opt(len(agree)), Opt(n)
	}
	c.RequestsPerS, c.RequestsPerSCILow, c.RequestsPerSCIHigh = bundle.MeanCI(rps)
	c.RequestsPerSOver = bundle.MeanOf(over)
	c.LatencyP50Ms, c.LatencyP99Ms = bundle.MeanOf(p50), bundle.MeanOf(p99)
	c.CPUAPICores, c.CPUAPIUsPerReq = bundle.MeanOf(cores), bundle.MeanOf(usPer)
	c.GeneratorCPUCores = bundle.MeanOf(gen)
	// A figure of some runs only would not be the condition's.
	c.CPUEngineCores, c.CPUEngineUsPerReq, c.OtherCPUCores = None, None, None
	if len(engCores) == c.RunsVerified {
		c.CPUEngineCores, c.CPUEngineUsPerReq = bundle.MeanOf(engCores), bundle.MeanOf(engUs)
	}
	if len(other) == c.RunsVerified {
		c.OtherCPUCores = bundle.MeanOf(other)
	}
	c.LogLinesRead, c.LogLinesDropped = None, None
	if readable && c.RunsVerified > 0 {
		c.LogLinesRead, c.LogLinesDropped = Opt(read), Opt(dropped)
	}
	return c
}
