package qps

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// Bundle is this experiment's bundle as a matrix fills it.
type Bundle struct {
	M          Manifest
	Runs       []RunRow
	Series     []SeriesRow
	Conditions []ConditionRow
}

var _ experiment.Bundle = (*Bundle)(nil)

func (b *Bundle) Common() *bundle.Common { return &b.M.Common }

// Measured: the conductor got as far as the measured load.
func (b *Bundle) Measured(run experiment.Run) bool {
	var res contract.QPSResult
	return run.Pod.Result != nil && json.Unmarshal(run.Pod.Result, &res) == nil && res.Load.StartUnixNs != 0
}

// Record turns what a run's pod left into its row and series: what the conductor
// measured, what the API counted, what the engine gave back of its stdout.
func Record(run experiment.Run, p Params) (RunRow, []SeriesRow) {
	c := run.Condition.(Cond)
	r := RunRow{RunID: run.ID, API: c.API, Config: c.Config, Round: run.Round, Position: run.Position,
		StartedUTC: run.Started.UTC().Format(time.RFC3339Nano), WallS: run.Wall.Seconds(), LogDriver: p.LogDriver}
	var res contract.QPSResult
	resultFailure := ""
	if run.Pod.Result != nil {
		if err := json.Unmarshal(run.Pod.Result, &res); err != nil {
			resultFailure = "unreadable result: " + err.Error()
		} else {
			resultFailure = res.Failure
		}
	}
	r.Observed = experiment.JoinFailures(run.Failure, resultFailure)
	l := res.Load
	r.MeasuredS, r.Status2xx, r.Non2xx, r.Errors, r.Timeouts = l.MeasuredS, l.Status2xx, l.Non2xx, l.Errors, l.Timeouts
	r.LatencyMeanMs, r.LatencyP50Ms, r.LatencyP90Ms, r.LatencyP99Ms, r.LatencyMaxMs = latencies(l.Status2xx+l.Non2xx, l.LatencyMeanMs, l.LatencyP50Ms, l.LatencyP90Ms, l.LatencyP99Ms, l.LatencyMaxMs)
	r.GeneratorCPUS, r.GeneratorLimit = l.GeneratorCPUS, l.GeneratorCPULimitCores
	r.WarmupRequests = res.Warmup.Requests
	var series []SeriesRow
	for i, n := range l.RequestsPerSecond {
		series = append(series, SeriesRow{RunID: run.ID, Second: i, Requests: n})
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
	r.HostBusyPct, r.HostCPUs = None, None
	if h := res.Host; h != nil {
		// The conductor counts the CPUs as it samples the host; 0 is no count.
		r.HostBusyPct, r.HostCPUs = Opt(h.CPUBusyPct), bundle.OptIf(res.HostCPUs > 0, float64(res.HostCPUs))
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
		f, err := ParseWrk(w.Output)
		if err != nil {
			r.WrkFailure = err.Error()
			break
		}
		r.WrkRequests, r.WrkDurationS, r.WrkRequestsPerS = Opt(f.Requests), Opt(f.DurationS), Opt(f.RequestsPerS)
		r.WrkLatencyP50Ms, r.WrkLatencyP99Ms, r.WrkErrors = f.LatencyP50Ms, f.LatencyP99Ms, Opt(f.Errors)
	case wrkRuns(p, r.Config) && res.Load.StartUnixNs != 0:
		// The kit's load ran and wrk did not: the run cannot be checked.
		r.WrkFailure = "no wrk phase in the conductor's result"
	}
	r.ConsoleReadLines, r.ConsoleReadBytes = None, None
	if logs, ok := run.Pod.Logs["api"]; ok {
		c := contract.CountStream(logs)
		r.ConsoleRead = true
		r.ConsoleReadLines, r.ConsoleReadBytes, r.ConsoleReadSHA256 = Opt(c.Lines), Opt(c.Bytes), c.SHA256
	}
	return DeriveRun(r, series, p.NonBlocking), series
}

func (b *Bundle) Add(run experiment.Run) (string, bool) {
	r, series := Record(run, b.M.Parameters)
	if b.M.Versions == nil {
		b.M.Versions = map[string]map[string]string{}
	}
	if run.Pod.Result != nil {
		var res contract.QPSResult
		if json.Unmarshal(run.Pod.Result, &res) == nil && res.API != nil && len(res.API.Versions) > 0 {
			b.M.Versions[r.API] = res.API.Versions
		}
	}
	b.Runs = append(b.Runs, r)
	b.Series = append(b.Series, series...)
	state := "verified"
	if !r.Verified {
		state = "FAILED: " + r.Failure
	}
	wrk := ""
	if r.WrkRequestsPerS.Present() {
		wrk = fmt.Sprintf("  wrk %.0f req/s (kit/wrk %s)", float64(r.WrkRequestsPerS), num(r.WrkAgreement, 3))
	}
	return fmt.Sprintf("%-20s %7s req/s  p99 %6.2f ms  api %.2f cores, engine %s, other %s  console %s, file %s%s  %s",
		r.API+"/"+r.Config, num(r.RequestsPerS, 0), r.LatencyP99Ms, orZero(r.APICPUCores), num(r.EngineCores, 2), num(r.OtherCores, 2), r.ConsoleVerified, r.FileVerified, wrk, state), r.Verified
}

func (b *Bundle) Has(cond experiment.Condition, round int) bool {
	for _, r := range b.Runs {
		if experiment.Key(Cond{r.API, r.Config}, r.Round) == experiment.Key(cond, round) {
			return true
		}
	}
	return false
}

// Files are the bundle's files but SHA256SUMS, conditions.csv derived afresh, and
// datapackage.json describing them.
func (b *Bundle) Files() (map[string][]byte, error) {
	pub, err := LoadPublished()
	if err != nil {
		return nil, err
	}
	b.Conditions = DeriveConditions(b.Runs, b.M.Parameters, pub)
	return bundle.Encode(b.M, map[string]any{RunsFile: &b.Runs, SeriesFile: &b.Series, ConditionsFile: &b.Conditions}, DataPackage())
}

// Summary is every condition beside the published figures and ratios.
func (b *Bundle) Summary(w io.Writer) error {
	if _, err := b.Files(); err != nil {
		return err
	}
	pub, err := LoadPublished()
	if err != nil {
		return err
	}
	writeTable(w, b.Conditions)
	fmt.Fprintf(w, "\npublished: %s\n", pub.Source)
	fmt.Fprintf(w, "req/s: mean of the runs' autocannon figures (mean of per-second counts), [95%% t-interval over runs]; ratio: to console+file of the same API\n")
	fmt.Fprintf(w, "cost/req: CPU per request over none's, inside the API's container + outside it (%s); other cores: the host's busy CPU that neither the API, the generator nor the engine used; noisy: other cores over %g\n", engineText(b.M.Parameters.EngineKind), NoisyOtherCores)
	for _, c := range b.Conditions {
		if c.WrkRequestsPerS.Present() {
			fmt.Fprintf(w, "wrk (Debian, same API container, %s, -c %d): %s/%s %.0f req/s; the kit's over the interval / wrk's %.3f [%s, %s], %s of %s runs within %g%% (runs.csv has every run's)\n",
				wrkWhen(b.M.Parameters), b.M.Parameters.Connections, c.API, c.Config, float64(c.WrkRequestsPerS), orZero(c.WrkAgreement),
				num(c.WrkAgreementCILow, 3), num(c.WrkAgreementCIHigh, 3), num(c.RunsWrkAgreeing, 0), num(c.RunsWrk, 0), WrkTolerance*100)
			if !WrkAgrees(orZero(c.WrkAgreement)) {
				fmt.Fprintf(w, "NOT CONFIRMED: %s's rates: the kit's closed-loop rate is %+.0f%% off wrk's on the same API, beyond the %g%% they must agree within; the kit's requests/s of this API are not vouched for\n",
					c.API, (orZero(c.WrkAgreement)-1)*100, WrkTolerance*100)
			}
		}
	}
	for _, d := range UnlikePublished(b.M.Parameters) {
		fmt.Fprintf(w, "NOTE: %s\n", d)
	}
	return nil
}

// writeTable writes the conditions as an aligned table.
func writeTable(w io.Writer, conds []ConditionRow) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "api\tconfig\truns ok (noisy)\treq/s\t95% interval\tratio\tpub req/s\tpub ratio\tp99 ms\tlines written\tread\tdropped\tapi cores\tengine cores\tother cores\tapi us/req\tengine us/req\tcost/req us in+out\t")
	for _, c := range conds {
		fmt.Fprintf(tw, "%s\t%s\t%d/%d (%d)\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n",
			c.API, c.Config, c.RunsVerified, c.Runs, c.RunsNoisy, num(c.RequestsPerS, 0), interval(c.RequestsPerSCILow, c.RequestsPerSCIHigh),
			num(c.RatioToConsoleFile, 2), num(c.PublishedReqPerS, 0), num(c.PublishedRatio, 2), num(c.LatencyP99Ms, 2),
			c.LogLinesWritten, num(c.LogLinesRead, 0), num(c.LogLinesDropped, 0), num(c.CPUAPICores, 2), num(c.CPUEngineCores, 2),
			num(c.OtherCPUCores, 2), num(c.CPUAPIUsPerReq, 1), num(c.CPUEngineUsPerReq, 1),
			inOut(c.CostPerRequestAPIUs, c.CostPerRequestEngineUs))
	}
	tw.Flush()
}

// inOut is a cost inside + outside the container.
func inOut(in, out Opt) string {
	if !out.Present() {
		return num(in, 1) + " + -"
	}
	return fmt.Sprintf("%s + %s", num(in, 1), num(out, 1))
}

func num(o Opt, decimals int) string {
	if !o.Present() {
		return "-"
	}
	return fmt.Sprintf("%.*f", decimals, float64(o))
}

func interval(lo, hi Opt) string {
	if !lo.Present() || !hi.Present() {
		return "-"
	}
	return fmt.Sprintf("[%.0f, %.0f]", float64(lo), float64(hi))
}

func orZero(o Opt) float64 {
	if !o.Present() {
		return 0
	}
	return float64(o)
}

// UnlikePublished lists where p departs from the published setup.
func UnlikePublished(p Params) []string {
	var d []string
	if p.Connections != 10 || p.Pipelining != 1 || p.DurationS != 5 {
		d = append(d, fmt.Sprintf("load -c %d -p %d -d %gs, published -c 10 -p 1 -d 5s", p.Connections, p.Pipelining, p.DurationS))
	}
	if p.Limits.APICPUs > 0 {
		d = append(d, fmt.Sprintf("the API is limited to %g CPU (published: no limits, a developer's machine)", p.Limits.APICPUs))
	}
	d = append(d, "the published API is Nest.js on Express; this one is Express and morgan alone (Nest's layers are not in reach), so absolute rates differ; the ratios are the fidelity check")
	return d
}

// wrkWhen says when a bundle's wrk ran against the kit's load.
func wrkWhen(p Params) string {
	if p.WrkOrder == WrkAlternate {
		return "before the kit's load in odd runs, after it in even ones"
	}
	return "after the kit's load"
}

// latencies are a run's latency figures as its row holds them: absent without a
// response, where the generator reports 0 (a latency of 0 ms would be a figure).
func latencies(responses int64, mean, p50, p90, p99, max float64) (Opt, Opt, Opt, Opt, Opt) {
	has := responses > 0
	return bundle.OptIf(has, mean), bundle.OptIf(has, p50), bundle.OptIf(has, p90), bundle.OptIf(has, p99), bundle.OptIf(has, max)
}
