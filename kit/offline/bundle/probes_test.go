package bundle

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestDeriveProbesAsByHand: speeds and request paths, each the mean of before and
// after (either alone), each relative to the bundle's median, a run drifted when either
// is more than 10% off, and the manifest's summary of them, against figures worked out
// by hand.
func TestDeriveProbesAsByHand(t *testing.T) {
	row := func(id string, mb [2]Opt, cpu [2]Opt, ns [2]Opt) ProbeRow {
		return NewProbeRow(id, "c", ProbeReading{mb[0], 1000, cpu[0], ns[0]}, ProbeReading{mb[1], 2000, cpu[1], ns[1]})
	}
	rows := []ProbeRow{
		row("a", [2]Opt{100, 120}, [2]Opt{50, 70}, [2]Opt{400, 600}),     // 110 MB/s, 60 µs, 500 ns
		row("b", [2]Opt{110, None}, [2]Opt{40, None}, [2]Opt{300, None}), // 110, 40, 300
		row("c", [2]Opt{None, 90}, [2]Opt{None, None}, [2]Opt{None, None}),
		row("d", [2]Opt{None, None}, [2]Opt{None, None}, [2]Opt{None, None}),
		row("e", [2]Opt{110, 110}, [2]Opt{50, 50}, [2]Opt{400, 400}),
	}
	have, sum := DeriveProbes(rows, "k", "rk")
	// Speeds 110, 110, 90, 110: median 110. Request CPU 60, 40, 50: median 50.
	want := []struct {
		speed, rel, cpu, relPath Opt
		drifted                  bool
	}{
		{110, 1, 60, Opt(50.0 / 60), true}, // its request path 17% slower
		{110, 1, 40, 1.25, true},           // 25% faster
		{90, Opt(90.0 / 110), None, None, true},
		{None, None, None, None, false},
		{110, 1, 50, 1, false},
	}
	same := func(a, b Opt) bool {
		return a == b || (math.IsNaN(float64(a)) && math.IsNaN(float64(b))) || math.Abs(float64(a-b)) < 1e-12
	}
	for i, w := range want {
		h := have[i]
		if !same(h.SpeedMBPerS, w.speed) || !same(h.Relative, w.rel) || !same(h.RequestCPUUs, w.cpu) || !same(h.RelativeRequestPath, w.relPath) || h.Drifted != w.drifted {
			t.Errorf("row %s: speed %v relative %v, request %v µs relative %v, drifted %v; want %+v", h.RunID, h.SpeedMBPerS, h.Relative, h.RequestCPUUs, h.RelativeRequestPath, h.Drifted, w)
		}
		if h.BeforeReqPerS != 1000 || h.AfterReqPerS != 2000 {
			t.Errorf("row %s: the wall-time rates are the probes' own, not derived: %v, %v", h.RunID, h.BeforeReqPerS, h.AfterReqPerS)
		}
	}
	wantSum := &ProbeSummary{Kernel: "k", Runs: 4, MedianMBPerS: 110, MinMBPerS: 90, MaxMBPerS: 110, Drifted: 3,
		// Writes 500, 300, 400 ns: median 400.
		RequestPath: &RequestPathSummary{Kernel: "rk", Runs: 3, MedianCPUUs: 50, MinCPUUs: 40, MaxCPUUs: 60, MedianSyscallNs: 400, Drifted: 2}}
	if d := cmp.Diff(wantSum, sum); d != "" {
		t.Errorf("summary (-want +have):\n%s", d)
	}
	if !SpeedDrifted(have[2]) || SpeedDrifted(have[0]) || !RequestPathDrifted(have[0]) || RequestPathDrifted(have[2]) {
		t.Error("the two drifts are not told apart")
	}
}

// TestDeriveProbesOfAnEarlierTable: rows without the request path (a bundle written
// before the kit probed it) derive as they always did, and sum up with no request path.
func TestDeriveProbesOfAnEarlierTable(t *testing.T) {
	earlier := func(id string, b, a Opt) ProbeRow {
		r := NewProbeRow(id, "c", NoProbe, NoProbe)
		r.BeforeMBPerS, r.AfterMBPerS = b, a
		return r
	}
	have, sum := DeriveProbes([]ProbeRow{earlier("a", 100, 100), earlier("b", 100, 140)}, "k", "rk")
	if sum == nil || sum.RequestPath != nil || sum.Runs != 2 || sum.MedianMBPerS != 110 || sum.Drifted != 0 {
		t.Fatalf("summary %+v", sum)
	}
	if float64(have[0].Relative) != 100.0/110 || have[0].RequestCPUUs.Present() || have[0].RelativeRequestPath.Present() || have[1].Drifted {
		t.Errorf("%+v", have)
	}
	if _, none := DeriveProbes([]ProbeRow{earlier("a", None, None)}, "k", "rk"); none != nil {
		t.Errorf("no probe ran, and a summary: %+v", none)
	}
}

// TestProbeColumnsRoundTrip: probes.csv writes the request path's columns and reads
// them back, and RequestPathColumns names every one of them.
func TestProbeColumnsRoundTrip(t *testing.T) {
	rows, _ := DeriveProbes([]ProbeRow{NewProbeRow("a", "c", ProbeReading{1500, 7000, 55.5, 410}, ProbeReading{1600, 7100, 56.5, 420})}, "", "")
	body, err := EncodeProbes(rows)
	if err != nil {
		t.Fatal(err)
	}
	d := DecodeCSV[ProbeRow](ProbeFile, body, 1)
	if len(d.Errs) > 0 || len(d.Missing) > 0 {
		t.Fatalf("%v, missing %v", d.Errs, d.Missing)
	}
	if diff := cmp.Diff(rows, d.Rows, cmpopts.EquateNaNs()); diff != "" {
		t.Errorf("(-written +read):\n%s", diff)
	}
	header, _, _ := strings.Cut(string(body), "\n")
	for _, col := range RequestPathColumns {
		if !slices.Contains(strings.Split(header, ","), col) {
			t.Errorf("%s is no column of probes.csv (%s)", col, header)
		}
	}
}
