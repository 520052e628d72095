package experiments

import (
	"bytes"
	"encoding/csv"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/internal/fifostalltest"
	"github.com/logbench/logbench/internal/forgery"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/httpload"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/experiments/fifostall"
	"github.com/logbench/logbench/kit/experiments/linecost"
	"github.com/logbench/logbench/kit/experiments/logdriver"
	"github.com/logbench/logbench/kit/experiments/qps"
	"github.com/logbench/logbench/kit/experiments/yourapi"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// The consistent forgeries of the archived bundles that verified before the physical
// rules (kit/offline/verify/physics.go): each edits the observations, derives every
// derived column, run and condition again with the kit's own derivation, and writes
// SHA256SUMS again, so that no recomputation can tell. Each must be refused, and only by
// a rule of what can happen: a problem of any other kind would mean the forgery was not
// consistent, and the test would prove nothing.

// physicalRules are the rules a consistent forgery can break.
var physicalRules = []string{verify.RuleTimes, verify.RuleCPULimit, verify.RuleLittle, verify.RuleWallParts, verify.RuleBacklog,
	verify.RuleRateBound, verify.RuleNonNegative, verify.RuleMeasured, verify.RuleOrdered, verify.RuleNumbered, logdriver.RuleLines, httpload.RuleSeriesSum}

// refusedBy wants res refused, every problem naming a physical rule, and each of rules
// named by one.
func refusedBy(t *testing.T, res *verify.Result, rules ...string) {
	t.Helper()
	if res.OK() {
		t.Fatal("the forgery verifies")
	}
	named := map[string]bool{}
	for _, p := range res.Problems {
		i := slices.IndexFunc(physicalRules, func(r string) bool { return strings.Contains(p.Msg, "rule "+r+":") })
		if i < 0 {
			t.Errorf("not a physical rule (the forgery is not consistent): %s", p)
			continue
		}
		named[physicalRules[i]] = true
	}
	for _, r := range rules {
		if !named[r] {
			t.Errorf("no problem names rule %s", r)
		}
	}
	t.Logf("%d problems, the first: %s", len(res.Problems), res.Problems[0])
}

func archived(path string) string { return filepath.Join("..", "..", "results", path) }

// forgeQPS is the archived qps bundle at path with its rows changed by edit, every run
// derived again from its observed columns and series (qps.DeriveRun), the conditions
// again (Files), SHA256SUMS again; and its verification.
func forgeQPS(t *testing.T, path string, edit func(b *qps.Bundle)) *verify.Result {
	t.Helper()
	f := forgery.Open(t, archived(path))
	res := qps.Experiment.Verify(f)
	b, err := verify.OwnOf[qps.Bundle](res, qps.Name)
	if err != nil || !res.OK() {
		t.Fatalf("the archived bundle does not verify: %v %v", err, res.Problems)
	}
	edit(b)
	for i, r := range b.Runs {
		var series []qps.SeriesRow
		for _, s := range tabular.Of[qps.SeriesRow](b.Rows, qps.SeriesFile) {
			if s.RunID == r.RunID {
				series = append(series, s)
			}
		}
		b.Runs[i] = qps.DeriveRun(r, series, b.Params().NonBlocking)
	}
	files, err := b.Files()
	if err != nil {
		t.Fatal(err)
	}
	forgery.Rewrite(f, files)
	return qps.Experiment.Verify(f)
}

// scaleRates multiplies every count of responses, requests and log lines of the runs
// that pick chooses by k, in the series, the runs and wrk's figures alike; latencies and
// CPU are kept.
func scaleRates(b *qps.Bundle, k float64, pick func(r qps.RunRow) bool) {
	n := func(v int64) int64 { return int64(math.Round(float64(v) * k)) }
	o := func(v qps.Opt) qps.Opt {
		if !v.Present() {
			return v
		}
		return qps.Opt(math.Round(float64(v) * k))
	}
	chosen := map[string]bool{}
	for i := range b.Runs {
		r := &b.Runs[i]
		if !pick(*r) {
			continue
		}
		chosen[r.RunID] = true
		r.WarmupRequests, r.APIRequests = n(r.WarmupRequests), o(r.APIRequests)
		r.ConsoleLines, r.ConsoleBytes, r.ConsoleTotalLines, r.ConsoleTotalBytes = n(r.ConsoleLines), n(r.ConsoleBytes), n(r.ConsoleTotalLines), n(r.ConsoleTotalBytes)
		r.ConsoleReadLines, r.ConsoleReadBytes = o(r.ConsoleReadLines), o(r.ConsoleReadBytes)
		r.FileLines, r.FileBytes, r.FileTotalLines, r.FileTotalBytes = n(r.FileLines), n(r.FileBytes), n(r.FileTotalLines), n(r.FileTotalBytes)
		r.FileReadLines, r.FileReadBytes, r.FileTailLines, r.FileTailBytes = o(r.FileReadLines), o(r.FileReadBytes), o(r.FileTailLines), o(r.FileTailBytes)
		r.WrkRequests = o(r.WrkRequests)
		if r.WrkRequestsPerS.Present() {
			r.WrkRequestsPerS = r.WrkRequestsPerS * qps.Opt(k)
		}
	}
	sums := map[string]int64{}
	series := tabular.Of[qps.SeriesRow](b.Rows, qps.SeriesFile)
	for i := range series {
		if s := &series[i]; chosen[s.RunID] {
			s.Requests = n(s.Requests)
			sums[s.RunID] += s.Requests
		}
	}
	// The status counts are the series' responses (rule series-sum): kept in step.
	for i := range b.Runs {
		if r := &b.Runs[i]; chosen[r.RunID] {
			r.Status2xx = sums[r.RunID] - r.Non2xx
		}
	}
}

func every(qps.RunRow) bool { return true }

const qpsWrkEvery = "2026-12-01-vm/qps-wrk-every.tar.gz"

// TestQPSRatesScaledByOneFactorAreRefused: every rate of the bundle scaled by one
// factor, rows, series, conditions and wrk in step, latencies kept: 10 connections at
// 1.7 to 2 ms carry about 5,000 req/s, neither 50 nor 50,000.
func TestQPSRatesScaledByOneFactorAreRefused(t *testing.T) {
	for _, k := range []float64{0.01, 10, 1000, 1e6} {
		t.Run(strings.ReplaceAll(verify.Number(k), ".", "_"), func(t *testing.T) {
			refusedBy(t, forgeQPS(t, qpsWrkEvery, func(b *qps.Bundle) { scaleRates(b, k, every) }), verify.RuleLittle)
		})
	}
}

// TestQPSTenTimesTheRateWithItsCPUIsRefused: ten times the requests with the latencies
// kept and the API's CPU per request kept, so 9.96 cores under a limit of 1.
func TestQPSTenTimesTheRateWithItsCPUIsRefused(t *testing.T) {
	refusedBy(t, forgeQPS(t, qpsWrkEvery, func(b *qps.Bundle) {
		scaleRates(b, 10, every)
		for i := range b.Runs {
			r := &b.Runs[i]
			r.APICPUUserUs, r.APICPUSystemUs = r.APICPUUserUs*10, r.APICPUSystemUs*10
		}
	}), verify.RuleLittle, verify.RuleCPULimit)
}

// TestQPSTheFindingReversedByEditingIsRefused: node/none's rate set below console+file's
// (the seed's finding reversed) by scaling none's runs alone, every column in step. Not
// impossible in itself (another host might measure it), but an edit that keeps the
// latencies breaks Little's law.
func TestQPSTheFindingReversedByEditingIsRefused(t *testing.T) {
	var k float64
	res := forgeQPS(t, qpsWrkEvery, func(b *qps.Bundle) {
		rate := map[string]float64{}
		for _, c := range qps.ConditionsOf(b) {
			rate[c.Config] = float64(c.RequestsPerS)
		}
		k = 0.9 * rate[qps.ConsoleFile] / rate[qps.NoLog]
		scaleRates(b, k, func(r qps.RunRow) bool { return r.Config == qps.NoLog })
	})
	b, err := verify.OwnOf[qps.Bundle](res, qps.Name)
	if err != nil {
		t.Fatal(err)
	}
	rate := map[string]float64{}
	for _, c := range qps.ConditionsOf(b) {
		rate[c.Config] = float64(c.RequestsPerS)
	}
	if !(rate[qps.NoLog] < rate[qps.ConsoleFile]) {
		t.Fatalf("not reversed: none %g, console+file %g req/s", rate[qps.NoLog], rate[qps.ConsoleFile])
	}
	t.Logf("none's runs scaled by %.3f: none %.0f, console+file %.0f req/s", k, rate[qps.NoLog], rate[qps.ConsoleFile])
	refusedBy(t, res, verify.RuleLittle)
}

// TestQPSWrkColumnsDroppedAreRefused: every wrk column and datapackage.json removed, so
// that the bundle reads as an earlier kit's and its "NOT CONFIRMED by wrk" line goes,
// while its manifest still says wrk ran in all four configurations.
func TestQPSWrkColumnsDroppedAreRefused(t *testing.T) {
	f := forgery.Open(t, archived(qpsWrkEvery))
	for _, file := range []string{qps.RunsFile, qps.ConditionsFile} {
		tb := forgery.Read(t, f, file)
		var keep []int
		for i, col := range tb.Header {
			if !strings.HasPrefix(col, "wrk_") && !strings.HasPrefix(col, "runs_wrk") {
				keep = append(keep, i)
			}
		}
		if len(keep) == len(tb.Header) {
			t.Fatalf("%s has no wrk column", file)
		}
		pick := func(row []string) []string {
			out := make([]string, len(keep))
			for j, i := range keep {
				out[j] = row[i]
			}
			return out
		}
		tb.Header = pick(tb.Header)
		for i := range tb.Rows {
			tb.Rows[i] = pick(tb.Rows[i])
		}
		tb.Write(f, file)
	}
	delete(f.Data, bundle.DataPackageFile)
	forgery.Resum(f)
	res := qps.Experiment.Verify(f)
	refusedBy(t, res, verify.RuleMeasured)
}

// forgeFifo is the archived fifo-stall bundle at path with its rows changed by edit,
// every run's figures and times derived again as the kit derives them, the conditions
// again, SHA256SUMS again; and its verification.
func forgeFifo(t *testing.T, path string, edit func(b *fifostalltest.Bundle)) *verify.Result {
	t.Helper()
	f := forgery.Open(t, archived(path))
	res := fifostall.Tabular.Verify(f)
	b := fifostalltest.Of(res)
	if !res.OK() || b == nil {
		t.Fatalf("the archived bundle does not verify: %v", res.Problems)
	}
	edit(b)
	for i := range b.Runs {
		r := &b.Runs[i]
		r.Run = fifostall.RunFigures(r.Run, r.Requests, r.Containers, r.Timeline, b.Manifest.Parameters.MaxSendLagP99Ms)
		retime(r)
	}
	files, err := fifostalltest.Files(b)
	if err != nil {
		t.Fatal(err)
	}
	forgery.Rewrite(f, files)
	return fifostall.Tabular.Verify(f)
}

// retime derives a run's times from its rows as fifostall.Derive does: the last response,
// the last read, the drain between them, and the kit's overhead.
func retime(r *fifostall.Rows) {
	if r.Run.InherentS > 0 {
		r.Run.OverheadS = r.Run.WallS - r.Run.InherentS
	}
	last, read := math.Inf(-1), math.Inf(-1)
	for _, q := range r.Requests {
		if q.LatencyMs > 0 {
			last = max(last, q.ScheduledOffsetS+q.LatencyMs/1e3)
		}
	}
	for _, s := range r.Timeline {
		if s.Series == fifostall.SeriesRead {
			read = max(read, s.OffsetS)
		}
	}
	if math.IsInf(last, -1) {
		return
	}
	r.Run.ToLastResponseS = max(r.Run.LoadDurationS, last)
	if !math.IsInf(read, -1) {
		r.Run.ToLogsReadS = max(r.Run.LoadDurationS, read, last)
		r.Run.DrainS = max(0, read-last)
	}
}

const fifoPy = "2026-11-30-vm2/fifo-py.tar.gz"

func isCondition(r fifostall.RunRow, mode, reader string) bool {
	return r.Mode == mode && r.Reader == reader
}

// TestFifoLatenciesStretchedAreRefused: json-sync/slow's latencies stretched, p99 from
// 1,758.7 ms to 3,007 ms or to 17,587,343 ms: the last response then ends after the run
// did (inherent_s 10.1 s, wall_s 12.75 s).
func TestFifoLatenciesStretchedAreRefused(t *testing.T) {
	for _, k := range []float64{3007 / 1758.7, 1e4} {
		t.Run(verify.Number(math.Round(k*100)/100), func(t *testing.T) {
			res := forgeFifo(t, fifoPy, func(b *fifostalltest.Bundle) {
				for i := range b.Runs {
					if r := &b.Runs[i]; isCondition(r.Run, "json-sync", "slow") {
						for j := range r.Requests {
							r.Requests[j].LatencyMs *= k
						}
					}
				}
			})
			refusedBy(t, res, verify.RuleWallParts)
		})
	}
}

// TestFifoTheStallHiddenIsRefused: every json-sync/slow request given the phases of the
// same request of the json-sync/fast run of its round, its record generated within it:
// p99 from 1,758.7 ms to about 2 ms. The records written while the slow reader lagged
// then pile up far beyond what a blocking write into the 65,536-byte pipe holds; and
// with the reads moved up in step, to keep the pipe, the reader reads faster than its
// bound of 262,144 bytes a second.
func TestFifoTheStallHiddenIsRefused(t *testing.T) {
	for _, c := range []struct {
		name       string
		moveReads  bool
		refusingBy string
	}{{"records moved", false, verify.RuleBacklog}, {"records and reads moved", true, verify.RuleRateBound}} {
		t.Run(c.name, func(t *testing.T) {
			res := forgeFifo(t, fifoPy, func(b *fifostalltest.Bundle) { hideTheStall(b, c.moveReads) })
			b := fifostalltest.Of(res)
			for _, r := range b.Runs {
				if isCondition(r.Run, "json-sync", "slow") && !r.Run.Superseded && !(r.Run.P99Ms < 10) {
					t.Fatalf("run %s: p99 %g ms, the stall not hidden", r.Run.RunID, float64(r.Run.P99Ms))
				}
			}
			refusedBy(t, res, c.refusingBy)
		})
	}
}

// hideTheStall gives json-sync/slow's runs that count the phases of json-sync/fast's
// requests and generates each record halfway through its request; with moveReads, the
// reads end with the load, each as much earlier as the last.
func hideTheStall(b *fifostalltest.Bundle, moveReads bool) {
	fast := map[int]*fifostall.Rows{}
	for i := range b.Runs {
		if r := &b.Runs[i]; isCondition(r.Run, "json-sync", "fast") && !r.Run.Superseded {
			fast[r.Run.Round] = r
		}
	}
	for i := range b.Runs {
		r := &b.Runs[i]
		// A redone attempt counts nowhere, and was redone for its send lag, which a
		// fast run's phases would not have.
		if !isCondition(r.Run, "json-sync", "slow") || r.Run.Superseded {
			continue
		}
		f := fast[r.Run.Round]
		for j := range r.Requests {
			q, p := &r.Requests[j], f.Requests[j]
			q.SentMs, q.ConnectedMs, q.FirstByteMs, q.LatencyMs = p.SentMs, p.ConnectedMs, p.FirstByteMs, p.LatencyMs
		}
		// The k-th record generated halfway through the k-th request (rule
		// records-in-requests).
		k, lastDone, lastRead := 0, 0.0, 0.0
		for j := range r.Timeline {
			switch s := &r.Timeline[j]; s.Series {
			case fifostall.SeriesGenerated:
				q := r.Requests[k]
				s.OffsetS = q.ScheduledOffsetS + (q.SentMs+q.LatencyMs)/2e3
				lastDone = max(lastDone, q.ScheduledOffsetS+q.LatencyMs/1e3)
				k++
			case fifostall.SeriesRead:
				lastRead = max(lastRead, s.OffsetS)
			}
		}
		if moveReads {
			for j := range r.Timeline {
				if s := &r.Timeline[j]; s.Series == fifostall.SeriesRead {
					s.OffsetS *= (lastDone + 0.001) / lastRead
				}
			}
		}
	}
}

// forgeLineCost is the archived line-cost bundle with its trials changed by edit, every
// trial's checks, run and condition derived again, SHA256SUMS again; and its
// verification.
func forgeLineCost(t *testing.T, path string, edit func(b *linecost.Bundle)) *verify.Result {
	t.Helper()
	f := forgery.Open(t, archived(path))
	res := linecost.Experiment.Verify(f)
	b, err := verify.OwnOf[linecost.Bundle](res, linecost.Name)
	if err != nil || !res.OK() {
		t.Fatalf("the archived bundle does not verify: %v %v", err, res.Problems)
	}
	edit(b)
	for i := range linecost.Trials(b) {
		linecost.Trials(b)[i] = linecost.CheckTrial(linecost.Trials(b)[i])
	}
	for i, r := range b.Runs {
		var trials []linecost.TrialRow
		for _, tr := range linecost.Trials(b) {
			if tr.RunID == r.RunID {
				trials = append(trials, tr)
			}
		}
		r.Verified = false
		b.Runs[i] = linecost.FinishRun(r, trials)
	}
	files, err := b.Files()
	if err != nil {
		t.Fatal(err)
	}
	forgery.Rewrite(f, files)
	return linecost.Experiment.Verify(f)
}

// TestLineCostClocksScaledAreRefused: every clock of every trial times 0.01 (go/format
// from 1,361 ns a line to 13.6) or 100 (to 136,073 ns): a hundredth leaves CFS periods
// the trial's interval cannot hold, a hundredfold puts 298 s of trials in a 4.3 s run.
func TestLineCostClocksScaledAreRefused(t *testing.T) {
	for _, c := range []struct {
		k    float64
		rule string
	}{{0.01, verify.RuleCPULimit}, {100, verify.RuleWallParts}} {
		t.Run(verify.Number(c.k), func(t *testing.T) {
			n := func(v int64) int64 { return int64(math.Round(float64(v) * c.k)) }
			o := func(v bundle.Opt) bundle.Opt {
				if !v.Present() {
					return v
				}
				return bundle.Opt(math.Round(float64(v) * c.k))
			}
			refusedBy(t, forgeLineCost(t, "2026-11-30-vm2/lc-final.tar.gz", func(b *linecost.Bundle) {
				for i := range linecost.Trials(b) {
					tr := &linecost.Trials(b)[i]
					tr.ThreadCPUNs, tr.WallNs, tr.DrainWallNs = n(tr.ThreadCPUNs), n(tr.WallNs), n(tr.DrainWallNs)
					tr.CgroupCPUNs, tr.CgroupWallNs = o(tr.CgroupCPUNs), o(tr.CgroupWallNs)
					if tr.ThrottledMs.Present() {
						tr.ThrottledMs *= bundle.Opt(c.k)
					}
				}
			}), c.rule)
		})
	}
}

// TestImpossibleTimesAreRefusedInEveryExperiment: in an archived bundle of each
// experiment, the manifest finished 29 years before it was created, a run started in
// 1970, another in 2099, a third lasting -3600 s.
func TestImpossibleTimesAreRefusedInEveryExperiment(t *testing.T) {
	const (
		past   = "1970-01-01T00:00:00Z"
		future = "2099-01-01T00:00:00Z"
	)
	rules := []string{verify.RuleTimes, verify.RuleNonNegative}
	t.Run("fifo-stall", func(t *testing.T) {
		refusedBy(t, forgeFifo(t, fifoPy, func(b *fifostalltest.Bundle) {
			b.Manifest.FinishedUTC = b.Manifest.CreatedUTC.AddDate(-29, 0, 0)
			b.Runs[0].Run.StartedUTC, b.Runs[1].Run.StartedUTC, b.Runs[2].Run.WallS = past, future, -3600
		}), rules...)
	})
	t.Run("qps", func(t *testing.T) {
		refusedBy(t, forgeQPS(t, qpsWrkEvery, func(b *qps.Bundle) {
			b.M.Head().FinishedUTC = b.M.Head().CreatedUTC.AddDate(-29, 0, 0)
			b.Runs[0].StartedUTC, b.Runs[1].StartedUTC, b.Runs[2].WallS = past, future, -3600
		}), rules...)
	})
	t.Run("line-cost", func(t *testing.T) {
		refusedBy(t, forgeLineCost(t, "2026-11-30-vm2/lc-final.tar.gz", func(b *linecost.Bundle) {
			b.M.Head().FinishedUTC = b.M.Head().CreatedUTC.AddDate(-29, 0, 0)
			b.Runs[0].StartedUTC, b.Runs[1].StartedUTC, b.Runs[2].WallS = past, future, -3600
		}), rules...)
	})
	t.Run("your-api", func(t *testing.T) {
		f := forgery.Open(t, archived("2026-12-01-vm/your-api-stdlib.tar.gz"))
		res := yourapi.Experiment.Verify(f)
		b, err := verify.OwnOf[yourapi.Bundle](res, yourapi.Name)
		if err != nil || !res.OK() {
			t.Fatalf("the archived bundle does not verify: %v %v", err, res.Problems)
		}
		b.M.Head().FinishedUTC = b.M.Head().CreatedUTC.AddDate(-29, 0, 0)
		b.Runs[0].StartedUTC, b.Runs[1].StartedUTC, b.Runs[2].WallS = past, future, -3600
		files, err := b.Files()
		if err != nil {
			t.Fatal(err)
		}
		forgery.Rewrite(f, files)
		refusedBy(t, yourapi.Experiment.Verify(f), rules...)
	})
	t.Run("log-driver", func(t *testing.T) {
		refusedBy(t, forgeTabular(t, logdriver.Experiment, "2026-12-02-vm/log-driver.tar.gz", func(b *tabular.Bundle[*logdriver.Params, logdriver.Row]) {
			timed(b)
			b.M.Head().FinishedUTC = b.M.Head().CreatedUTC.AddDate(-29, 0, 0)
			b.Runs[0].StartedUTC, b.Runs[1].StartedUTC, b.Runs[2].WallS = past, future, -3600
		}), rules...)
	})
}

// TestTheForgeriesHelpersChangeNothingByThemselves: each forging helper, with no edit,
// writes a bundle that still verifies: the refusals above are the edits', not the
// helpers'.
func TestTheForgeriesHelpersChangeNothingByThemselves(t *testing.T) {
	if res := forgeQPS(t, qpsWrkEvery, func(*qps.Bundle) {}); !res.OK() {
		t.Errorf("qps: %v", res.Problems)
	}
	if res := forgeQPS(t, qpsWrkEvery, func(b *qps.Bundle) { scaleRates(b, 1, every) }); !res.OK() {
		t.Errorf("qps scaled by 1: %v", res.Problems)
	}
	if res := forgeFifo(t, fifoPy, func(*fifostalltest.Bundle) {}); !res.OK() {
		t.Errorf("fifo-stall: %v", res.Problems)
	}
	if res := forgeLineCost(t, "2026-11-30-vm2/lc-final.tar.gz", func(*linecost.Bundle) {}); !res.OK() {
		t.Errorf("line-cost: %v", res.Problems)
	}
	// The wrk columns are what the forgery above drops.
	f := forgery.Open(t, archived(qpsWrkEvery))
	header, err := csv.NewReader(bytes.NewReader(f.Data[qps.RunsFile])).Read()
	if err != nil || !slices.Contains(header, "wrk_requests_per_s") {
		t.Errorf("runs.csv header %v (%v)", header, err)
	}
}

// forgeTabular is the archived bundle at path of the table-driven experiment e with its
// rows changed by edit, every derived table written again (Files) and SHA256SUMS again;
// and its verification.
func forgeTabular[P experiment.Params, R any](t *testing.T, e *tabular.Experiment[P, R], path string, edit func(b *tabular.Bundle[P, R])) *verify.Result {
	t.Helper()
	f := forgery.Open(t, archived(path))
	res := e.Verify(f)
	b, err := verify.OwnOf[tabular.Bundle[P, R]](res, e.About.Name)
	if err != nil || !res.OK() {
		t.Fatalf("the archived bundle does not verify: %v %v", err, res.Problems)
	}
	edit(b)
	files, err := b.Files()
	if err != nil {
		t.Fatal(err)
	}
	forgery.Rewrite(f, files)
	return e.Verify(f)
}

// TestLatenciesOutOfOrderAreRefusedInEveryExperiment: in an archived bundle of each
// experiment whose runs state latency percentiles, one run's p99 set below its p50 and
// the seconds of a run numbered with a gap, everything derived again: the rules ordered
// and numbered, which the columns declare once (tags atleast and numbered), whatever
// the experiment. fifo-stall's and qps's own tests break them in their tables too.
func TestLatenciesOutOfOrderAreRefusedInEveryExperiment(t *testing.T) {
	t.Run("your-api", func(t *testing.T) {
		refusedBy(t, forgeTabular(t, yourapi.Experiment.Experiment, "2026-12-01-vm/your-api-stdlib.tar.gz", func(b *yourapi.Bundle) {
			b.Runs[0].LatencyP99Ms = b.Runs[0].LatencyP50Ms / 2
		}), verify.RuleOrdered)
	})
	t.Run("your-api/seconds", func(t *testing.T) {
		refusedBy(t, forgeTabular(t, yourapi.Experiment.Experiment, "2026-12-01-vm/your-api-stdlib.tar.gz", func(b *yourapi.Bundle) {
			series := tabular.Of[yourapi.SeriesRow](b.Rows, yourapi.SeriesFile)
			series[1].Second = 7
		}), verify.RuleNumbered)
	})
	t.Run("log-driver", func(t *testing.T) {
		refusedBy(t, forgeTabular(t, logdriver.Experiment, "2026-12-02-vm/log-driver.tar.gz", func(b *tabular.Bundle[*logdriver.Params, logdriver.Row]) {
			timed(b)
			b.Runs[0].LatencyMaxMs = b.Runs[0].LatencyP99Ms / 2
		}), verify.RuleOrdered)
	})
}

// TestAttemptsOutOfTurnAreRefusedInEveryExperimentThatRedoes: an experiment that redoes
// runs (Own.Retry) has its attempts held by the kit, not by a rule it must remember to
// call: a qps capacity step's only attempt renumbered 3, every figure derived again, is
// refused as fifo-stall's would be.
func TestAttemptsOutOfTurnAreRefusedInEveryExperimentThatRedoes(t *testing.T) {
	res := forgeQPS(t, "2026-12-04-vm/qps-capacity-10ms.tar.gz", func(b *qps.Bundle) { b.Runs[0].Attempt = 3 })
	if res.OK() || !slices.ContainsFunc(res.Problems, func(p verify.Problem) bool {
		return p.Column == "attempt" && strings.Contains(p.Msg, "attempts") && p.Key == "run "+"go-console_file-step1-r1-73bcf6"
	}) {
		t.Errorf("want the attempt named; have %v", res.Problems)
	}
}

// TestLogDriverLinesScaledAreRefused: every run's lines written, received and lost times
// 1000, each still the others' sum: the API prints one line a request, so the lines
// cannot outnumber the requests (rule lines-per-request).
func TestLogDriverLinesScaledAreRefused(t *testing.T) {
	refusedBy(t, forgeTabular(t, logdriver.Experiment, "2026-12-02-vm/log-driver.tar.gz", func(b *tabular.Bundle[*logdriver.Params, logdriver.Row]) {
		timed(b)
		for i := range b.Runs {
			r := &b.Runs[i]
			r.LinesWritten, r.LinesReceived, r.LinesLost = r.LinesWritten*1000, r.LinesReceived*1000, r.LinesLost*1000
		}
	}), logdriver.RuleLines)
}

// TestLogDriverCPUBeyondItsLimitIsRefused: every run's API given ten times its CPU,
// past its limit of 0.5 cores.
func TestLogDriverCPUBeyondItsLimitIsRefused(t *testing.T) {
	refusedBy(t, forgeTabular(t, logdriver.Experiment, "2026-12-02-vm/log-driver.tar.gz", func(b *tabular.Bundle[*logdriver.Params, logdriver.Row]) {
		timed(b)
		for i := range b.Runs {
			b.Runs[i].APICPUCores *= 10
		}
	}), verify.RuleCPULimit)
}

// TestYourAPISecondsThatAreNotItsResponsesAreRefused: a hundred responses more in one
// second of a run, its rates derived again from its seconds, and none more in its
// status counts: the seconds and the statuses are one set of responses (rule
// series-sum), as in qps.
func TestYourAPISecondsThatAreNotItsResponsesAreRefused(t *testing.T) {
	refusedBy(t, forgeTabular(t, yourapi.Experiment.Experiment, "2026-12-01-vm/your-api-stdlib.tar.gz", func(b *yourapi.Bundle) {
		series := tabular.Of[yourapi.SeriesRow](b.Rows, yourapi.SeriesFile)
		series[0].Requests += 100
		r := &b.Runs[0]
		*r = yourapi.DeriveRun(*r, tabular.ByRun(series)[r.RunID], *b.Params())
	}), httpload.RuleSeriesSum)
}

// timed gives the runs of the archived log-driver bundle, written before runs recorded
// when they started and how long they took, the times this kit writes (a bundle it
// rewrites has them): one after the other from the manifest's creation, each as long as
// its load and drain and a second more, as a run could have taken.
func timed(b *tabular.Bundle[*logdriver.Params, logdriver.Row]) {
	at := b.M.Head().CreatedUTC
	for i := range b.Runs {
		r := &b.Runs[i]
		r.WallS = b.Params().DurationS + r.DrainS.Or(0) + 1
		r.StartedUTC = at.Format(time.RFC3339Nano)
		at = at.Add(time.Duration(r.WallS*float64(time.Second)) + time.Second)
	}
}
