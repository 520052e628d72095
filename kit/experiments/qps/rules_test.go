package qps

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/forgery"
	"github.com/logbench/logbench/kit/offline/verify"
)

// forged is the archived qps-final bundle with its rows changed by edit, every derived
// column and condition recomputed in step and SHA256SUMS written again: what a careful
// forger makes, which only a rule of what can happen can refuse.
func forged(t *testing.T, edit func(b *Bundle)) []string {
	t.Helper()
	f := forgery.Open(t, filepath.Join("..", "..", "..", "results", "2026-11-30-vm2", "qps-final.tar.gz"))
	res := Experiment.Verify(f)
	b, _ := verify.OwnOf[Bundle](res, Name)
	if !res.OK() {
		t.Fatalf("the archived bundle does not verify: %v", res.Problems)
	}
	edit(b)
	for i, r := range b.Runs {
		var series []SeriesRow
		for _, s := range seriesOf(b) {
			if s.RunID == r.RunID {
				series = append(series, s)
			}
		}
		b.Runs[i] = DeriveRun(r, series, b.Params().NonBlocking)
	}
	files, err := b.Files()
	if err != nil {
		t.Fatal(err)
	}
	forgery.Rewrite(f, files)
	res = Experiment.Verify(f)
	var problems []string
	for _, p := range res.Problems {
		problems = append(problems, p.String())
	}
	return problems
}

// TestEveryRuleRefusesItsForgery breaks each rule once and wants verify to refuse the
// bundle with that rule alone, naming file, line and column.
func TestEveryRuleRefusesItsForgery(t *testing.T) {
	const run = 0 // node-console_file-r1-685154: 13284 responses, 13295 requests and lines at the API
	// 100 responses more in one second: within what the run's connections and latencies
	// allow (Little's law), so that the rule under test alone refuses it.
	more := func(b *Bundle) {
		for i, s := range seriesOf(b) {
			if s.RunID == b.Runs[run].RunID {
				seriesOf(b)[i].Requests += 100
				return
			}
		}
	}
	if p := forged(t, func(b *Bundle) {}); len(p) != 0 {
		t.Fatalf("the bundle written again does not verify: %v", p)
	}
	for _, tc := range []struct {
		rule, want string
		edit       func(b *Bundle)
	}{
		// The series 100 responses over status_2xx 13,284 and 13,295 log lines.
		{RuleSeriesSum, "runs.csv line 2 (run node-console_file-r1-685154): status_2xx: have 13284, want 13384", more},
		// ... and status_2xx with it: the API served 79 fewer than the 10 in flight allow.
		{RuleResponsesServed, "runs.csv line 2 (run node-console_file-r1-685154): api_requests: have 13295, want at least 13374", func(b *Bundle) {
			more(b)
			b.Runs[run].Status2xx += 100
		}},
		// wrk counted 990 answers the API never gave.
		{RuleResponsesServed, "runs.csv line 2 (run node-console_file-r1-685154): wrk_api_requests: have 4010, want 5000 to 5010", func(b *Bundle) {
			b.Runs[run].WrkRequests, b.Runs[run].WrkAPIRequests = 5000, 4010
		}},
		{RuleLines, "runs.csv line 2 (run node-console_file-r1-685154): file_lines_written: have 13000, want 13295", func(b *Bundle) {
			b.Runs[run].FileLines, b.Runs[run].FileTailLines = 13000, 13000
		}},
		// p99_ms below its p50.
		{verify.RuleOrdered, "runs.csv line 2 (run node-console_file-r1-685154): p99_ms: have 3, want at least 5.571251", func(b *Bundle) {
			b.Runs[run].LatencyP99Ms = 3
		}},
		{verify.RuleNonNegative, "runs.csv line 2 (run node-console_file-r1-685154): api_cpu_system_us: have -722889, want 0 or more", func(b *Bundle) {
			b.Runs[run].APICPUSystemUs = -b.Runs[run].APICPUSystemUs
		}},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			p := forged(t, tc.edit)
			if len(p) != 1 || !strings.HasPrefix(p[0], tc.want) || !strings.Contains(p[0], "rule "+tc.rule+":") {
				t.Fatalf("want one problem %q naming rule %s; have %q", tc.want, tc.rule, p)
			}
			t.Log(p[0])
		})
	}
}
