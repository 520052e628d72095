package yourapi

import (
	"fmt"
	"io"
	"strings"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/httpload"
	"github.com/logbench/logbench/kit/experiment/tabular"
)

// result is the conductor's result of a run, and why it cannot be read.
func result(run experiment.Run) (res contract.ForeignResult, failure string) {
	if run.Pod.Result == nil && run.Failure == "" {
		return res, "the conductor left no result"
	}
	if why := run.Pod.Decode(&res); why != "" {
		return res, why
	}
	return res, res.Failure
}

// loops are the run's loops as the conductor reported them: whether it got as far as
// the measured load, and its per-second counts.
func loops(run experiment.Run) httpload.Loops {
	res, _ := result(run)
	return httpload.Loops{Closed: res.Closed, Open: res.Open}
}

// Record turns what a run's pod left into its row's observed columns; DeriveRun
// derives the rest.
func Record(p *Params, run experiment.Run) RunRow {
	c := run.Condition.(tabular.Cell)
	r := RunRow{Performed: tabular.PerformedOf(run), Config: c[0], Step: c[1], Load: p.Load, Measured: httpload.Unmeasured()}
	res, resultFailure := result(run)
	r.ObservedFailure = experiment.JoinFailures(run.Failure, resultFailure)
	r.ReadyAfterS, r.SentTotal = res.Ready.AfterS, res.SentTotal
	if c := res.Closed; c != nil {
		r.Measured.Closed(*c)
		r.GeneratorBusy = c.GeneratorSaturated
	}
	if o := res.Open; o != nil {
		r.Measured.Open(*o)
	}
	// What was not read or measured stays absent: the conductor's result holds 0 for it.
	r.ConsoleLines, r.ConsoleBytes, r.Files, r.FileLines, r.FileBytes = None, None, None, None, None
	r.APICPUS, r.EngineCPUS, r.CPUIntervalS = None, None, None
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
	r.Host = httpload.HostOf(res.Host, res.HostCPUs)
	return r
}

// progress is the line after each run.
func progress(p *Params, r RunRow) string {
	state := tabular.Verdict(r.Verified, r.Failure)
	if r.Verified && !r.Trusted {
		state = fmt.Sprintf("NOT lag-trusted (send lag p99 %.2f ms over %g ms)", r.SendLagP99Ms, p.MaxSendLagP99Ms)
	}
	if r.Mark != "" {
		state += "; MARKED: " + r.Mark
	}
	return fmt.Sprintf("%-12s %7s req/s  p99 %6.2f ms  lines/req %s (console %s, file %s)  cpu us/req %s in + %s out  %s",
		r.Config, r.RequestsPerS.Fixed(0), r.LatencyP99Ms, r.LinesPerRequest.Fixed(2), r.ConsolePerReq.Fixed(2), r.FilePerReq.Fixed(2),
		r.APIUsPerReq.Fixed(1), r.EngineUsPerReq.Fixed(1), state)
}

// retry redoes an open-loop run that is data but whose sends were late (in a capacity
// search, a step that missed its target so), up to --retries times.
func retry(p *Params, r RunRow) bool {
	if p.Capacity.On() {
		return r.Verified && Search.Retry(p, r) // a step that held despite late sends stands
	}
	return r.Verified && !r.Trusted && r.Attempt <= p.Retries
}

// summary is every configuration's figures against the baseline.
func summary(b *Bundle, w io.Writer) error {
	p := b.Params()
	// The table the report draws of the bundle, as aligned text.
	if err := conditionTable(drawn{Bundle: b}).WriteText(w); err != nil {
		return err
	}
	load := fmt.Sprintf("closed loop, %d connections x %d in flight", p.Connections, p.Pipelining)
	if p.Load == contract.LoadOpen {
		load = fmt.Sprintf("open loop at %g req/s, latency from the scheduled send; runs whose send-lag p99 is over %g ms are not pooled", p.RateRPS, p.MaxSendLagP99Ms)
		if p.Capacity.On() {
			load = fmt.Sprintf("open loop at each step's rate, latency from the scheduled send; a step that misses the target with a send-lag p99 over %g ms is the generator's limit", p.MaxSendLagP99Ms)
		}
		if p.Arrivals == contract.ArrivalsPoisson {
			load += "; Poisson arrivals (exponential gaps, the same seeded schedule in every run)"
		}
	}
	fmt.Fprintf(w, "\n%s, GET :%d%s; %s, %gs measured after %gs of warm-up; service limited to %g CPU, %d MiB\n",
		p.Image, p.Port, p.Path, load, p.DurationS, p.WarmupS, p.Limits.APICPUs, p.Limits.APIMemoryBytes>>20)
	fmt.Fprintf(w, "req/s: mean of the runs' figures [95%% t-interval over runs]; ratio and cost: against the baseline %s; µs/req in + out: CPU inside the container (its processes) + outside it (dockerd, containerd, shims)\n", p.Baseline)
	fmt.Fprintf(w, "lines/req: lines read back (console through the %s driver%s) over every request sent to the service (the readiness probes it answered and the warm-up included)\n",
		p.LogDriver, map[bool]string{true: ", files of " + p.LogFile, false: ""}[p.LogFile != ""])
	fmt.Fprintf(w, "NOTE: %s.\n", Counted)
	for _, n := range setupNotes(p, DeriveConditions(b.Runs, *p)) {
		fmt.Fprintln(w, n)
	}
	fmt.Fprintf(w, "noisy: runs during which the rest of the host was busy (other work over %g cores); they stay data\n", experiment.NoisyOtherCores)
	Search.WriteSummary(b, w)
	return nil
}

// setupNotes are what a reader of the bundle's figures must know of how they were
// taken, as the summary and the report say it: the hardening relaxed, and each
// configuration whose lines were marked.
func setupNotes(p *Params, conds []ConditionRow) (notes []string) {
	if r := p.Hardening.Relaxed; len(r) > 0 {
		notes = append(notes, "hardening relaxed: "+strings.Join(r, ", "))
	}
	for _, c := range conds {
		if !c.LinesSteady {
			notes = append(notes, fmt.Sprintf("MARKED: %s: %d run(s) whose lines per request moved, or lost console lines in non-blocking mode (runs.csv, column mark)", c.Config, c.RunsMarked))
		}
	}
	return notes
}
