package qps

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/logbench/logbench/kit/experiment/httpload"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/report"
)

// Metrics are the experiment's metrics in the order compare shows them.
var Metrics = []compare.Metric{
	{Name: "requests_per_s", Title: "requests per second", Headline: true},
	{Name: "requests_per_s_at_median_speed", Title: "requests per second at the bundle's median host speed (speed probe)", Wide: true},
	{Name: "ratio_to_console_file", Title: "requests per second over console+file's, same API and round"},
	{Name: "p50_run_mean_ms", Title: "median latency, mean over runs"},
	{Name: "p99_run_mean_ms", Title: "p99 latency, mean over runs"},
	{Name: "api_cpu_us_per_request", Title: "API CPU per request"},
	{Name: "engine_cpu_us_per_request", Title: "engine CPU per request (dockerd, containerd, shims)"},
}

// compareLegend says what the test of each metric rests on.
var compareLegend = []string{
	"qps: requests/s is the mean over runs of each run's mean of its whole seconds' counts (series.csv); the bootstrap draws runs, then seconds within each. The ratio to console+file pairs each run with the console+file run of its API and round. Latencies and CPU per request are one figure per run (a bundle keeps no single request), and the bootstrap draws runs. Only verified runs count.",
	fmt.Sprintf("qps marks: NOT CONFIRMED when the kit's rate of an API is more than %g%% off wrk's on the same container (its req/s and ratios are not vouched for).", WrkTolerance*100),
}

// published are the article's figures against the bundles, with a warning for every
// way a bundle's setup is unlike the article's; the last difference, the API itself, is
// every bundle's, and the legend says it once.
func published(bundles []*Bundle) (rows []compare.Row, warnings, legend []string, err error) {
	pub, err := LoadPublished()
	if err != nil {
		return nil, nil, nil, err
	}
	for i, b := range bundles {
		u := UnlikePublished(*b.Params())
		for _, d := range u[:len(u)-1] {
			warnings = append(warnings, "WARNING: "+b.Label+" differs from the published setup: "+d)
		}
		if i == 0 {
			legend = append(legend, "published: "+u[len(u)-1]+".")
		}
	}
	return PublishedRows(pub, pub.API, bundles), warnings, legend, nil
}

// Rows are a qps bundle's rows for the comparison engine, per condition over its
// verified runs: requests/s with each run's whole seconds as its values, the ratio to
// console+file per round, the latencies and CPU per request one figure per run. An API
// whose rate wrk contradicts has its requests/s and ratios marked NOT CONFIRMED.
//
// With the speed probe's figures (speed: each run's speed over the bundle's median,
// verify.Result.Speed), requests/s is also given at the bundle's median speed, each run's
// rate divided by its speed: kept apart from the raw figure, as
// requests_per_s_at_median_speed.
func Rows(b *Bundle) []compare.Row {
	if p := b.Params(); p.Capacity.On() {
		return Search.Rows(p, b.Runs, func(subject string) []compare.KV {
			api, config, _ := strings.Cut(subject, "/")
			return []compare.KV{{Key: "api", Value: api}, {Key: "config", Value: config}}
		})
	}
	speed, conds := b.Speed, ConditionsOf(b)
	seriesOf := tabular.ByRun(tabular.Of[SeriesRow](b.Rows, SeriesFile))
	verified := func(api, config string) []RunRow {
		return counting(b.Runs, func(r RunRow) bool { return r.API == api && r.Config == config })
	}
	unconfirmed := map[string]string{}
	for _, c := range conds {
		if c.WrkAgreement.Present() && !WrkAgrees(float64(c.WrkAgreement)) {
			unconfirmed[c.API] = fmt.Sprintf("NOT CONFIRMED by wrk (the kit's rate %.2f x wrk's)", float64(c.WrkAgreement))
		}
	}
	var out []compare.Row
	for _, c := range conds {
		cond := []compare.KV{{Key: "api", Value: c.API}, {Key: "config", Value: c.Config}}
		var rateMarks []string // noisy runs the kit marks (tabular.MarkNoisy)
		if u, ok := unconfirmed[c.API]; ok {
			rateMarks = []string{u}
		}
		runs := verified(c.API, c.Config)
		var rps [][]float64
		for _, r := range runs {
			var rates httpload.Rates // what DeriveRun derives: the counts of the whole seconds
			if whole := rates.Derive(r.MeasuredS, seriesOf[r.RunID]); len(whole) > 0 {
				rps = append(rps, whole)
			} else if r.RequestsPerS.Present() {
				rps = append(rps, []float64{float64(r.RequestsPerS)})
			}
		}
		// A run has both percentiles or neither (httpload.Measured).
		p50 := compare.OnePerRun(runs, func(r RunRow) Opt { return r.LatencyP50Ms })
		p99 := compare.OnePerRun(runs, func(r RunRow) Opt { return r.LatencyP99Ms })
		rpsNorm := compare.OnePerRun(runs, func(r RunRow) Opt {
			if sp := speed[r.RunID]; sp > 0 && r.RequestsPerS > 0 {
				return r.RequestsPerS / Opt(sp)
			}
			return None
		})
		apiUs := compare.OnePerRun(runs, func(r RunRow) Opt { return r.APICPUUsPerReq })
		engUs := compare.OnePerRun(runs, func(r RunRow) Opt { return r.EngineUsPerReq })
		row := func(metric, unit string, runs [][]float64, value Opt, marks []string) {
			if len(runs) == 0 {
				return
			}
			r := compare.Measured(cond, metric, unit, compare.Mean{}, runs)
			r.Value = float64(value)
			r.Marks = marks
			r.Headline = metric == "requests_per_s" // what reproduce --precision waits for
			out = append(out, r)
		}
		row("requests_per_s", "req/s", rps, c.RequestsPerS, rateMarks)
		if len(rpsNorm) == len(runs) {
			row("requests_per_s_at_median_speed", "req/s", rpsNorm, None, rateMarks)
		}
		if c.Config != ConsoleFile {
			var ratios [][]float64
			for _, r := range runs {
				for _, cf := range verified(c.API, ConsoleFile) {
					if ratio := bundle.Ratio(r.RequestsPerS, cf.RequestsPerS); cf.Round == r.Round && ratio.Present() {
						ratios = append(ratios, []float64{float64(ratio)})
					}
				}
			}
			row("ratio_to_console_file", "x", ratios, c.RatioToConsoleFile, rateMarks)
		}
		row("p50_run_mean_ms", "ms", p50, c.LatencyP50Ms, nil)
		row("p99_run_mean_ms", "ms", p99, c.LatencyP99Ms, nil)
		row("api_cpu_us_per_request", "us", apiUs, c.CPUAPIUsPerReq, nil)
		if len(engUs) == c.RunsVerified { // a figure of some runs only would not be the condition's
			row("engine_cpu_us_per_request", "us", engUs, c.CPUEngineUsPerReq, nil)
		}
	}
	return out
}

// PublishedRows are the article's requests/s and ratios to console+file, for every
// configuration the bundles have, under the API the article measured.
func PublishedRows(pub Published, api string, bundles []*Bundle) []compare.Row {
	var configs []string
	for _, b := range bundles {
		configs = report.Union(configs, b.Params().Configs)
	}
	var out []compare.Row
	for _, config := range configs {
		cond := []compare.KV{{Key: "api", Value: api}, {Key: "config", Value: config}}
		v, ok := pub.RequestsPerS[config]
		if !ok {
			continue
		}
		out = append(out, compare.Fixed(cond, "requests_per_s", "req/s", v))
		if cf, ok := pub.RequestsPerS[ConsoleFile]; ok && config != ConsoleFile && cf > 0 {
			out = append(out, compare.Fixed(cond, "ratio_to_console_file", "x", v/cf))
		}
	}
	return out
}

// ConditionsOf are the bundle's conditions, derived from its runs.
func ConditionsOf(b *Bundle) []ConditionRow {
	return DeriveConditions(b.Runs, *b.Params(), mustPublished())
}

// host names each API's runtime and libraries as its image recorded them.
func host(b *Bundle) []compare.KV {
	m := b.M.(*Manifest)
	var out []string
	for _, api := range m.Parameters.APIs {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(m.Versions[api])) {
			parts = append(parts, k+" "+m.Versions[api][k])
		}
		out = append(out, cmp.Or(strings.Join(parts, ", "), api))
	}
	return []compare.KV{{Key: "runtime", Value: strings.Join(out, "; ")}}
}
