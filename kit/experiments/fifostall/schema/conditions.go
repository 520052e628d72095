package schema

import (
	"math"
	"time"

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
	API          string `csv:"api"`
	Mode         string `csv:"mode"`
	Reader       string `csv:"reader"`
	Runs         int    `csv:"runs"` // the condition's runs, superseded attempts not counted
	RunsVerified int    `csv:"runs_verified"`
	// RunsTrusted are the verified runs whose send lag kept within the bound; the
	// figures pool every verified run, trusted or not, and this says how many were.
	RunsTrusted    int `csv:"runs_trusted"`
	RunsSuperseded int `csv:"runs_superseded"` // attempts redone, kept in runs.csv only
	RunsNoisy      int `csv:"runs_noisy"`      // verified runs on a noisy host (HostNoisy)
	Requests       int `csv:"requests"`
	Errors         int `csv:"errors"`

	P50Ms bundle.Opt `csv:"p50_ms"` // pooled over the verified runs' requests
	P99Ms bundle.Opt `csv:"p99_ms"` // of the pooled requests, as the article's; nearest rank
	// P99Resolved says the p99 is at least ResolutionFactor x send_lag_p99_max_ms:
	// larger than the instrument's own error by enough to stand (Resolved).
	P99Resolved bool       `csv:"p99_resolved"`
	P99RunMinMs bundle.Opt `csv:"p99_run_min_ms"` // the range of the per-run p99s
	P99RunMaxMs bundle.Opt `csv:"p99_run_max_ms"`
	// P99RunMeanMs is the mean of the per-run p99s with its 95% Student-t interval over
	// runs (figure.Of): the condition's p99 as verify, compare and report state it.
	// Bundles written before the kit stated figures over runs lack these columns.
	P99RunMeanMs   bundle.Opt `csv:"p99_run_mean_ms"`
	P99RunCILowMs  bundle.Opt `csv:"p99_run_ci_low_ms"`
	P99RunCIHighMs bundle.Opt `csv:"p99_run_ci_high_ms"`
	MeanMs         bundle.Opt `csv:"mean_ms"`
	MaxMs          bundle.Opt `csv:"max_ms"`

	SpanGenerateMeanUs bundle.Opt `csv:"span_generate_mean_us"` // mean over the pooled requests
	SpanLogCallMeanUs  bundle.Opt `csv:"span_log_call_mean_us"`

	DrainS            bundle.Opt `csv:"drain_s"` // mean over runs
	DrainMinS         bundle.Opt `csv:"drain_min_s"`
	DrainMaxS         bundle.Opt `csv:"drain_max_s"`
	RPSToLastResponse bundle.Opt `csv:"rps_to_last_response"` // sum of requests / sum of to_last_response_s
	RPSToLogsRead     bundle.Opt `csv:"rps_to_logs_read"`     // sum of requests / sum of to_logs_read_s
	BacklogMaxBytes   bundle.Opt `csv:"backlog_max_bytes"`    // max over runs
	APICPUCores       bundle.Opt `csv:"api_cpu_cores"`        // mean over runs

	APICPUThrottledPeriods     int64      `csv:"api_cpu_throttled_periods"` // summed over runs
	ReaderCPUThrottledPeriods  int64      `csv:"reader_cpu_throttled_periods"`
	LoadgenCPUThrottledPeriods int64      `csv:"loadgen_cpu_throttled_periods"`
	SendLagP99MaxMs            bundle.Opt `csv:"send_lag_p99_max_ms"` // worst per-run send-lag p99
	HostCPUMedianPct           bundle.Opt `csv:"host_cpu_median_pct"` // median of the per-run medians
	HostCPUMaxPct              bundle.Opt `csv:"host_cpu_max_pct"`
	HostLoad1Max               bundle.Opt `csv:"host_load1_max"`

	// The model's expectation, where it applies (a bounded reader and a mode that logs).
	OfferedBytesPerS           float64    `csv:"offered_bytes_per_s"`
	ReaderBoundBytesPerS       float64    `csv:"reader_bound_bytes_per_s"`
	PredictedDrainS            bundle.Opt `csv:"predicted_drain_s"`
	PredictedRPSToLastResponse bundle.Opt `csv:"predicted_rps_to_last_response"`
	PredictedRPSToLogsRead     bundle.Opt `csv:"predicted_rps_to_logs_read"`
	PredictedBacklogMaxBytes   bundle.Opt `csv:"predicted_backlog_max_bytes"`
	PredictedP99Ms             bundle.Opt `csv:"predicted_p99_ms"` // synchronous modes, requests served in arrival order
}

// DeriveConditions pools runs into one row per condition, in the order conditions
// first appear.
func DeriveConditions(runs []Rows, params Params) []ConditionRow {
	type key struct{ api, mode, reader string }
	var order []key
	groups := map[key][]Rows{}
	superseded := map[key]int{}
	for _, r := range runs {
		k := key{r.Run.API, r.Run.Mode, r.Run.Reader}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
			groups[k] = nil
		}
		if r.Run.Superseded {
			// Redone: kept in the bundle, counted, and left out of every figure.
			superseded[k]++
			continue
		}
		groups[k] = append(groups[k], r)
	}
	out := make([]ConditionRow, 0, len(order))
	for _, k := range order {
		c := deriveCondition(k.api, k.mode, k.reader, groups[k], params)
		c.RunsSuperseded = superseded[k]
		out = append(out, c)
	}
	return out
}

func deriveCondition(api, mode, reader string, runs []Rows, params Params) ConditionRow {
	c := ConditionRow{API: api, Mode: mode, Reader: reader, Runs: len(runs)}
	var lat, gen, call, p99s, drains, cpus, lags, hostMed, hostMax, load []float64
	var sumReq, sumA, sumB float64
	backlog := bundle.None
	for _, r := range runs {
		if !r.Run.Verified {
			continue
		}
		c.RunsVerified++
		if r.Run.SendLagTrusted {
			c.RunsTrusted++
		}
		if r.Run.HostNoisy {
			c.RunsNoisy++
		}
		c.Requests += r.Run.Requests
		c.Errors += r.Run.Errors
		for _, q := range r.Requests {
			lat = append(lat, q.LatencyMs)
			gen, call = append(gen, q.SpanGenerateUs), append(call, q.SpanLogCallUs)
		}
		p99s = append(p99s, float64(r.Run.P99Ms))
		drains = append(drains, r.Run.DrainS)
		cpus = append(cpus, r.Run.APICPUCores)
		lags = append(lags, float64(r.Run.SendLagP99Ms))
		hostMed, hostMax, load = append(hostMed, float64(r.Run.HostCPUMedianPct)), append(hostMax, float64(r.Run.HostCPUMaxPct)), append(load, float64(r.Run.HostLoad1Max))
		sumReq += float64(r.Run.Requests)
		sumA += r.Run.ToLastResponseS
		sumB += r.Run.ToLogsReadS
		if math.IsNaN(float64(backlog)) || float64(r.Run.BacklogMaxBytes) > float64(backlog) {
			backlog = bundle.Opt(r.Run.BacklogMaxBytes)
		}
		for _, ct := range r.Containers {
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
	c.P99RunMinMs, c.P99RunMaxMs = bundle.Opt(minOf(p99s)), bundle.Opt(stats.Max(p99s))
	c.P99RunMeanMs, c.P99RunCILowMs, c.P99RunCIHighMs = bundle.MeanCI(p99s)
	c.MeanMs, c.MaxMs = bundle.Opt(stats.Mean(lat)), bundle.Opt(stats.Max(lat))
	c.SpanGenerateMeanUs, c.SpanLogCallMeanUs = bundle.Opt(stats.Mean(gen)), bundle.Opt(stats.Mean(call))
	c.DrainS, c.DrainMinS, c.DrainMaxS = bundle.Opt(stats.Mean(drains)), bundle.Opt(minOf(drains)), bundle.Opt(stats.Max(drains))
	c.RPSToLastResponse, c.RPSToLogsRead = ratio(sumReq, sumA), ratio(sumReq, sumB)
	c.BacklogMaxBytes = backlog
	c.APICPUCores = bundle.Opt(stats.Mean(cpus))
	c.SendLagP99MaxMs = bundle.Opt(stats.Max(lags))
	c.P99Resolved = Resolved(float64(c.P99Ms), float64(c.SendLagP99MaxMs))
	c.HostCPUMedianPct, c.HostCPUMaxPct, c.HostLoad1Max = bundle.Opt(stats.NearestRank(hostMed, 50)), bundle.Opt(stats.Max(hostMax)), bundle.Opt(stats.Max(load))

	var pipe int64 = 64 << 10 // Linux's default, unless a run read the kernel's value
	for _, r := range runs {
		if r.Run.PipeCapacityBytes > 0 {
			pipe = r.Run.PipeCapacityBytes
			break
		}
	}
	protocol := contract.RunParams{Rate: params.RateRPS, Duration: time.Duration(params.DurationS * float64(time.Second))}
	p := model.Predict(model.Inputs{
		Mode: contract.LogMode(mode), ReaderBytesPerSec: params.ReaderBounds[reader], Rate: protocol.Rate,
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

func ratio(num, den float64) bundle.Opt {
	if den <= 0 {
		return bundle.None
	}
	return bundle.Opt(num / den)
}

func minOf(values []float64) float64 {
	if len(values) == 0 {
		return math.NaN()
	}
	m := values[0]
	for _, v := range values[1:] {
		m = min(m, v)
	}
	return m
}
