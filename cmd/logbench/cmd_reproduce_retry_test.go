package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/fifostalltest"
	"github.com/logbench/logbench/kit/experiments/fifostall"

	"github.com/logbench/logbench/internal/enginetest"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// TestAnUntrustedRunIsRedoneAndSaysSo forces every run untrusted (a send-lag bound of
// 1 µs, which no load generator holds): the run is performed again once (--retries 1),
// both attempts are kept, the first superseded, the condition counts one run and one
// redone, the summary says the condition is still untrusted, and the bundle verifies.
func TestAnUntrustedRunIsRedoneAndSaysSo(t *testing.T) {
	enginetest.Require(t)
	dir := filepath.Join(t.TempDir(), "bundle")
	out, err := runApp(t, "reproduce", "--modes", "none", "--readers", "fast", "--reps", "1", "--duration", "1s", "--api", "go",
		"--calibrate=false", "--retries", "1", "--max-send-lag", "0.001ms", "--out", dir)
	if err != nil {
		t.Fatalf("reproduce failed: %v\n%s", err, out)
	}
	b, err := fifostalltest.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Runs) != 2 {
		t.Fatalf("%d runs, want 2 attempts\n%s", len(b.Runs), out)
	}
	first, second := b.Runs[0].Run, b.Runs[1].Run
	if first.Attempt != 1 || !first.Superseded || first.SendLagTrusted || second.Attempt != 2 || second.Superseded || second.SendLagTrusted {
		t.Fatalf("attempts: %+v\n%+v", first, second)
	}
	m := b.Manifest
	if m.RunsCompleted != 2 || m.RunsSuperseded != 1 || !m.Complete || m.Parameters.Retries != 1 || m.Parameters.ClientTopology != "shared" {
		t.Fatalf("manifest %+v", m)
	}
	if c := b.Conditions[0]; c.Runs != 1 || c.RunsSuperseded != 1 || c.RunsTrusted != 0 || c.Requests != 20 {
		t.Fatalf("condition %+v", c)
	}
	for _, want := range []string{"redone (attempt 2)", "1 attempts redone (--retries 1)", "STILL UNTRUSTED after retries: go/none/fast", "1 still untrusted"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output does not say %q:\n%s", want, out)
		}
	}
	files, err := bundle.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if res := fifostall.Tabular.Verify(files); !res.OK() || !strings.Contains(res.Summary(), "go/none/fast: 1/1 verified, 0/1 lag-trusted, 1 redone") {
		t.Fatalf("verify: %v\n%s", res.Problems, res.Summary())
	}
}
