package fifostall

import (
	"math"
	"testing"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment/tabular"
)

// runOf makes a verified run whose request latencies are lat (ms).
func runOf(id string, lat []float64, toA, toB, drain float64) Rows {
	r := Rows{Run: RunRow{RunID: id, API: "go", Mode: "json-queue", Reader: "slow", Verified: true, Requests: len(lat),
		ToLastResponseS: toA, ToLogsReadS: toB, DrainS: drain, LoadDurationS: 8}}
	for i, l := range lat {
		r.Requests = append(r.Requests, RequestRow{RunID: id, Seq: int64(i), LatencyMs: l})
	}
	return r
}

// deriveOf are the conditions of runs, each with its own rows, as DeriveConditions
// derives them from the runs and the per-run tables.
func deriveOf(runs []Rows, params Params) []ConditionRow {
	var rs []RunRow
	var reqs []RequestRow
	var cts []ContainerRow
	for _, r := range runs {
		rs, reqs, cts = append(rs, r.Run), append(reqs, r.Requests...), append(cts, r.Containers...)
	}
	return DeriveConditions(rs, tabular.Rows{RequestsFile: reqs, ContainersFile: cts}, params)
}

func TestConditionsPoolRequestsAndSumThroughputs(t *testing.T) {
	// Run a: 100 requests of 1..100 ms; run b: 100 requests of 101..200 ms.
	// A failed run c must not count.
	var a, b []float64
	for i := 1; i <= 100; i++ {
		a, b = append(a, float64(i)), append(b, float64(100+i))
	}
	ra, rb := runOf("a", a, 8, 10, 2), runOf("b", b, 10, 12, 1)
	ra.Run.P99Ms, rb.Run.P99Ms = 99, 199
	rc := runOf("c", []float64{5000}, 1, 1, 0)
	rc.Run.Verified, rc.Run.P99Ms = false, 5000
	params := Params{RateRPS: 20, DurationS: 8, ReaderBounds: map[string]int64{"slow": 256 << 10, "fast": 0}}
	conds := deriveOf([]Rows{ra, rb, rc}, params)
	if len(conds) != 1 {
		t.Fatalf("%d conditions", len(conds))
	}
	c := conds[0]
	// Pooled 200 latencies 1..200: element ceil(198) = 198. The per-run range is 99..199.
	checks := []struct {
		name       string
		have, want float64
	}{
		{"runs", float64(c.Runs), 3},
		{"runs_verified", float64(c.RunsVerified), 2},
		{"requests", float64(c.Requests), 200},
		{"p99_ms", float64(c.P99Ms), 198},
		{"p99_run_min_ms", float64(c.P99RunMinMs), 99},
		{"p99_run_max_ms", float64(c.P99RunMaxMs), 199},
		{"p50_ms", float64(c.P50Ms), 100},
		// 200 requests over 8+10 s and over 10+12 s: summed before dividing.
		{"rps_to_last_response", float64(c.RPSToLastResponse), 200.0 / 18},
		{"rps_to_logs_read", float64(c.RPSToLogsRead), 200.0 / 22},
		{"drain_s", float64(c.DrainS), 1.5},
		{"drain_min_s", float64(c.DrainMinS), 1},
		// The model: 160 requests of 16 KiB read at 256 KiB/s.
		{"predicted_rps_to_logs_read", float64(c.PredictedRPSToLogsRead), 16},
		{"predicted_drain_s", float64(c.PredictedDrainS), 2.05},
	}
	for _, ck := range checks {
		if math.Abs(ck.have-ck.want) > 1e-9 {
			t.Errorf("%s = %v, want %v", ck.name, ck.have, ck.want)
		}
	}
}

func TestAConditionWithNoVerifiedRunHasNoFigures(t *testing.T) {
	r := runOf("x", []float64{3}, 8, 8, 0)
	r.Run.Verified = false
	c := deriveOf([]Rows{r}, Params{RateRPS: 20, DurationS: 8})[0]
	if c.RunsVerified != 0 || !math.IsNaN(float64(c.P99Ms)) || !math.IsNaN(float64(c.RPSToLastResponse)) {
		t.Fatalf("condition %+v", c)
	}
	if s, _ := c.P99Ms.MarshalCSV(); s != "" {
		t.Fatalf("absent p99 written as %q", s)
	}
}

// TestTrustRules: a superseded run is in no figure; runs_trusted counts the verified
// runs within the lag bound; p99_resolved asks for ResolutionFactor x the lag.
func TestTrustRules(t *testing.T) {
	lat := func(v float64) []float64 {
		out := make([]float64, 100)
		for i := range out {
			out[i] = v
		}
		return out
	}
	trusted := runOf("a", lat(10), 8, 8, 0)
	trusted.Run.SendLagTrusted, trusted.Run.SendLagP99Ms = true, 0.1
	untrusted := runOf("b", lat(10), 8, 8, 0)
	untrusted.Run.SendLagP99Ms, untrusted.Run.HostNoisy = 2.5, true
	redone := runOf("c", lat(900), 8, 8, 0)
	redone.Run.Superseded, redone.Run.SendLagP99Ms = true, 40
	params := Params{RateRPS: 20, DurationS: 8}
	c := deriveOf([]Rows{redone, trusted, untrusted}, params)[0]
	if c.Runs != 2 || c.RunsVerified != 2 || c.RunsTrusted != 1 || c.RunsSuperseded != 1 || c.RunsNoisy != 1 || c.Requests != 200 {
		t.Fatalf("counts %+v", c)
	}
	if c.P99Ms != 10 || c.SendLagP99MaxMs != 2.5 || c.P99Resolved {
		t.Fatalf("p99 %v, lag %v, resolved %v: the superseded run's 900 ms must not count, and 10 ms < 5 x 2.5 ms", c.P99Ms, c.SendLagP99MaxMs, c.P99Resolved)
	}
	c = deriveOf([]Rows{trusted}, params)[0]
	if !c.P99Resolved {
		t.Fatalf("10 ms with 0.1 ms of lag is resolved")
	}
	for _, tc := range []struct {
		fig, lag float64
		want     bool
	}{{5, 1, true}, {4.99, 1, false}, {math.NaN(), 1, false}, {5, math.NaN(), false}} {
		if Resolved(tc.fig, tc.lag) != tc.want {
			t.Errorf("Resolved(%v, %v) != %v", tc.fig, tc.lag, tc.want)
		}
	}
	if HostNoisy(math.NaN(), math.NaN()) || !HostNoisy(NoisyStealPct+0.1, math.NaN()) || !HostNoisy(0, NoisyCPUPressurePct+0.1) || HostNoisy(NoisyStealPct, NoisyCPUPressurePct) {
		t.Fatal("HostNoisy: past either threshold, absent figures are not noise")
	}
}

func TestHostNoiseOverARun(t *testing.T) {
	s := []contract.HostSample{
		{UnixNano: 1e9, StealPct: 2, CPUPressure: &contract.PSISomeLine{TotalUs: 1_000_000}},
		{UnixNano: 2e9, StealPct: 4, CPUPressure: &contract.PSISomeLine{TotalUs: 1_100_000}},
		{UnixNano: 3e9, StealPct: 6, CPUPressure: &contract.PSISomeLine{TotalUs: 1_500_000}},
	}
	steal, pressure := HostNoise(s)
	// 0.5 s stalled over 2 s of wall time.
	if steal != 4 || pressure != 25 {
		t.Fatalf("steal %v, pressure %v", steal, pressure)
	}
	s[0].CPUPressure = nil
	if _, pressure := HostNoise(s); !math.IsNaN(float64(pressure)) {
		t.Fatalf("no PSI: %v", pressure)
	}
}
