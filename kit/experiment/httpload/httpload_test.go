package httpload

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/report"
)

// same compares figures as a bundle writes them: an absent one (NaN) equals an absent
// one.
var same = cmp.Comparer(func(a, b bundle.Opt) bool { return a == b || !a.Present() && !b.Present() })

// TestTheLoadIsReadAsMeasured: each loop's figures, latencies absent without a
// response, a send lag only where the open loop scheduled, a net latency only where the
// generator reported one.
func TestTheLoadIsReadAsMeasured(t *testing.T) {
	closed := contract.ClosedLoopResult{MeasuredS: 5, Status2xx: 90, Non2xx: 10, Errors: 2, GeneratorCPUS: 0.5,
		LatencyMeanMs: 1, LatencyP50Ms: 0.9, LatencyP90Ms: 1.5, LatencyP99Ms: 3, LatencyMaxMs: 9}
	open := contract.OpenLoopResult{DurationS: 4, Scheduled: 400, Status2xx: 400, GeneratorCPUS: 0.2, SendLagP99Ms: 0.3, NetLatencyP99Ms: 2,
		LatencyMeanMs: 1, LatencyP50Ms: 0.9, LatencyP90Ms: 1.5, LatencyP99Ms: 2.2, LatencyMaxMs: 8}
	for _, tc := range []struct {
		name string
		read func(m *Measured)
		want Measured
	}{
		{"nothing", func(*Measured) {}, Measured{LatencyMeanMs: bundle.None, LatencyP50Ms: bundle.None, LatencyP90Ms: bundle.None, LatencyP99Ms: bundle.None,
			LatencyMaxMs: bundle.None, SendLagP99Ms: bundle.None, NetP99Ms: bundle.None}},
		{"closed", func(m *Measured) { m.Closed(closed) }, Measured{MeasuredS: 5, Status2xx: 90, Non2xx: 10, Errors: 2, GeneratorCPUS: 0.5,
			LatencyMeanMs: 1, LatencyP50Ms: 0.9, LatencyP90Ms: 1.5, LatencyP99Ms: 3, LatencyMaxMs: 9, SendLagP99Ms: bundle.None, NetP99Ms: bundle.None}},
		{"closed without a response", func(m *Measured) { m.Closed(contract.ClosedLoopResult{MeasuredS: 5, Errors: 7}) }, Measured{MeasuredS: 5, Errors: 7,
			LatencyMeanMs: bundle.None, LatencyP50Ms: bundle.None, LatencyP90Ms: bundle.None, LatencyP99Ms: bundle.None, LatencyMaxMs: bundle.None,
			SendLagP99Ms: bundle.None, NetP99Ms: bundle.None}},
		{"open", func(m *Measured) { m.Open(open) }, Measured{MeasuredS: 4, Status2xx: 400, GeneratorCPUS: 0.2,
			LatencyMeanMs: 1, LatencyP50Ms: 0.9, LatencyP90Ms: 1.5, LatencyP99Ms: 2.2, LatencyMaxMs: 8, SendLagP99Ms: 0.3, NetP99Ms: 2}},
		{"open of an earlier generator, nothing scheduled", func(m *Measured) {
			o := open
			o.Scheduled, o.NetLatencyP99Ms = 0, 0
			m.Open(o)
		}, Measured{MeasuredS: 4, Status2xx: 400, GeneratorCPUS: 0.2,
			LatencyMeanMs: 1, LatencyP50Ms: 0.9, LatencyP90Ms: 1.5, LatencyP99Ms: 2.2, LatencyMaxMs: 8, SendLagP99Ms: bundle.None, NetP99Ms: bundle.None}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			have := Unmeasured()
			tc.read(&have)
			if d := cmp.Diff(tc.want, have, same); d != "" {
				t.Errorf("-want +have:\n%s", d)
			}
		})
	}
}

// TestTheRatesAreTheSeconds: the responses are the series' sum, the rate autocannon
// reports the mean of the whole seconds (the interval's own when it has none), and
// without an interval there is no rate.
func TestTheRatesAreTheSeconds(t *testing.T) {
	series := []tabular.SecondRow{{Requests: 100}, {Requests: 200}, {Requests: 30}}
	for _, tc := range []struct {
		name      string
		measuredS float64
		want      Rates
		whole     int
	}{
		{"whole and a part", 2.5, Rates{Requests: 330, RequestsPerS: 150, RequestsPerSOver: 132}, 2},
		{"a hair short of a whole second", 2.9999999999, Rates{Requests: 330, RequestsPerS: 110, RequestsPerSOver: bundle.Opt(330 / 2.9999999999)}, 3},
		{"under a second", 0.5, Rates{Requests: 330, RequestsPerS: 660, RequestsPerSOver: 660}, 0},
		{"no interval", 0, Rates{Requests: 330, RequestsPerS: bundle.None, RequestsPerSOver: bundle.None}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var have Rates
			whole := have.Derive(tc.measuredS, series)
			if d := cmp.Diff(tc.want, have, same); d != "" || len(whole) != tc.whole {
				t.Errorf("%d whole seconds, want %d; -want +have:\n%s", len(whole), tc.whole, d)
			}
		})
	}
	if n := WholeSeconds(-1, 3); n != 0 {
		t.Errorf("WholeSeconds(-1, 3) = %d, want 0", n)
	}
}

// TestTheLatencyFiguresArePercentilesInOrder: a chart each of p50, p90, p99 and max,
// in that order, each drawn from its own column of the load.
func TestTheLatencyFiguresArePercentilesInOrder(t *testing.T) {
	m := Measured{LatencyP50Ms: 1, LatencyP90Ms: 2, LatencyP99Ms: 3, LatencyMaxMs: 4}
	var read []float64
	figs := latencyFigures([]string{"none"}, func(of func(Measured) float64) *report.Grouped {
		read = append(read, of(m))
		return &report.Grouped{Series: []report.Series{{Name: "b", Values: []report.Value{report.OverRuns([]float64{of(m)})}}}}
	})
	var titles []string
	for _, f := range figs {
		if f.Err != "" {
			t.Errorf("%s: %s", f.Title, f.Err)
		}
		titles = append(titles, f.Title)
	}
	if d := cmp.Diff([]string{"Latency p50", "Latency p90", "Latency p99", "Latency max"}, titles); d != "" {
		t.Errorf("titles -want +have:\n%s", d)
	}
	if d := cmp.Diff([]float64{1, 2, 3, 4}, read); d != "" {
		t.Errorf("figures read -want +have:\n%s", d)
	}
}

// TestTheHostIsReadOrMissing: a sample is read with its CPUs, a count of 0 is none,
// and without a sample both are missing.
func TestTheHostIsReadOrMissing(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    *contract.HostSample
		cpus int
		want Host
	}{
		{"sampled", &contract.HostSample{CPUBusyPct: 42}, 4, Host{HostBusyPct: 42, HostCPUs: 4}},
		{"not counted", &contract.HostSample{CPUBusyPct: 42}, 0, Host{HostBusyPct: 42, HostCPUs: bundle.None}},
		{"not sampled", nil, 4, Host{HostBusyPct: bundle.None, HostCPUs: bundle.None}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, HostOf(tc.h, tc.cpus), same); d != "" {
				t.Errorf("-want +have:\n%s", d)
			}
		})
	}
}

// TestAConditionPoolsItsRunsMeans: the rate's mean and interval over the runs, each
// latency's mean over the runs that have it; nothing to pool is missing.
func TestAConditionPoolsItsRunsMeans(t *testing.T) {
	type run struct {
		rps, p50, p99 bundle.Opt
	}
	of := func(r run) (Rates, Measured) {
		return Rates{RequestsPerS: r.rps}, Measured{LatencyP50Ms: r.p50, LatencyP99Ms: r.p99}
	}
	have := Pool([]run{{100, 1, 4}, {200, 3, bundle.None}, {300, bundle.None, 8}}, of)
	_, low, high := bundle.MeanCI([]float64{100, 200, 300})
	want := Pooled{RequestsPerS: 200, RequestsPerSCILow: low, RequestsPerSCIHigh: high, LatencyP50Ms: 2, LatencyP99Ms: 6}
	if d := cmp.Diff(want, have, same); d != "" {
		t.Errorf("-want +have:\n%s", d)
	}
	if d := cmp.Diff(Pooled{RequestsPerS: bundle.None, RequestsPerSCILow: bundle.None, RequestsPerSCIHigh: bundle.None,
		LatencyP50Ms: bundle.None, LatencyP99Ms: bundle.None}, Pool[run](nil, of), same); d != "" {
		t.Errorf("no runs: -want +have:\n%s", d)
	}
}

// TestALoopStartedAndItsSeconds: a run started when either loop began its measured
// load, and its seconds are the open loop's when it has one.
func TestALoopStartedAndItsSeconds(t *testing.T) {
	closed := &contract.ClosedLoopResult{StartUnixNs: 1, RequestsPerSecond: []int64{1, 2}}
	open := &contract.OpenLoopResult{StartUnixNs: 2, RequestsPerSecond: []int64{3}}
	for _, tc := range []struct {
		name    string
		loops   Loops
		started bool
		seconds []int64
	}{
		{"none", Loops{}, false, nil},
		{"closed", Loops{Closed: closed}, true, []int64{1, 2}},
		{"closed, never started", Loops{Closed: &contract.ClosedLoopResult{}}, false, nil},
		{"open in place of the closed", Loops{Closed: &contract.ClosedLoopResult{}, Open: open}, true, []int64{3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if have := tc.loops.Started(); have != tc.started {
				t.Errorf("Started = %v, want %v", have, tc.started)
			}
			if d := cmp.Diff(tc.seconds, tc.loops.Seconds()); d != "" {
				t.Errorf("seconds -want +have:\n%s", d)
			}
		})
	}
}
