package httpload

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
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
