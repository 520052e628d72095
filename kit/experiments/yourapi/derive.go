package yourapi

import (
	"math"
	"slices"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/httpload"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
)

// LinesTolerance is how far a run's lines per request may be from its configuration's
// median before the run is marked: 0.05 lines, plus 1% of the median. A service's
// start-up and shutdown lines, and a request in flight when the load stops, move the
// figure by far less over the thousands of requests of a run.
func LinesTolerance(median float64) float64 { return 0.05 + 0.01*math.Abs(median) }

// DeriveRun fills one run's derived columns from its observed ones and its series;
// Mark, which sets the run against the others, is markRuns'.
func DeriveRun(r RunRow, series []SeriesRow, p Params) RunRow {
	r.Rates.Derive(r.MeasuredS, series)
	// The lines of the sinks read back; a sink not read adds nothing (and its counts
	// are absent, not 0, in bundles written now).
	console := r.ConsoleRead && r.ConsoleLines.Present() && r.ConsoleBytes.Present()
	file := r.FileRead && r.FileLines.Present() && r.FileBytes.Present()
	// perReq is v over every request sent: absent when v was not read or nothing was sent.
	perReq := func(v Opt, read bool) Opt {
		if !read {
			return None
		}
		return bundle.Per(v, Opt(r.SentTotal))
	}
	var bytes Opt
	r.Lines = 0
	if console {
		r.Lines, bytes = int64(r.ConsoleLines), r.ConsoleBytes
	}
	if file {
		r.Lines, bytes = r.Lines+int64(r.FileLines), bytes+r.FileBytes
	}
	r.ConsolePerReq, r.FilePerReq = perReq(r.ConsoleLines, console), perReq(r.FileLines, file)
	r.LinesPerRequest, r.BytesPerRequest = perReq(Opt(r.Lines), console || file), perReq(bytes, console || file)
	r.APICores, r.EngineCores, r.APIUsPerReq, r.EngineUsPerReq, r.CPUUsPerReq = None, None, None, None, None
	measured := r.CPUMeasured && r.APICPUS.Present() && r.EngineCPUS.Present() && r.CPUIntervalS.Present() && r.CPUIntervalS > 0
	if measured {
		r.APICores, r.EngineCores = r.APICPUS/r.CPUIntervalS, r.EngineCPUS/r.CPUIntervalS
		r.APIUsPerReq, r.EngineUsPerReq = bundle.Per(r.APICPUS*1e6, Opt(r.Requests)), bundle.Per(r.EngineCPUS*1e6, Opt(r.Requests))
		r.CPUUsPerReq = r.APIUsPerReq + r.EngineUsPerReq // absent where either is
	}
	r.OtherCores, r.HostNoisy = None, false
	if r.HostBusyPct.Present() && r.HostCPUs.Present() && r.HostCPUs > 0 && measured && r.MeasuredS > 0 {
		r.OtherCores = Opt(float64(r.HostBusyPct)/100*float64(r.HostCPUs) - float64(r.APICores) - float64(r.EngineCores) - r.GeneratorCPUS/r.MeasuredS)
		r.HostNoisy = float64(r.OtherCores) > experiment.NoisyOtherCores
	}
	// A run that sent nothing has no send lag, and no lag to distrust it for.
	r.Trusted = r.Load != contract.LoadOpen || !r.SendLagP99Ms.Present() || float64(r.SendLagP99Ms) <= p.MaxSendLagP99Ms
	r.Mark = ""
	var failed experiment.Failures
	failed.Unless(r.Requests != 0, "no response in the measured interval")
	failed.Unless(r.Requests == 0 || r.Errors == 0, "%d requests got no response", r.Errors)
	failed.Unless(r.Non2xx == 0, "%d responses were not 2xx", r.Non2xx)
	failed.Unless(!r.GeneratorBusy, "the load generator was saturated: it may have been the bottleneck")
	r.Failure = experiment.JoinFailures(r.ObservedFailure, failed.String())
	r.Verified = r.Failure == ""
	return r
}

// pooled says whether a run counts in its configuration's figures.
func pooled(r RunRow) bool { return r.Verified && r.Trusted && !r.Superseded }

// pooledOf are the runs of a configuration that count in its figures.
func pooledOf(runs []RunRow, config string) []RunRow { return runsWhere(runs, config, pooled) }

// runsWhere are the runs of a configuration that hold to rule.
func runsWhere(runs []RunRow, config string, rule func(RunRow) bool) []RunRow {
	return slices.DeleteFunc(slices.Clone(runs), func(r RunRow) bool { return r.Config != config || !rule(r) })
}

// markRuns marks, within each configuration, a run whose lines per request are off
// the configuration's median, and in non-blocking mode a run whose console holds fewer
// lines per request than the configuration's fullest run (lines the driver dropped):
// each run's own columns derived (DeriveRun), its mark sets it against the others.
func markRuns(p *Params, out []RunRow) {
	for _, config := range p.ConfigNames() {
		judged := runsWhere(out, config, func(r RunRow) bool { return r.Verified && !r.Superseded })
		lpr := bundle.PresentOf(judged, func(r RunRow) Opt { return r.LinesPerRequest })
		console := bundle.PresentOf(judged, func(r RunRow) Opt { return r.ConsolePerReq })
		for i := range out {
			if out[i].Config == config {
				out[i].Mark = ""
			}
		}
		if len(lpr) < 2 {
			continue
		}
		median := compare.MedianOf(lpr)
		fullest := slices.Max(append(console, math.Inf(-1)))
		for i := range out {
			r := &out[i]
			if r.Config != config || !r.Verified || r.Superseded || !r.LinesPerRequest.Present() {
				continue
			}
			v, short := float64(r.LinesPerRequest), fullest-float64(r.ConsolePerReq)
			var marks experiment.Failures
			marks.Unless(!(math.Abs(v-median) > LinesTolerance(median)), "lines per request %.3f, the configuration's median %.3f", v, median)
			marks.Unless(!(p.NonBlocking && r.ConsolePerReq.Present() && short > LinesTolerance(fullest)),
				"console about %.0f lines short of the configuration's fullest run: dropped by the driver in non-blocking mode", short*float64(r.SentTotal))
			r.Mark = marks.String()
		}
	}
}

// DeriveConditions pools every configuration's runs, in the manifest's order.
func DeriveConditions(runs []RunRow, p Params) []ConditionRow {
	var out []ConditionRow
	for _, cfg := range p.Configs {
		out = append(out, deriveCondition(cfg, runs, p))
	}
	var base ConditionRow
	if i := slices.IndexFunc(out, func(c ConditionRow) bool { return c.Config == p.Baseline }); i >= 0 {
		base = out[i]
	}
	for i := range out {
		c := &out[i]
		c.RatioToBaseline = bundle.Ratio(c.RequestsPerS, base.RequestsPerS)
		c.CostAPIUs = bundle.Diff(c.APIUsPerReq, base.APIUsPerReq)
		c.CostEngineUs = bundle.Diff(c.EngineUsPerReq, base.EngineUsPerReq)
		c.CostPerRequestUs = bundle.Diff(c.CPUUsPerReq, base.CPUUsPerReq)
	}
	return out
}

func deriveCondition(cfg Config, runs []RunRow, p Params) ConditionRow {
	counted := pooledOf(runs, cfg.Name)
	c := ConditionRow{Config: cfg.Name, Setting: cfg.String(), Baseline: cfg.Name == p.Baseline, RunsPooled: len(counted)}
	count := func(rule func(RunRow) bool) int { return len(runsWhere(runs, cfg.Name, rule)) }
	c.Runs, c.RunsVerified = count(func(RunRow) bool { return true }), count(func(r RunRow) bool { return r.Verified })
	c.RunsNoisy, c.RunsMarked = count(func(r RunRow) bool { return r.Verified && r.HostNoisy }), count(func(r RunRow) bool { return r.Mark != "" })
	c.LinesSteady = c.RunsMarked == 0
	c.Pooled = httpload.Pool(counted, func(r RunRow) (httpload.Rates, httpload.Measured) { return r.Rates, r.Measured })
	mean := func(of func(RunRow) Opt) Opt { return bundle.MeanOver(counted, of) }
	c.LinesPerRequest, c.ConsolePerReq = mean(func(r RunRow) Opt { return r.LinesPerRequest }), mean(func(r RunRow) Opt { return r.ConsolePerReq })
	c.FilePerReq, c.BytesPerRequest = mean(func(r RunRow) Opt { return r.FilePerReq }), mean(func(r RunRow) Opt { return r.BytesPerRequest })
	c.APICores, c.EngineCores = mean(func(r RunRow) Opt { return r.APICores }), mean(func(r RunRow) Opt { return r.EngineCores })
	c.APIUsPerReq, c.EngineUsPerReq = mean(func(r RunRow) Opt { return r.APIUsPerReq }), mean(func(r RunRow) Opt { return r.EngineUsPerReq })
	c.CPUUsPerReq = mean(func(r RunRow) Opt { return r.CPUUsPerReq })
	return c
}
