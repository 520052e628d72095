package qps

import (
	"fmt"
	"slices"
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
	// Every figure absent until the result gives it: without the API's report, a
	// read-back, a phase or a sample, the conductor's result holds 0 for what it never got.
	r := bundle.Absent[RunRow]()
	r.Performed, r.API, r.Config, r.LogDriver = tabular.PerformedOf(run), c[0], c[1], p.LogDriver
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
	if a := res.API; a != nil {
		r.APIImplementation, r.APIRequests = a.Implementation, Opt(a.Requests)
		r.APICPUUserUs, r.APICPUSystemUs, r.APIIntervalMs, r.APIRSSBytes = Opt(a.Usage.CPUUserUs), Opt(a.Usage.CPUSystemUs), Opt(a.Usage.SinceResetMs), Opt(a.Usage.RSSBytes)
		console, file := a.Sinks[Console], a.Sinks[File]
		r.ConsoleLines, r.ConsoleBytes = console.Lines, console.Bytes
		r.FileLines, r.FileBytes, r.FileSHA256, r.FileRotations, r.FilePath = file.Lines, file.Bytes, file.SHA256, file.Rotations, file.Path
	}
	// When wrk ran after the kit's load, what the console and the file hold in all is
	// what the API counted once wrk ended (and the file is read back again): its later
	// report's totals replace the first's, and its write errors since the reset include
	// the first report's.
	for _, a := range []*contract.AccessLogReport{res.API, res.APIAfterWrk} {
		if a == nil {
			continue
		}
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
	if res.APIAfterWrk != nil && res.API != nil {
		r.WrkAPIRequests = Opt(res.APIAfterWrk.Requests - res.API.Requests)
	}
	u, ok := run.Pod.Usage["wrk"]
	r.WrkCPUS = bundle.OptIf(ok, float64(u.CPUNanos)/1e9)
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
	if e := res.Engine; e != nil {
		r.EngineFailure = e.Failure
		if e.Failure == "" {
			r.EngineMeasured, r.EngineCPUS, r.EngineDockerdS, r.EngineIntervalS = true, Opt(e.CPUS), Opt(e.ByComm["dockerd"]), Opt(e.IntervalS)
		}
	}
	r.Host = httpload.HostOf(res.Host, res.HostCPUs)
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
	r.GeneratorCores, r.RequestsPerSStdev = bundle.Per(Opt(r.GeneratorCPUS), Opt(r.MeasuredS)), None
	if len(whole) > 0 {
		r.RequestsPerSStdev = Opt(stats.PopulationStdev(whole))
	}
	r.GeneratorBusy = r.GeneratorLimit > 0 && r.GeneratorCores.Present() && float64(r.GeneratorCores) >= contract.SaturationShare*r.GeneratorLimit
	// Absent when the API sent no report (either CPU figure absent, the sum too).
	apiCPUUs := r.APICPUUserUs + r.APICPUSystemUs
	r.APICPUCores, r.APICPUUsPerReq = bundle.Per(apiCPUUs/1e3, r.APIIntervalMs), bundle.Per(apiCPUUs, r.APIRequests)
	r.EngineCores, r.EngineUsPerReq, r.OtherCores = None, None, None
	if r.EngineMeasured {
		r.EngineCores = bundle.Per(r.EngineCPUS, r.EngineIntervalS)
	}
	if r.EngineCores.Present() {
		r.EngineUsPerReq = bundle.Per(r.EngineCPUS*1e6, r.APIRequests)
	}
	if r.HostBusyPct.Present() && r.HostCPUs.Present() && r.HostCPUs > 0 && r.APICPUCores.Present() && r.GeneratorCores.Present() {
		other := float64(r.HostBusyPct)/100*float64(r.HostCPUs) - float64(r.APICPUCores) - float64(r.GeneratorCores)
		if r.EngineCores.Present() {
			other -= float64(r.EngineCores)
		}
		r.OtherCores = Opt(other)
	}
	r.HostNoisy = r.OtherCores.Present() && float64(r.OtherCores) > experiment.NoisyOtherCores
	r.WrkCPUCores, r.WrkAgreement = bundle.Per(r.WrkCPUS, r.WrkDurationS), None
	if r.RequestsPerSOver > 0 {
		r.WrkAgreement = bundle.Per(r.RequestsPerSOver, r.WrkRequestsPerS)
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
	console, dropped := checkConsole(r, nonBlocking)
	file := checkFile(r)
	r.ConsoleVerified, r.FileVerified = console.verdict, file.verdict
	for _, c := range []sinkCheck{console, file} {
		if c.failure != "" {
			fails = append(fails, c.failure)
		}
	}
	r.LogLinesRead, r.LogLinesDropped = None, None
	if console.read.Present() && file.read.Present() {
		r.LogLinesRead, r.LogLinesDropped = console.read+file.read, Opt(dropped)
	}
	r.Failure = strings.Join(fails, "; ")
	r.Verified = r.Failure == ""
	return r
}

// sinkCheck is the check of one of a run's log sinks: its verdict (console_check,
// file_check), why it makes the run not data ("" when it does not), and the lines read
// back of it, absent when it could not be read (0 when it has nothing to count).
type sinkCheck struct {
	verdict, failure string
	read             Opt
}

// failed is a check whose verdict is the run's failure, the sink named.
func failed(sink, verdict string, read Opt) sinkCheck {
	return sinkCheck{verdict, sink + ": " + verdict, read}
}

// absentSink is the check of a sink the configuration lacks: it must hold nothing.
func absentSink(sink, where string, lines int64, config string) sinkCheck {
	c := sinkCheck{read: 0} // "": missing, no log to check
	if lines != 0 {
		c.failure = fmt.Sprintf("%s: the API wrote %d lines %s in configuration %s", sink, lines, where, config)
	}
	return c
}

// counted says a stretch of log as a check names it.
func counted(c contract.StreamCount) string {
	return fmt.Sprintf("%d lines, %d bytes, SHA-256 %.12s", c.Lines, c.Bytes, c.SHA256)
}

// checkConsole checks the engine's log stream against what the API wrote to stdout,
// and says the lines non-blocking mode dropped.
func checkConsole(r RunRow, nonBlocking bool) (sinkCheck, int64) {
	read := contract.StreamCount{Lines: int64(r.ConsoleReadLines), Bytes: int64(r.ConsoleReadBytes), SHA256: r.ConsoleReadSHA256}
	written := contract.StreamCount{Lines: r.ConsoleTotalLines, Bytes: r.ConsoleTotalBytes, SHA256: r.ConsoleTotalSHA256}
	switch {
	case !hasConsole(r.Config):
		return absentSink("console", "to stdout", r.ConsoleTotalLines, r.Config), 0
	case r.LogDriver == "none":
		return sinkCheck{verdict: "not read back: log driver none discards stdout", read: None}, 0
	case !r.ConsoleRead:
		return sinkCheck{"not read back", "console: the engine's log stream could not be read back", None}, 0
	case !r.ConsoleReadLines.Present() || !r.ConsoleReadBytes.Present():
		// Read back, yet no counts: nothing to set against what was written.
		return failed("console", "read back without its counts", None), 0
	case read == written:
		return sinkCheck{verdict: "equal", read: Opt(read.Lines)}, 0
	case nonBlocking && read.Lines < written.Lines && read.Bytes < written.Bytes:
		// Non-blocking mode drops lines when its buffer is full: a figure, not a failure.
		dropped := written.Lines - read.Lines
		return sinkCheck{verdict: fmt.Sprintf("dropped %d", dropped), read: Opt(read.Lines)}, dropped
	}
	return failed("console", "differs: read "+counted(read)+"; written "+counted(written), Opt(read.Lines)), 0
}

// checkFile checks the file on the volume against what the API handed its stream:
// the whole file, and the part of it from the reset's offset on.
func checkFile(r RunRow) sinkCheck {
	read := contract.StreamCount{Lines: int64(r.FileReadLines), Bytes: int64(r.FileReadBytes), SHA256: r.FileReadSHA256}
	written := contract.StreamCount{Lines: r.FileTotalLines, Bytes: r.FileTotalBytes, SHA256: r.FileTotalSHA256}
	tail := contract.StreamCount{Lines: int64(r.FileTailLines), Bytes: int64(r.FileTailBytes), SHA256: r.FileTailSHA256}
	sinceReset := contract.StreamCount{Lines: r.FileLines, Bytes: r.FileBytes, SHA256: r.FileSHA256}
	switch {
	case !hasFile(r.Config):
		return absentSink("file", "to a file", r.FileTotalLines, r.Config)
	case !r.FileRead:
		return sinkCheck{"not read back", "file: the log file could not be read back", None}
	case !r.FileReadLines.Present() || !r.FileReadBytes.Present() || !r.FileTailLines.Present() || !r.FileTailBytes.Present():
		return failed("file", "read back without its counts", None)
	case r.FileRotations != 0:
		// The file read back holds part of the lines: none of them count.
		verdict := fmt.Sprintf("the date changed %d times during the run", r.FileRotations)
		return sinkCheck{verdict, "file: " + verdict + ": the file holds part of the lines", 0}
	case read != written:
		return failed("file", "differs: read "+counted(read)+"; written "+counted(written), Opt(read.Lines))
	case tail != sinceReset:
		// The whole file is as written, but the counted part does not begin at the
		// reset's offset: the API recorded the offset and zeroed its counts apart.
		return failed("file", "differs from the reset's offset on: read "+counted(tail)+"; counted "+counted(sinceReset), Opt(read.Lines))
	}
	return sinkCheck{verdict: "equal", read: Opt(read.Lines)}
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
		i := slices.IndexFunc(out, func(c ConditionRow) bool { return c.API == api && c.Config == config })
		if i < 0 {
			return nil
		}
		return &out[i]
	}
	for i := range out {
		c := &out[i]
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
	c := bundle.Absent[ConditionRow]() // every figure absent until its runs give it
	c.API, c.Config = api, config
	var ok []RunRow
	for _, r := range runs {
		if r.API == api && r.Config == config {
			c.Runs++
			if r.counts() {
				ok = append(ok, r)
			}
		}
	}
	c.RunsVerified, c.RunsNoisy = len(ok), tabular.Noisy(ok)
	for _, r := range ok {
		c.Errors += r.Errors
		c.LogLinesWritten += r.LogLinesWritten
	}
	c.LogLinesRead = bundle.SumOfAll(ok, func(r RunRow) Opt { return r.LogLinesRead })
	if c.LogLinesRead.Present() {
		c.LogLinesDropped = bundle.SumOfAll(ok, func(r RunRow) Opt { return r.LogLinesDropped })
	}
	agree := bundle.PresentOf(ok, func(r RunRow) Opt { return r.WrkAgreement })
	c.WrkRequestsPerS = bundle.MeanOver(ok, func(r RunRow) Opt { return r.WrkRequestsPerS })
	c.WrkAgreement, c.WrkAgreementCILow, c.WrkAgreementCIHigh = bundle.MeanCI(agree)
	if len(agree) > 0 {
		c.RunsWrk, c.RunsWrkAgreeing = Opt(len(agree)), 0
		for _, a := range agree {
			if WrkAgrees(a) {
				c.RunsWrkAgreeing++
			}
		}
	}
	c.Pooled = httpload.Pool(ok, func(r RunRow) (httpload.Rates, httpload.Measured) { return r.Rates, r.Measured })
	c.RequestsPerSOver = bundle.MeanOver(ok, func(r RunRow) Opt { return r.RequestsPerSOver })
	c.CPUAPICores = bundle.MeanOver(ok, func(r RunRow) Opt { return r.APICPUCores })
	c.CPUAPIUsPerReq = bundle.MeanOver(ok, func(r RunRow) Opt { return r.APICPUUsPerReq })
	c.GeneratorCPUCores = bundle.MeanOver(ok, func(r RunRow) Opt { return r.GeneratorCores })
	// A figure of some runs only would not be the condition's.
	c.CPUEngineCores = bundle.MeanOfAll(ok, func(r RunRow) Opt { return r.EngineCores })
	if c.CPUEngineCores.Present() {
		c.CPUEngineUsPerReq = bundle.MeanOver(ok, func(r RunRow) Opt { return r.EngineUsPerReq })
	}
	c.OtherCPUCores = bundle.MeanOfAll(ok, func(r RunRow) Opt { return r.OtherCores })
	return c
}
