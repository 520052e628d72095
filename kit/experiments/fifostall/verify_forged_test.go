package fifostall_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/fifostalltest"
	"github.com/logbench/logbench/internal/forgery"
	"github.com/logbench/logbench/kit/experiments/fifostall"
	"github.com/logbench/logbench/kit/offline/verify"
)

// forged is the archived fifo-py bundle with its rows changed by edit, every run's
// figures and every condition derived again in step and SHA256SUMS written again: the
// consistent forgeries of raw rows that verify once let pass.
func forged(t *testing.T, edit func(b *fifostalltest.Bundle)) []string {
	t.Helper()
	f := forgery.Open(t, filepath.Join("..", "..", "..", "results", "2026-11-30-vm2", "fifo-py.tar.gz"))
	res := fifostall.Tabular.Verify(f)
	b := fifostalltest.Of(res)
	if !res.OK() || b == nil {
		t.Fatalf("the archived bundle does not verify: %v", res.Problems)
	}
	edit(b)
	for i, r := range b.Runs {
		b.Runs[i].Run = fifostall.RunFigures(r.Run, r.Requests, r.Containers, r.Timeline, b.Manifest.Parameters.MaxSendLagP99Ms)
	}
	files, err := fifostalltest.Files(b)
	if err != nil {
		t.Fatal(err)
	}
	forgery.Rewrite(f, files)
	var out []string
	for _, p := range fifostall.Tabular.Verify(f).Problems {
		out = append(out, p.String())
	}
	return out
}

func runOf(t *testing.T, b *fifostalltest.Bundle, id string) *fifostall.Rows {
	t.Helper()
	for i := range b.Runs {
		if b.Runs[i].Run.RunID == id {
			return &b.Runs[i]
		}
	}
	t.Fatalf("no run %s", id)
	return nil
}

// TestConsistentForgeriesOfRawRowsAreRefused: the forgeries of raw rows, with
// everything derived from them written again, are refused by the rules of what can
// happen, each rule named.
func TestConsistentForgeriesOfRawRowsAreRefused(t *testing.T) {
	if p := forged(t, func(b *fifostalltest.Bundle) {}); len(p) != 0 {
		t.Fatalf("the bundle written again does not verify: %v", p)
	}
	for _, tc := range []struct {
		name  string
		edit  func(b *fifostalltest.Bundle)
		rules []string
	}{
		// Latencies divided by 1000: the headline p99 from 1,758 ms to 1.76 ms.
		{"latencies divided by 1000", func(b *fifostalltest.Bundle) {
			for i := range b.Runs {
				for j := range b.Runs[i].Requests {
					q := &b.Runs[i].Requests[j]
					q.FirstByteMs, q.LatencyMs = q.FirstByteMs/1000, q.LatencyMs/1000
				}
			}
		}, []string{verify.RuleOrdered, fifostall.RuleTimes, fifostall.RuleRecords}}, // the last response moves
		// Every phase divided by 1000, so that they stay in order: the responses now end
		// before the API generated their records.
		{"every phase divided by 1000", func(b *fifostalltest.Bundle) {
			for i := range b.Runs {
				for j := range b.Runs[i].Requests {
					q := &b.Runs[i].Requests[j]
					q.SentMs, q.ConnectedMs, q.FirstByteMs, q.LatencyMs = q.SentMs/1000, q.ConnectedMs/1000, q.FirstByteMs/1000, q.LatencyMs/1000
				}
			}
		}, []string{fifostall.RuleRecords}},
		// The 15 slowest requests of a run dropped: 145 requests against 160 lines. They
		// are its last (the stall grows), so seq keeps no gap; the last response moves.
		{"the slowest requests dropped", func(b *fifostalltest.Bundle) {
			r := runOf(t, b, "python-json-sync-slow-r3-f4ea5d")
			slices.SortStableFunc(r.Requests, func(a, b fifostall.RequestRow) int {
				switch {
				case a.LatencyMs < b.LatencyMs:
					return -1
				case a.LatencyMs > b.LatencyMs:
					return 1
				}
				return 0
			})
			r.Requests = r.Requests[:len(r.Requests)-15]
			slices.SortFunc(r.Requests, func(a, b fifostall.RequestRow) int { return int(a.Seq - b.Seq) })
		}, []string{fifostall.RuleLines, fifostall.RuleTimes, fifostall.RuleRecords}},
		// A redone attempt and its rows deleted: the run that counts is attempt 2 of 2.
		{"a redone attempt deleted", func(b *fifostalltest.Bundle) {
			b.Runs = slices.DeleteFunc(b.Runs, func(r fifostall.Rows) bool { return r.Run.RunID == "python-json-sync-slow-r3-4fcdd2" })
			b.Manifest.RunsCompleted--
			b.Manifest.RunsSuperseded--
			b.Manifest.RunsVerified--
		}, []string{fifostall.RuleAttempts}},
		// drain_s and to_logs_read_s set to 0.01 s past the load.
		{"drain shortened", func(b *fifostalltest.Bundle) {
			r := runOf(t, b, "python-json-sync-slow-r3-f4ea5d")
			r.Run.DrainS, r.Run.ToLogsReadS = 0.01, r.Run.ToLastResponseS+0.01
		}, []string{fifostall.RuleTimes}},
		// The API's CPU limit raised to 4 in the manifest, containers.csv still at 0.25.
		{"limits raised", func(b *fifostalltest.Bundle) { b.Manifest.Parameters.Limits.APICPUs = 4 }, []string{fifostall.RuleLimits}},
		// The send-lag bound raised to 50 ms, every run lag-trusted, is past what
		// --max-send-lag accepts: see TestParametersAreHeldToTheirFlagsRules.
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := forged(t, tc.edit)
			if len(p) == 0 {
				t.Fatal("the forgery verifies")
			}
			for _, rule := range tc.rules {
				if !slices.ContainsFunc(p, func(s string) bool { return strings.Contains(s, "rule "+rule+":") }) {
					t.Errorf("no problem names rule %s: %q", rule, p)
				}
			}
			t.Logf("%d problems, the first: %s", len(p), p[0])
		})
	}
}
