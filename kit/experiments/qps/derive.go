package qps

import (
	"fmt"
	"strings"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/contract/stats"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/httpload"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// The configurations: which access logs the API writes.
const (
	NoLog       = "none"
	Console     = "console"
	File        = "file"
	ConsoleFile = "console+file"
)

// Configs are the four configurations, in published order.
var Configs = []string{ConsoleFile, Console, File, NoLog}

// counts says a run's figures count in its condition's: it is data, and no later
// attempt replaced it.
func (r RunRow) counts() bool { return r.Verified && !r.Superseded }

// counting are the runs that count (counts) and are of the condition in says.
func counting(runs []RunRow, in func(RunRow) bool) []RunRow {
	var out []RunRow
	for _, r := range runs {
		if r.counts() && in(r) {
			out = append(out, r)
		}
	}
	return out
}

func hasConsole(config string) bool { return config == Console || config == ConsoleFile }
func hasFile(config string) bool    { return config == File || config == ConsoleFile }

// Record turns what a run's pod left into its row's observed columns: what the
// conductor measured, what the API counted, what the engine gave back of its stdout;
// the APIs' versions go to the manifest. DeriveRun derives the rest.
func Record(p *Params, run experiment.Run) RunRow {
	c := run.Condition.(tabular.Cell)
	r := RunRow{Performed: tabular.PerformedOf(run), API: c[0], Config: c[1], LogDriver: p.LogDriver}
	if len(c) > 2 {
		r.Step = c[2]
	}
	res, resultFailure := result(run)
	if a := res.API; a != nil && len(a.Versions) > 0 && p.m != nil {
		if p.m.Versions == nil {
			p.m.Versions = map[string]map[string]string{}
		}
		p.m.Versions[r.API] = a.Versions
	}
	r.Observed = experiment.JoinFailures(run.Failure, resultFailure)
	r.Measured.Closed(res.Load)
	r.Timeouts, r.GeneratorLimit, r.WarmupRequests = res.Load.Timeouts, res.Load.GeneratorCPULimitCores, res.Warmup.Requests
	if o := res.Open; o != nil {
		// A capacity search's step: the open loop, latency from the scheduled send.
		r.Measured.Open(*o)
		r.Timeouts, r.GeneratorLimit, r.WarmupRequests = 0, p.Limits.LoadgenCPUs, res.Warmup.SentTotal
	}
	// Without the API's report (and without a read-back, a phase, a sample below) its
	// figures are absent: the conductor's result holds 0 for what it never got.
	r.APIRequests, r.APIIntervalMs, r.APICPUUserUs, r.APICPUSystemUs, r.APIRSSBytes = None, None, None, None, None
	if a := res.API; a != nil {
		r.APIImplementation, r.APIRequests = a.Implementation, Opt(a.Requests)
		r.APICPUUserUs, r.APICPUSystemUs, r.APIIntervalMs, r.APIRSSBytes = Opt(a.Usage.CPUUserUs), Opt(a.Usage.CPUSystemUs), Opt(a.Usage.SinceResetMs), Opt(a.Usage.RSSBytes)
		if s, ok := a.Sinks[Console]; ok {
			r.SinkWriteErrors += s.WriteErrors
			r.ConsoleLines, r.ConsoleBytes = s.Lines, s.Bytes
			r.ConsoleTotalLines, r.ConsoleTotalBytes, r.ConsoleTotalSHA256 = s.Total.Lines, s.Total.Bytes, s.Total.SHA256
		}
		if s, ok := a.Sinks[File]; ok {
			r.SinkWriteErrors += s.WriteErrors
			r.FileLines, r.FileBytes, r.FileSHA256 = s.Lines, s.Bytes, s.SHA256
			r.FileTotalLines, r.FileTotalBytes, r.FileTotalSHA256 = s.Total.Lines, s.Total.Bytes, s.Total.SHA256
			r.FileRotations, r.FilePath = s.Rotations, s.Path
		}
	}
	if a := res.APIAfterWrk; a != nil {
		// wrk ran after the kit's load: what the console and the file hold in all is
		// what the API counted once wrk ended, and the file is read back again.
		// Its write errors since the reset include the first report's.
		r.SinkWriteErrors = 0
		if s, ok := a.Sinks[Console]; ok {
			r.SinkWriteErrors += s.WriteErrors
			r.ConsoleTotalLines, r.ConsoleTotalBytes, r.ConsoleTotalSHA256 = s.Total.Lines, s.Total.Bytes, s.Total.SHA256
		}
		if s, ok := a.Sinks[File]; ok {
			r.SinkWriteErrors += s.WriteErrors
			r.FileTotalLines, r.FileTotalBytes, r.FileTotalSHA256 = s.Total.Lines, s.Total.Bytes, s.Total.SHA256
		}
	}
	r.WrkAfterKit = res.WrkAfterKit
	r.WrkAPIRequests = None
	if res.APIAfterWrk != nil && res.API != nil {
		r.WrkAPIRequests = Opt(res.APIAfterWrk.Requests - res.API.Requests)
	}
	r.WrkCPUS = None
	if u, ok := run.Pod.Usage["wrk"]; ok {
		r.WrkCPUS = Opt(float64(u.CPUNanos) / 1e9)
	}
	r.FileReadLines, r.FileReadBytes, r.FileTailLines, r.FileTailBytes = None, None, None, None
	if f := res.File; f != nil && f.Failure == "" {
		r.FileRead = true
		r.FileReadLines, r.FileReadBytes, r.FileReadSHA256 = Opt(f.Whole.Lines), Opt(f.Whole.Bytes), f.Whole.SHA256
		r.FileTailLines, r.FileTailBytes, r.FileTailSHA256 = Opt(f.FromOffset.Lines), Opt(f.FromOffset.Bytes), f.FromOffset.SHA256
	} else if f != nil {
		r.Observed = experiment.JoinFailures(r.Observed, "reading the log file back: "+f.Failure)
	}
	if f := res.FileAfterWrk; f != nil && f.Failure == "" {
		r.FileReadLines, r.FileReadBytes, r.FileReadSHA256 = Opt(f.Whole.Lines), Opt(f.Whole.Bytes), f.Whole.SHA256
	} else if f != nil {
		r.Observed = experiment.JoinFailures(r.Observed, "reading the log file back after wrk: "+f.Failure)
	}
	r.EngineCPUS, r.EngineDockerdS, r.EngineIntervalS = None, None, None
	if e := res.Engine; e != nil {
		r.EngineFailure = e.Failure
		if e.Failure == "" {
			r.EngineMeasured, r.EngineCPUS, r.EngineDockerdS, r.EngineIntervalS = true, Opt(e.CPUS), Opt(e.ByComm["dockerd"]), Opt(e.IntervalS)
		}
	}
	r.Host = httpload.HostOf(res.Host, res.HostCPUs)
	r.VegetaRequests, r.VegetaSuccess, r.VegetaP50Ms, r.VegetaP99Ms = None, None, None, None
	r.VegetaKitP50Ms, r.VegetaKitP99Ms, r.VegetaKitNetP50Ms, r.VegetaKitNetP99Ms = None, None, None, None
	if k := res.VegetaKit; k != nil && k.Status2xx+k.Non2xx > 0 {
		r.VegetaKitP50Ms, r.VegetaKitP99Ms = Opt(k.LatencyP50Ms), Opt(k.LatencyP99Ms)
		r.VegetaKitNetP50Ms, r.VegetaKitNetP99Ms = Opt(k.NetLatencyP50Ms), Opt(k.NetLatencyP99Ms)
	}
	switch v := res.Vegeta; {
	case v != nil && v.Failure != "":
		r.VegetaFailure = v.Failure
	case v != nil:
		r.VegetaRequests, r.VegetaSuccess, r.VegetaP50Ms, r.VegetaP99Ms = Opt(v.Requests), Opt(v.Success), Opt(v.P50Ms), Opt(v.P99Ms)
	case p.Vegeta && res.Open != nil && res.Open.StartUnixNs != 0:
		r.VegetaFailure = "no vegeta phase in the conductor's result"
	}
	r.WrkRequestsPerS, r.WrkLatencyP50Ms, r.WrkLatencyP99Ms, r.WrkHostBusyPct = None, None, None, None
	r.WrkRequests, r.WrkDurationS, r.WrkErrors = None, None, None
	if h := res.WrkHost; h != nil {
		r.WrkHostBusyPct = Opt(h.CPUBusyPct)
	}
	switch w := res.Wrk; {
	case w != nil && w.Failure != "":
		r.WrkFailure = w.Failure
	case w != nil:
		f, err := contract.ParseWrk(w.Output)
		if err != nil {
			r.WrkFailure = err.Error()
			break
		}
		r.WrkRequests, r.WrkDurationS, r.WrkRequestsPerS = Opt(f.Requests), Opt(f.DurationS), Opt(f.RequestsPerS)
		r.WrkLatencyP50Ms, r.WrkLatencyP99Ms, r.WrkErrors = Opt(f.LatencyP50Ms), Opt(f.LatencyP99Ms), Opt(f.Errors)
	case wrkRuns(*p, r.Config) && res.Load.StartUnixNs != 0:
		// The kit's load ran and wrk did not: the run cannot be checked.
		r.WrkFailure = "no wrk phase in the conductor's result"
	}
	r.ConsoleReadLines, r.ConsoleReadBytes = None, None
	if logs, ok := run.Pod.Logs["api"]; ok {
		c := contract.CountStream(logs)
		r.ConsoleRead = true
		r.ConsoleReadLines, r.ConsoleReadBytes, r.ConsoleReadSHA256 = Opt(c.Lines), Opt(c.Bytes), c.SHA256
	}
	return r
}

// DeriveRun fills a run's derived columns from its observed ones and its series: the
// request counts and rates, the CPU figures, and the checks that decide whether the run
// is data. Saving and verify both call it, so that a figure in runs.csv is what its
// rows give.
func DeriveRun(r RunRow, series []SeriesRow, nonBlocking bool) RunRow {
	whole := r.Rates.Derive(r.MeasuredS, series)
	// Without a measured interval there is no spread and no generator CPU to speak of:
	// absent, not 0, which would read as a figure.
	r.RequestsPerSStdev, r.GeneratorCores = None, None
	if r.MeasuredS > 0 {
		r.GeneratorCores = Opt(r.GeneratorCPUS / r.MeasuredS)
	}
	if len(whole) > 0 {
		r.RequestsPerSStdev = Opt(stats.PopulationStdev(whole))
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
	r.HostNoisy = r.OtherCores.Present() && float64(r.OtherCores) > experiment.NoisyOtherCores
	r.WrkAgreement, r.WrkCPUCores = None, None
	if r.WrkCPUS.Present() && r.WrkDurationS.Present() && r.WrkDurationS > 0 {
		r.WrkCPUCores = r.WrkCPUS / r.WrkDurationS
	}
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
			out = append(out, deriveCondition(api, config, runs))
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

func deriveCondition(api, config string, runs []RunRow) ConditionRow {
	c := ConditionRow{API: api, Config: config}
	var ok []RunRow
	for _, r := range runs {
		if r.API == api && r.Config == config {
			c.Runs++
			if r.counts() {
				ok = append(ok, r)
			}
		}
	}
	c.RunsVerified = len(ok)
	readable := true
	var read, dropped int64
	c.RunsNoisy = tabular.Noisy(ok)
	for _, r := range ok {
		c.Errors += r.Errors
		c.LogLinesWritten += r.LogLinesWritten
		if r.LogLinesRead.Present() {
			read, dropped = read+int64(r.LogLinesRead), dropped+int64(r.LogLinesDropped)
		} else {
			readable = false
		}
	}
	agree := bundle.PresentOf(ok, func(r RunRow) Opt { return r.WrkAgreement })
	c.WrkRequestsPerS = bundle.MeanOver(ok, func(r RunRow) Opt { return r.WrkRequestsPerS })
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
	c.Pooled = httpload.Pool(ok, func(r RunRow) (httpload.Rates, httpload.Measured) { return r.Rates, r.Measured })
	c.RequestsPerSOver = bundle.MeanOver(ok, func(r RunRow) Opt { return r.RequestsPerSOver })
	c.CPUAPICores = bundle.MeanOver(ok, func(r RunRow) Opt { return r.APICPUCores })
	c.CPUAPIUsPerReq = bundle.MeanOver(ok, func(r RunRow) Opt { return r.APICPUUsPerReq })
	c.GeneratorCPUCores = bundle.MeanOver(ok, func(r RunRow) Opt { return r.GeneratorCores })
	// A figure of some runs only would not be the condition's.
	c.CPUEngineCores, c.CPUEngineUsPerReq, c.OtherCPUCores = None, None, None
	if engine := bundle.PresentOf(ok, func(r RunRow) Opt { return r.EngineCores }); len(engine) == c.RunsVerified {
		c.CPUEngineCores, c.CPUEngineUsPerReq = bundle.MeanOf(engine), bundle.MeanOver(ok, func(r RunRow) Opt { return r.EngineUsPerReq })
	}
	if other := bundle.PresentOf(ok, func(r RunRow) Opt { return r.OtherCores }); len(other) == c.RunsVerified {
		c.OtherCPUCores = bundle.MeanOf(other)
	}
	c.LogLinesRead, c.LogLinesDropped = None, None
	if readable && c.RunsVerified > 0 {
		c.LogLinesRead, c.LogLinesDropped = Opt(read), Opt(dropped)
	}
	return c
}
