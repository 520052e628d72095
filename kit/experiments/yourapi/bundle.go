package yourapi

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
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
	// Steps are a capacity search's steps (steps.csv); none without one.
	Steps []StepRow
}

var (
	_ experiment.Bundle  = (*Bundle)(nil)
	_ experiment.Retrier = (*Bundle)(nil)
)

func (b *Bundle) Common() *bundle.Common { return &b.M.Common }

// Measured: the conductor got as far as the measured load.
func (b *Bundle) Measured(run experiment.Run) bool {
	var res contract.ForeignResult
	if run.Pod.Result == nil || json.Unmarshal(run.Pod.Result, &res) != nil {
		return false
	}
	return res.Closed != nil && res.Closed.StartUnixNs != 0 || res.Open != nil && res.Open.StartUnixNs != 0
}

// Record turns what a run's pod left into its row and series.
func Record(run experiment.Run, p Params) (RunRow, []SeriesRow) {
	r := RunRow{RunID: run.ID, Config: configOf(run.Condition), Round: run.Round, Position: run.Position, Attempt: max(run.Attempt, 1),
		StartedUTC: run.Started.UTC().Format(time.RFC3339Nano), WallS: run.Wall.Seconds(), Load: p.Load, HostBusyPct: None,
		LatencyMeanMs: None, LatencyP50Ms: None, LatencyP90Ms: None, LatencyP99Ms: None, LatencyMaxMs: None, SendLagP99Ms: None}
	var res contract.ForeignResult
	resultFailure := ""
	if run.Pod.Result != nil {
		if err := json.Unmarshal(run.Pod.Result, &res); err != nil {
			resultFailure = "unreadable result: " + err.Error()
		} else {
			resultFailure = res.Failure
		}
	} else if run.Failure == "" {
		resultFailure = "the conductor left no result"
	}
	r.ObservedFailure = experiment.JoinFailures(run.Failure, resultFailure)
	r.ReadyAfterS, r.SentTotal = res.Ready.AfterS, res.SentTotal
	var perSecond []int64
	if c := res.Closed; c != nil {
		r.MeasuredS, r.Status2xx, r.Non2xx, r.Errors = c.MeasuredS, c.Status2xx, c.Non2xx, c.Errors
		r.LatencyMeanMs, r.LatencyP50Ms, r.LatencyP90Ms, r.LatencyP99Ms, r.LatencyMaxMs = latencies(c.Status2xx+c.Non2xx, c.LatencyMeanMs, c.LatencyP50Ms, c.LatencyP90Ms, c.LatencyP99Ms, c.LatencyMaxMs)
		r.GeneratorCPUS, r.GeneratorBusy = c.GeneratorCPUS, c.GeneratorSaturated
		perSecond = c.RequestsPerSecond
	}
	if o := res.Open; o != nil {
		r.MeasuredS, r.Status2xx, r.Non2xx, r.Errors = o.DurationS, o.Status2xx, o.Non2xx, o.Errors
		r.LatencyMeanMs, r.LatencyP50Ms, r.LatencyP90Ms, r.LatencyP99Ms, r.LatencyMaxMs = latencies(o.Status2xx+o.Non2xx, o.LatencyMeanMs, o.LatencyP50Ms, o.LatencyP90Ms, o.LatencyP99Ms, o.LatencyMaxMs)
		r.GeneratorCPUS = o.GeneratorCPUS
		r.SendLagP99Ms = bundle.OptIf(o.Scheduled > 0, o.SendLagP99Ms)
		perSecond = o.RequestsPerSecond
	}
	var series []SeriesRow
	for i, n := range perSecond {
		series = append(series, SeriesRow{RunID: run.ID, Second: i, Requests: n})
	}
	// What was not read or measured stays absent: the conductor's result holds 0 for it.
	r.ConsoleLines, r.ConsoleBytes, r.Files, r.FileLines, r.FileBytes = None, None, None, None, None
	r.APICPUS, r.EngineCPUS, r.CPUIntervalS, r.HostCPUs = None, None, None, None
	if logs, ok := run.Pod.Logs["api"]; ok {
		c := contract.CountStream(logs)
		r.ConsoleRead, r.ConsoleLines, r.ConsoleBytes = true, Opt(c.Lines), Opt(c.Bytes)
	}
	if p.LogFile != "" && res.Files != nil {
		if res.FilesFailure != "" {
			r.ObservedFailure = experiment.JoinFailures(r.ObservedFailure, "reading the log directory back: "+res.FilesFailure)
		} else {
			var lines, bytes int64
			for _, f := range res.Files {
				lines += f.Lines
				bytes += f.Bytes
			}
			r.FileRead, r.Files, r.FileLines, r.FileBytes = true, Opt(len(res.Files)), Opt(lines), Opt(bytes)
		}
	}
	switch e := res.Engine; {
	case e == nil:
	case e.Failure != "":
		r.CPUFailure = e.Failure
	default:
		r.CPUMeasured, r.APICPUS, r.EngineCPUS, r.CPUIntervalS, r.APIProcesses = true, Opt(e.PodCPUS), Opt(e.CPUS), Opt(e.IntervalS), len(e.After.Pod)
	}
	if h := res.Host; h != nil {
		// The conductor counts the CPUs as it samples the host; 0 is no count.
		r.HostBusyPct, r.HostCPUs = Opt(h.CPUBusyPct), bundle.OptIf(res.HostCPUs > 0, float64(res.HostCPUs))
	}
	return DeriveRun(r, series, p), series
}

// Add keeps a run, and derives every run's marks again (they set runs side by side).
func (b *Bundle) Add(run experiment.Run) (string, bool) {
	r, series := Record(run, b.M.Parameters)
	b.Runs = append(b.Runs, r)
	b.addStep(run)
	b.Series = append(b.Series, series...)
	b.Runs = DeriveRuns(b.Runs, b.Series, b.M.Parameters)
	r = b.Runs[len(b.Runs)-1]
	state := "ok"
	if !r.Verified {
		state = "FAILED: " + r.Failure
	} else if !r.Trusted {
		state = fmt.Sprintf("NOT lag-trusted (send lag p99 %.2f ms over %g ms)", r.SendLagP99Ms, b.M.Parameters.MaxSendLagP99Ms)
	}
	if r.Mark != "" {
		state += "; MARKED: " + r.Mark
	}
	return fmt.Sprintf("%-12s %7s req/s  p99 %6.2f ms  lines/req %s (console %s, file %s)  cpu us/req %s in + %s out  %s",
		r.Config, num(r.RequestsPerS, 0), r.LatencyP99Ms, num(r.LinesPerRequest, 2), num(r.ConsolePerReq, 2), num(r.FilePerReq, 2),
		num(r.APIUsPerReq, 1), num(r.EngineUsPerReq, 1), state), r.Verified
}

// Retry redoes an open-loop run that is data but whose sends were late, up to
// --retries times.
func (b *Bundle) Retry(run experiment.Run) bool {
	i := len(b.Runs) - 1
	r := &b.Runs[i]
	if r.RunID != run.ID || !r.Verified || r.Trusted || r.Attempt > b.M.Parameters.Retries {
		return false
	}
	r.Superseded = true
	b.Runs = DeriveRuns(b.Runs, b.Series, b.M.Parameters)
	return true
}

// Attempts counts the attempts of cond in round the bundle holds.
func (b *Bundle) Attempts(cond experiment.Condition, round int) int {
	n := 0
	for _, r := range b.Runs {
		if b.matches(r, cond) && r.Round == round {
			n++
		}
	}
	return n
}

func (b *Bundle) Has(cond experiment.Condition, round int) bool {
	for _, r := range b.Runs {
		if b.matches(r, cond) && r.Round == round && !r.Superseded {
			return true
		}
	}
	return false
}

// Files are the bundle's files but SHA256SUMS, conditions.csv derived afresh.
func (b *Bundle) Files() (map[string][]byte, error) {
	b.Conditions = DeriveConditions(b.Runs, b.M.Parameters)
	tables := map[string]any{RunsFile: &b.Runs, SeriesFile: &b.Series, ConditionsFile: &b.Conditions}
	search := b.M.Parameters.Capacity.On()
	if search {
		b.Steps = DeriveSteps(b.Steps, b.Runs, b.M.Parameters)
		tables[StepsFile] = &b.Steps
	}
	return bundle.Encode(b.M, tables, dataPackageOf(search))
}

// Summary is every configuration's figures against the baseline.
func (b *Bundle) Summary(w io.Writer) error {
	if _, err := b.Files(); err != nil {
		return err
	}
	p := b.M.Parameters
	writeTable(w, b.Conditions)
	load := fmt.Sprintf("closed loop, %d connections x %d in flight", p.Connections, p.Pipelining)
	if p.Load == contract.LoadOpen {
		load = fmt.Sprintf("open loop at %g req/s, latency from the scheduled send; runs whose send-lag p99 is over %g ms are not pooled", p.RateRPS, p.MaxSendLagP99Ms)
		if p.Capacity.On() {
			load = fmt.Sprintf("open loop at each step's rate, latency from the scheduled send; a step whose send-lag p99 is over %g ms is the generator's limit", p.MaxSendLagP99Ms)
		}
		if p.Arrivals == contract.ArrivalsPoisson {
			load += "; Poisson arrivals (exponential gaps, the same seeded schedule in every run)"
		}
	}
	fmt.Fprintf(w, "\n%s, GET :%d%s; %s, %gs measured after %gs of warm-up; service limited to %g CPU, %s\n",
		p.Image, p.Port, p.Path, load, p.DurationS, p.WarmupS, p.Limits.APICPUs, bytesSize(p.Limits.APIMemoryBytes))
	fmt.Fprintf(w, "req/s: mean of the runs' figures [95%% t-interval over runs]; ratio and cost/req: against the baseline %s; cpu us/req: inside the container (its processes) + outside it (dockerd, containerd, shims)\n", p.Baseline)
	fmt.Fprintf(w, "lines/req: lines read back (console through the %s driver%s) over every request sent to the service (the readiness probes it answered and the warm-up included)\n",
		p.LogDriver, map[bool]string{true: ", files of " + p.LogFile, false: ""}[p.LogFile != ""])
	fmt.Fprintf(w, "NOTE: %s.\n", Counted)
	for _, c := range b.Conditions {
		if !c.LinesSteady {
			fmt.Fprintf(w, "MARKED: %s: %d run(s) whose lines per request moved, or lost console lines in non-blocking mode (runs.csv, column mark)\n", c.Config, c.RunsMarked)
		}
	}
	fmt.Fprintf(w, "noisy: runs during which the rest of the host was busy (other work over %g cores); they stay data\n", NoisyOtherCores)
	if r := p.Hardening.Relaxed; len(r) > 0 {
		fmt.Fprintf(w, "hardening relaxed: %s\n", strings.Join(r, ", "))
	}
	b.writeCapacity(w)
	return nil
}

func writeTable(w io.Writer, conds []ConditionRow) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "config\truns ok (pooled, noisy)\treq/s\t95% interval\tratio\tp50 ms\tp99 ms\tlines/req\tconsole\tfile\tbytes/req\tapi cores\tengine cores\tcpu us/req in+out\tcost/req us\t")
	for _, c := range conds {
		name := c.Config
		if c.Baseline {
			name += " (baseline)"
		}
		if !c.LinesSteady {
			name += " MARKED"
		}
		fmt.Fprintf(tw, "%s\t%d/%d (%d, %d)\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s + %s\t%s\t\n",
			name, c.RunsVerified, c.Runs, c.RunsPooled, c.RunsNoisy, num(c.RequestsPerS, 0), interval(c.RequestsPerSLow, c.RequestsPerSHigh), num(c.RatioToBaseline, 2),
			num(c.LatencyP50Ms, 2), num(c.LatencyP99Ms, 2), num(c.LinesPerRequest, 2), num(c.ConsolePerReq, 2), num(c.FilePerReq, 2), num(c.BytesPerRequest, 0),
			num(c.APICores, 2), num(c.EngineCores, 2), num(c.APIUsPerReq, 1), num(c.EngineUsPerReq, 1), signed(c.CostPerRequestUs))
	}
	tw.Flush()
}

func num(o Opt, decimals int) string {
	if !o.Present() {
		return "-"
	}
	return fmt.Sprintf("%.*f", decimals, float64(o))
}

func signed(o Opt) string {
	if !o.Present() {
		return "-"
	}
	return fmt.Sprintf("%+.1f", float64(o))
}

func interval(lo, hi Opt) string {
	if !lo.Present() || !hi.Present() {
		return "-"
	}
	return fmt.Sprintf("[%.0f, %.0f]", float64(lo), float64(hi))
}

func bytesSize(n int64) string { return fmt.Sprintf("%d MiB", n>>20) }

// latencies are a run's latency figures as its row holds them: absent without a
// response, where the conductor reports 0 (a latency of 0 ms would be a figure).
func latencies(responses int64, mean, p50, p90, p99, max float64) (Opt, Opt, Opt, Opt, Opt) {
	has := responses > 0
	return bundle.OptIf(has, mean), bundle.OptIf(has, p50), bundle.OptIf(has, p90), bundle.OptIf(has, p99), bundle.OptIf(has, max)
}
