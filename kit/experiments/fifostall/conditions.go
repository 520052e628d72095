package fifostall

import (
	"math"
	"slices"
	"time"

	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/contract/stats"
	"github.com/logbench/logbench/kit/experiments/fifostall/model"
)

// ConditionRow is one cell of the matrix, api x mode x reader (conditions.csv). Its
// figures rest on the condition's verified runs only; failed runs are counted, never
// used. Most pool the runs' requests or sum the runs, as the article did; verify,
// compare and report state each figure over runs instead (Figures), and the p99's is
// written here too (P99RunMeanMs).
// A superseded run (redone because its send lag was over the bound) is counted in
// RunsSuperseded and nowhere else.
type ConditionRow struct {
	API          string `csv:"api" doc:"The API implementation: go (net/http) or python (the article's asyncio API)."`
	Mode         string `csv:"mode" doc:"The logging mode (none, short1, short10, json-only, json-prebuilt-sync, json-sync, json-queue)."`
	Reader       string `csv:"reader" doc:"The FIFO reader: fast (unbounded) or slow (bounded; the manifest's parameters.reader_bounds_bytes_per_s, where 0 means unbounded)."`
	Runs         int    `csv:"runs" unit:"1" doc:"Runs of the condition, failed ones included, superseded attempts not."`
	RunsVerified int    `csv:"runs_verified" unit:"1" doc:"Verified runs (not superseded): the runs every figure pools."`
	// RunsTrusted are the verified runs whose send lag kept within the bound; the
	// figures pool every verified run, trusted or not, and this says how many were.
	RunsTrusted    int `csv:"runs_trusted" later:"it counted each condition's lag-trusted runs" unit:"1" doc:"Of those, runs whose send lag kept within the bound (send_lag_trusted)."`
	RunsSuperseded int `csv:"runs_superseded" later:"it redid runs" unit:"1" doc:"Runs redone by a later attempt: counted, never pooled."`
	RunsNoisy      int `csv:"runs_noisy" later:"it measured the host's noise" unit:"1" doc:"Pooled runs on a noisy host (host_noisy)."`
	Requests       int `csv:"requests" unit:"1" doc:"Requests pooled."`
	Errors         int `csv:"errors" unit:"1" doc:"Errors among them."`

	P50Ms bundle.Opt `csv:"p50_ms" unit:"ms" doc:"Median of the pooled requests' latencies, nearest rank; missing without requests."`
	P99Ms bundle.Opt `csv:"p99_ms" unit:"ms" atleast:"p50_ms" doc:"99th percentile of the pooled latencies (the p99 of the pooled requests, as the article states its p99), nearest rank; missing without requests."`
	// P99Resolved says the p99 is at least ResolutionFactor x send_lag_p99_max_ms:
	// larger than the instrument's own error by enough to stand (Resolved).
	P99Resolved bool       `csv:"p99_resolved" later:"it tested each p99 against the instrument's resolution" doc:"true when p99_ms (pooled) is at least 5 times the worst send-lag p99: the instrument resolves it."`
	P99RunMinMs bundle.Opt `csv:"p99_run_min_ms" unit:"ms" doc:"Smallest per-run p99; missing without runs."`
	P99RunMaxMs bundle.Opt `csv:"p99_run_max_ms" unit:"ms" doc:"Largest per-run p99; missing without runs."`
	// P99RunMeanMs is the mean of the per-run p99s with its 95% Student-t interval over
	// runs (figure.Of): the condition's p99 as verify, compare and report state it.
	// Bundles written before the kit stated figures over runs lack these columns.
	P99RunMeanMs   bundle.Opt `csv:"p99_run_mean_ms" later:"it stated figures over runs" unit:"ms" doc:"Mean of the per-run p99s: the condition's p99 as verify, compare and report state it; missing without runs (absent in bundles written before)."`
	P99RunCILowMs  bundle.Opt `csv:"p99_run_ci_low_ms" later:"it stated figures over runs" unit:"ms" signed:"true" doc:"Low end of the 95% Student-t interval of p99_run_mean_ms over runs; missing with fewer than 2 runs."`
	P99RunCIHighMs bundle.Opt `csv:"p99_run_ci_high_ms" later:"it stated figures over runs" unit:"ms" doc:"High end of that interval; missing with fewer than 2 runs."`
	MeanMs         bundle.Opt `csv:"mean_ms" unit:"ms" doc:"Mean of the pooled latencies."`
	MaxMs          bundle.Opt `csv:"max_ms" unit:"ms" atleast:"p99_ms,mean_ms" doc:"Largest pooled latency."`

	SpanGenerateMeanUs bundle.Opt `csv:"span_generate_mean_us" unit:"us" doc:"Mean record generation time over the pooled requests."`
	SpanLogCallMeanUs  bundle.Opt `csv:"span_log_call_mean_us" unit:"us" doc:"Mean log call time over the pooled requests."`

	DrainS            bundle.Opt `csv:"drain_s" unit:"s" doc:"Mean drain over runs."`
	DrainMinS         bundle.Opt `csv:"drain_min_s" unit:"s" doc:"Smallest drain."`
	DrainMaxS         bundle.Opt `csv:"drain_max_s" unit:"s" doc:"Largest drain."`
	RPSToLastResponse bundle.Opt `csv:"rps_to_last_response" unit:"req/s" doc:"Requests over the summed to_last_response_s."`
	RPSToLogsRead     bundle.Opt `csv:"rps_to_logs_read" unit:"req/s" doc:"Requests over the summed to_logs_read_s."`
	BacklogMaxBytes   bundle.Opt `csv:"backlog_max_bytes" unit:"bytes" doc:"Largest backlog over runs."`
	APICPUCores       bundle.Opt `csv:"api_cpu_cores" unit:"cores" doc:"Mean API CPU over runs."`

	APICPUThrottledPeriods     int64      `csv:"api_cpu_throttled_periods" unit:"1" doc:"API throttled periods, summed over runs."`
	ReaderCPUThrottledPeriods  int64      `csv:"reader_cpu_throttled_periods" unit:"1" doc:"Reader throttled periods, summed over runs."`
	LoadgenCPUThrottledPeriods int64      `csv:"loadgen_cpu_throttled_periods" unit:"1" doc:"Load generator throttled periods, summed over runs."`
	SendLagP99MaxMs            bundle.Opt `csv:"send_lag_p99_max_ms" unit:"ms" doc:"Worst per-run send-lag p99."`
	HostCPUMedianPct           bundle.Opt `csv:"host_cpu_median_pct" unit:"%" doc:"Median of the runs' median host CPU."`
	HostCPUMaxPct              bundle.Opt `csv:"host_cpu_max_pct" unit:"%" doc:"Largest host CPU sampled."`
	HostLoad1Max               bundle.Opt `csv:"host_load1_max" unit:"1" doc:"Largest 1-minute load average sampled."`

	// The model's expectation, where it applies (a bounded reader and a mode that logs).
	OfferedBytesPerS           float64    `csv:"offered_bytes_per_s" unit:"bytes/s" doc:"Log bytes per second the load offers (the model's input)."`
	ReaderBoundBytesPerS       float64    `csv:"reader_bound_bytes_per_s" unit:"bytes/s" doc:"The reader's bound; 0 means unbounded."`
	PredictedDrainS            bundle.Opt `csv:"predicted_drain_s" unit:"s" doc:"The model's drain; missing where the model does not apply (an unbounded reader, a mode that logs nothing)."`
	PredictedRPSToLastResponse bundle.Opt `csv:"predicted_rps_to_last_response" unit:"req/s" doc:"The model's throughput to the last response; missing where it does not apply."`
	PredictedRPSToLogsRead     bundle.Opt `csv:"predicted_rps_to_logs_read" unit:"req/s" doc:"The model's throughput to the last log byte read; missing where it does not apply."`
	PredictedBacklogMaxBytes   bundle.Opt `csv:"predicted_backlog_max_bytes" unit:"bytes" doc:"The model's largest backlog; missing where it does not apply."`
	PredictedP99Ms             bundle.Opt `csv:"predicted_p99_ms" unit:"ms" doc:"The model's p99 for synchronous modes, requests served in arrival order; missing where it does not apply."`
}

// DeriveConditions pools runs, with their own rows of the per-run tables (rows), into
// one row per condition, in the order conditions first appear.
func DeriveConditions(runs []RunRow, rows tabular.Rows, params Params) []ConditionRow {
	reqs, cts := tabular.ByRun(tabular.Of[RequestRow](rows, RequestsFile)), tabular.ByRun(tabular.Of[ContainerRow](rows, ContainersFile))
	var out []ConditionRow
	for _, r := range runs {
		if !slices.ContainsFunc(out, func(c ConditionRow) bool { return c.Of(r) }) {
			out = append(out, ConditionRow{API: r.API, Mode: r.Mode, Reader: r.Reader})
		}
	}
	for i, c := range out {
		out[i] = deriveCondition(c, slices.DeleteFunc(slices.Clone(runs), func(r RunRow) bool { return !c.Of(r) }), reqs, cts, params)
	}
	return out
}

// Of says whether run r is of the condition.
func (c ConditionRow) Of(r RunRow) bool {
	return r.API == c.API && r.Mode == c.Mode && r.Reader == c.Reader
}

// Verified are the verified runs of the condition, a superseded attempt not among them:
// the runs its figures rest on.
func (c ConditionRow) Verified(runs []RunRow) []RunRow {
	return slices.DeleteFunc(slices.Clone(runs), func(r RunRow) bool { return !r.Verified || r.Superseded || !c.Of(r) })
}

func deriveCondition(c ConditionRow, all []RunRow, reqs map[string][]RequestRow, cts map[string][]ContainerRow, params Params) ConditionRow {
	// Redone: kept in the bundle, counted, and left out of every figure.
	runs := slices.DeleteFunc(slices.Clone(all), func(r RunRow) bool { return r.Superseded })
	c.Runs, c.RunsSuperseded = len(runs), len(all)-len(runs)
	var lat, gen, call, p99s, drains, cpus, lags, hostMed, hostMax, load []float64
	var sumReq, sumA, sumB float64
	backlog := bundle.None
	for _, r := range c.Verified(runs) {
		c.RunsVerified++
		if r.SendLagTrusted {
			c.RunsTrusted++
		}
		if r.HostNoisy {
			c.RunsNoisy++
		}
		c.Requests += r.Requests
		c.Errors += r.Errors
		for _, q := range reqs[r.RunID] {
			lat = append(lat, q.LatencyMs)
			gen, call = append(gen, q.SpanGenerateUs), append(call, q.SpanLogCallUs)
		}
		p99s = append(p99s, float64(r.P99Ms))
		drains = append(drains, r.DrainS)
		cpus = append(cpus, r.APICPUCores)
		lags = append(lags, float64(r.SendLagP99Ms))
		hostMed, hostMax, load = append(hostMed, float64(r.HostCPUMedianPct)), append(hostMax, float64(r.HostCPUMaxPct)), append(load, float64(r.HostLoad1Max))
		sumReq += float64(r.Requests)
		sumA += r.ToLastResponseS
		sumB += r.ToLogsReadS
		if math.IsNaN(float64(backlog)) || float64(r.BacklogMaxBytes) > float64(backlog) {
			backlog = bundle.Opt(r.BacklogMaxBytes)
		}
		for _, ct := range cts[r.RunID] {
			switch ct.Role {
			case "api":
				c.APICPUThrottledPeriods += ct.CPUThrottled
			case "reader":
				c.ReaderCPUThrottledPeriods += ct.CPUThrottled
			case "loadgen":
				c.LoadgenCPUThrottledPeriods += ct.CPUThrottled
			}
		}
	}
	c.P50Ms, c.P99Ms = bundle.Opt(stats.NearestRank(lat, 50)), bundle.Opt(stats.NearestRank(lat, 99))
	c.P99RunMinMs, c.P99RunMaxMs = bundle.Opt(stats.Min(p99s)), bundle.Opt(stats.Max(p99s))
	c.P99RunMeanMs, c.P99RunCILowMs, c.P99RunCIHighMs = bundle.MeanCI(p99s)
	c.MeanMs, c.MaxMs = bundle.Opt(stats.Mean(lat)), bundle.Opt(stats.Max(lat))
	c.SpanGenerateMeanUs, c.SpanLogCallMeanUs = bundle.Opt(stats.Mean(gen)), bundle.Opt(stats.Mean(call))
	c.DrainS, c.DrainMinS, c.DrainMaxS = bundle.Opt(stats.Mean(drains)), bundle.Opt(stats.Min(drains)), bundle.Opt(stats.Max(drains))
	c.RPSToLastResponse, c.RPSToLogsRead = ratio(sumReq, sumA), ratio(sumReq, sumB)
	c.BacklogMaxBytes = backlog
	c.APICPUCores = bundle.Opt(stats.Mean(cpus))
	c.SendLagP99MaxMs = bundle.Opt(stats.Max(lags))
	c.P99Resolved = Resolved(float64(c.P99Ms), float64(c.SendLagP99MaxMs))
	c.HostCPUMedianPct, c.HostCPUMaxPct, c.HostLoad1Max = bundle.Opt(stats.NearestRank(hostMed, 50)), bundle.Opt(stats.Max(hostMax)), bundle.Opt(stats.Max(load))

	var pipe int64 = 64 << 10 // Linux's default, unless a run read the kernel's value
	for _, r := range runs {
		if r.PipeCapacityBytes > 0 {
			pipe = r.PipeCapacityBytes
			break
		}
	}
	protocol := contract.RunParams{Rate: params.RateRPS, Duration: time.Duration(params.DurationS * float64(time.Second))}
	p := model.Predict(model.Inputs{
		Mode: contract.LogMode(c.Mode), ReaderBytesPerSec: params.ReaderBounds[c.Reader], Rate: protocol.Rate,
		Duration: protocol.Duration, Count: protocol.Count(), PipeCapacityBytes: pipe,
	})
	c.OfferedBytesPerS, c.ReaderBoundBytesPerS = p.OfferedBytesPerSec, p.ReaderBoundBytesPerS
	c.PredictedDrainS, c.PredictedRPSToLastResponse, c.PredictedRPSToLogsRead, c.PredictedBacklogMaxBytes, c.PredictedP99Ms = bundle.None, bundle.None, bundle.None, bundle.None, bundle.None
	if p.Applies {
		c.PredictedDrainS, c.PredictedRPSToLastResponse, c.PredictedRPSToLogsRead = bundle.Opt(p.DrainS), bundle.Opt(p.RPSToLastResponse), bundle.Opt(p.RPSToLogsRead)
		c.PredictedBacklogMaxBytes, c.PredictedP99Ms = bundle.Opt(p.BacklogMaxBytes), bundle.Opt(p.P99Ms)
	}
	return c
}

// ratio is num per den (requests per second), absent when den is not above 0.
func ratio(num, den float64) bundle.Opt { return bundle.Per(bundle.Opt(num), bundle.Opt(den)) }
