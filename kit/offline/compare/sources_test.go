package compare

import (
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// probedSide is a bundle side of one condition whose runs' req/s are rates, with the
// speed probe's medians mbPerS and requestUs (0: none recorded).
func probedSide(label string, mbPerS, requestUs float64, rates ...float64) Side {
	c := &bundle.Common{Complete: true}
	if mbPerS > 0 {
		c.SpeedProbe = &bundle.ProbeSummary{Runs: 3, MedianMBPerS: mbPerS, MinMBPerS: mbPerS, MaxMBPerS: mbPerS}
		if requestUs > 0 {
			c.SpeedProbe.RequestPath = &bundle.RequestPathSummary{Runs: 3, MedianCPUUs: requestUs, MinCPUUs: requestUs, MaxCPUUs: requestUs, MedianSyscallNs: 400}
		}
	}
	var runs [][]float64
	for _, r := range rates {
		runs = append(runs, []float64{r})
	}
	return Side{Label: label, Common: c, Manifest: c,
		Rows: []Row{Measured([]KV{{"config", "none"}}, "req_per_s", "req/s", Mean{}, runs)}}
}

// TestCompareWarnsOfAnotherRequestPath: two bundles whose request-path probes' medians
// are more than 10% apart are warned of, with the counted changes no larger than that,
// even where their SHA-256 speeds are the same; closer, or a side without
// a request path (an earlier kit's bundle), no warning.
func TestCompareWarnsOfAnotherRequestPath(t *testing.T) {
	for _, tc := range []struct {
		name    string
		b       Side
		warning string // "" for none
	}{
		{"25% more CPU a request", probedSide("b", 1600, 125, 800, 810, 790), // 100/125: the path at 0.8 the speed; the rate -20%: counted, and within
			"WARNING: b's request path is -20.0% the speed of a's (request-path probe medians, 125.0 against 100.0 µs of CPU a loopback request), more than 10% apart: 1 counted changes are no larger than that, and may be the host's, not the logger's"},
		{"20% less CPU a request", probedSide("b", 1600, 80, 1000, 1010, 990),
			"WARNING: b's request path is +25.0% the speed of a's (request-path probe medians, 80.0 against 100.0 µs of CPU a loopback request), more than 10% apart: 0 counted changes are no larger than that, and may be the host's, not the logger's"},
		{"5% apart", probedSide("b", 1600, 95, 1000, 1010, 990), ""},
		{"an earlier kit's bundle", probedSide("b", 1600, 0, 800, 810, 790), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Sides: []Side{probedSide("a", 1600, 100, 1000, 1010, 990), tc.b}}
			_, notes, err := Run(in, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var have []string
			for _, w := range notes.Warnings {
				if strings.Contains(w, "request path") {
					have = append(have, w)
				}
				if strings.Contains(w, "speed_probe") {
					t.Errorf("the probe's summary warned of as a manifest field: %s", w)
				}
			}
			switch {
			case tc.warning == "" && len(have) > 0:
				t.Errorf("warned: %q", have)
			case tc.warning != "" && (len(have) != 1 || have[0] != tc.warning):
				t.Errorf("warnings %q\nwant %q", have, tc.warning)
			}
		})
	}
}

// TestTheHostsTableShowsTheRequestPath: the speed row names the request path where
// the bundle has one, and is as it was where it has none.
func TestTheHostsTableShowsTheRequestPath(t *testing.T) {
	speed := func(s Side) string {
		for _, kv := range HostOf(s.Common) {
			if kv.Key == "speed" {
				return kv.Value
			}
		}
		return ""
	}
	if have, want := speed(probedSide("a", 1600, 100.25)), "1600 MB/s probe (1600-1600); request path 100.2 µs CPU (100.2-100.2), write 400 ns"; have != want {
		t.Errorf("have %q, want %q", have, want)
	}
	if have, want := speed(probedSide("a", 1600, 0)), "1600 MB/s probe (1600-1600)"; have != want {
		t.Errorf("have %q, want %q", have, want)
	}
}
