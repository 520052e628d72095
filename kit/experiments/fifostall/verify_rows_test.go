package fifostall_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/experiments/fifostall"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// archivedDir unpacks an archived bundle of results/ into a fresh folder.
func archivedDir(t *testing.T, archive string) string {
	t.Helper()
	files, err := bundle.Open(filepath.Join("..", "..", "..", "results", archive))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), files.Name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range files.Data {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// rowOf is the index (after the header) of the first row of file whose column holds value.
func rowOf(t *testing.T, dir, file, column, value string) int {
	t.Helper()
	tb := readTable(t, filepath.Join(dir, file))
	c := tb.col(t, column)
	for i, r := range tb.rows {
		if r[c] == value {
			return i
		}
	}
	t.Fatalf("%s: no row with %s %s", file, column, value)
	return -1
}

func setManifest(t *testing.T, dir, old, new string) {
	t.Helper()
	path := filepath.Join(dir, bundle.ManifestFile)
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(body), old) {
		t.Fatalf("manifest has no %s", old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(body), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestEveryRuleRefusesItsForgery breaks each rule of what can happen once, in the
// archived fifo-py bundle with SHA256SUMS written again, and wants verify to refuse it
// naming the file, the column and the rule.
func TestEveryRuleRefusesItsForgery(t *testing.T) {
	const run = "python-short1-fast-r1-b65c36" // attempt 3, counting; 160 requests
	for _, tc := range []struct {
		rule, file, column string
		forge              func(t *testing.T, dir string)
		only               bool // no other problem: nothing but the rule can tell
	}{
		{verify.RuleOrdered, fifostall.RequestsFile, "first_byte_ms", func(t *testing.T, dir string) {
			i := rowOf(t, dir, fifostall.RequestsFile, "run_id", run)
			c, _ := strconv.ParseFloat(cell(t, dir, fifostall.RequestsFile, i, "connected_ms"), 64)
			edit(t, dir, fifostall.RequestsFile, i, "first_byte_ms", strconv.FormatFloat(c/2, 'f', -1, 64))
		}, true},
		{verify.RuleOrdered, fifostall.RequestsFile, "latency_ms", func(t *testing.T, dir string) {
			i := rowOf(t, dir, fifostall.RequestsFile, "run_id", run) + 3
			f, _ := strconv.ParseFloat(cell(t, dir, fifostall.RequestsFile, i, "first_byte_ms"), 64)
			edit(t, dir, fifostall.RequestsFile, i, "latency_ms", strconv.FormatFloat(f/1000, 'f', -1, 64))
		}, false},
		{verify.RuleNumbered, fifostall.RequestsFile, "seq", func(t *testing.T, dir string) {
			edit(t, dir, fifostall.RequestsFile, rowOf(t, dir, fifostall.RequestsFile, "run_id", run)+7, "seq", "170")
		}, true},
		{verify.RuleNumbered, fifostall.RequestsFile, "seq", func(t *testing.T, dir string) {
			edit(t, dir, fifostall.RequestsFile, rowOf(t, dir, fifostall.RequestsFile, "run_id", run), "seq", "1")
		}, false}, // and the key (run_id, seq) twice, which verify.Tables refuses
		{fifostall.RuleAttempts, fifostall.RunsFile, "attempt", func(t *testing.T, dir string) {
			edit(t, dir, fifostall.RunsFile, rowOf(t, dir, fifostall.RunsFile, "run_id", "python-none-fast-r1-e6f2dd"), "attempt", "2")
		}, true},
		{fifostall.RuleLines, fifostall.RunsFile, "lines_written", func(t *testing.T, dir string) {
			i := rowOf(t, dir, fifostall.RunsFile, "run_id", run)
			edit(t, dir, fifostall.RunsFile, i, "lines_written", "155")
			edit(t, dir, fifostall.RunsFile, i, "lines_read", "155")
		}, true},
		{fifostall.RuleLimits, fifostall.ContainersFile, "cpu_limit_cores", func(t *testing.T, dir string) {
			setManifest(t, dir, `"api_cpus": 0.25`, `"api_cpus": 1`) // within the host's 2 CPUs: a limit past them is rule engine-plausible's
		}, true},
		{fifostall.RuleLimits, fifostall.ContainersFile, "memory_limit_bytes", func(t *testing.T, dir string) {
			setManifest(t, dir, `"loadgen_memory_bytes": 268435456`, `"loadgen_memory_bytes": 536870912`)
		}, true},
		{fifostall.RuleTimes, fifostall.RunsFile, "drain_s", func(t *testing.T, dir string) {
			i := rowOf(t, dir, fifostall.RunsFile, "mode", "json-sync")
			edit(t, dir, fifostall.RunsFile, i, "drain_s", "0.01")
			edit(t, dir, fifostall.RunsFile, i, "to_logs_read_s", "8.01")
		}, false}, // and conditions.csv's drain, which follows from it
		{fifostall.RuleTimes, fifostall.RunsFile, "to_last_response_s", func(t *testing.T, dir string) {
			edit(t, dir, fifostall.RunsFile, rowOf(t, dir, fifostall.RunsFile, "run_id", run), "to_last_response_s", "9")
		}, false},
		{fifostall.RuleTimes, fifostall.RunsFile, "overhead_s", func(t *testing.T, dir string) {
			edit(t, dir, fifostall.RunsFile, rowOf(t, dir, fifostall.RunsFile, "run_id", run), "overhead_s", "0.5")
		}, true},
		{verify.RuleOrdered, fifostall.RunsFile, "p99_ms", func(t *testing.T, dir string) {
			edit(t, dir, fifostall.RunsFile, rowOf(t, dir, fifostall.RunsFile, "run_id", run), "p99_ms", "0.1")
		}, false},
		{verify.RuleNonNegative, fifostall.ContainersFile, "cpu_cores", func(t *testing.T, dir string) {
			i := rowOf(t, dir, fifostall.ContainersFile, "role", "loadgen")
			edit(t, dir, fifostall.ContainersFile, i, "cpu_cores", "-0.02")
		}, true},
	} {
		t.Run(tc.rule+"/"+tc.column, func(t *testing.T) {
			dir := archivedDir(t, "2026-11-30-vm2/fifo-py.tar.gz")
			tc.forge(t, dir)
			resum(t, dir)
			res := verifyDir(t, dir)
			if res.OK() {
				t.Fatal("the forgery verifies")
			}
			found := false
			for _, p := range res.Problems {
				if p.File == tc.file && p.Column == tc.column && strings.Contains(p.Msg, "rule "+tc.rule+":") && (p.Line > 0 || p.File == bundle.ManifestFile) {
					found = true
				}
			}
			if !found || (tc.only && len(res.Problems) != 1) {
				t.Fatalf("want one problem in %s %s naming rule %s; have %v", tc.file, tc.column, tc.rule, res.Problems)
			}
			t.Log(res.Problems[0])
		})
	}
}

// TestABoundOtherThanTheDefaultIsSaid: a send-lag bound within the flag's range but not
// the kit's default verifies, and the summary says what the runs were trusted against.
func TestABoundOtherThanTheDefaultIsSaid(t *testing.T) {
	dir := saved(t, small())
	setManifest(t, dir, `"max_send_lag_p99_ms": 1`, `"max_send_lag_p99_ms": 2`)
	resum(t, dir)
	res := verifyDir(t, dir)
	if !res.OK() || !strings.Contains(res.Summary(), "send-lag bound 2 ms, not the kit's default 1 ms") {
		t.Fatalf("problems %v\nsummary %s", res.Problems, res.Summary())
	}
}

// TestARemovedColumnDoesNotSilenceARule: the columns the rules rest on are required, so
// a forger cannot remove first_byte_ms (read as empty) to hide phases out of order.
func TestARemovedColumnDoesNotSilenceARule(t *testing.T) {
	for _, f := range []struct{ file, column string }{
		{fifostall.RequestsFile, "first_byte_ms"}, {fifostall.RequestsFile, "scheduled_offset_s"}, {fifostall.ContainersFile, "cgroup_version"},
	} {
		dir := archivedDir(t, "2026-11-30-vm2/fifo-py.tar.gz")
		tb := readTable(t, filepath.Join(dir, f.file))
		c := tb.col(t, f.column)
		tb.header = slices.Delete(tb.header, c, c+1)
		for i := range tb.rows {
			tb.rows[i] = slices.Delete(tb.rows[i], c, c+1)
		}
		tb.write(t, filepath.Join(dir, f.file))
		resum(t, dir)
		res := verifyDir(t, dir)
		if res.OK() || !strings.Contains(fmt.Sprint(res.Problems), f.file+": "+f.column+": missing column") {
			t.Errorf("%s without %s: problems %v", f.file, f.column, res.Problems)
		}
	}
}
