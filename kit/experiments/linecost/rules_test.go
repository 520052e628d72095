package linecost

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/forgery"
	"github.com/logbench/logbench/kit/contract"
	lc "github.com/logbench/logbench/kit/incontainer/linecost"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// forged is the archived lc-final bundle with its trials changed by edit, every trial's
// checks, run and condition derived again in step and SHA256SUMS written again: what a
// careful forger makes, which only a rule of what can happen can refuse.
func forged(t *testing.T, edit func(b *Bundle)) []string {
	t.Helper()
	f := forgery.Open(t, filepath.Join("..", "..", "..", "results", "2026-11-30-vm2", "lc-final.tar.gz"))
	res, b := check(f)
	if !res.OK() {
		t.Fatalf("the archived bundle does not verify: %v", res.Problems)
	}
	edit(b)
	for i := range Trials(b) {
		Trials(b)[i] = CheckTrial(Trials(b)[i])
	}
	for i, r := range b.Runs {
		var trials []TrialRow
		for _, tr := range Trials(b) {
			if tr.RunID == r.RunID {
				trials = append(trials, tr)
			}
		}
		r.Verified = false
		b.Runs[i] = FinishRun(r, trials)
	}
	files, err := b.Files()
	if err != nil {
		t.Fatal(err)
	}
	forgery.Rewrite(f, files)
	return problems(f)
}

func problems(f *bundle.Files) []string {
	res, _ := check(f)
	var out []string
	for _, p := range res.Problems {
		out = append(out, p.String())
	}
	return out
}

// TestEveryRuleRefusesItsForgery breaks each rule once and wants verify to refuse the
// bundle with that rule, naming file, line and column.
func TestEveryRuleRefusesItsForgery(t *testing.T) {
	if p := forged(t, func(b *Bundle) {}); len(p) != 0 {
		t.Fatalf("the bundle written again does not verify: %v", p)
	}
	each := func(way string, change func(tr *TrialRow)) func(b *Bundle) {
		return func(b *Bundle) {
			for i := range Trials(b) {
				if Trials(b)[i].Language == Go && Trials(b)[i].Way == way {
					change(&Trials(b)[i])
				}
			}
		}
	}
	for _, tc := range []struct {
		rule, want string
		edit       func(b *Bundle)
	}{
		// The thread CPU of every unbuffered trial divided by 3: unbuffered cheaper than
		// formatting alone.
		{RuleFormatFloor, "conditions.csv line 6 (go/unbuffered): cpu_ns_per_line: have 877.74015, want at least 1020.5471625", each(lc.Unbuffered, func(tr *TrialRow) { tr.ThreadCPUNs /= 3 })},
		{RuleThreadWall, "trials.csv line 2 (run go-format-r1-207ec6 trial 0): thread_cpu_ns: have 134664448, want at most wall_ns 104767923", each(lc.Format, func(tr *TrialRow) {
			if tr.Trial == 0 && tr.Round == 1 {
				tr.ThreadCPUNs *= 4
			}
		})},
		{RuleThrottled, "trials.csv line 2 (run go-format-r1-207ec6 trial 0): cpu_throttled_periods: have 3, want at most 1", each(lc.Format, func(tr *TrialRow) {
			if tr.Trial == 0 && tr.Round == 1 {
				tr.ThrottledPeriods = 3
			}
		})},
		{RuleLimits, "trials.csv line 2 (run go-format-r1-207ec6 trial 0): cpu_limit_cores: have 0.25, want 1", func(b *Bundle) {
			b.Params().CPUs = 1 // within the host's 2 CPUs: a limit past them is rule engine-plausible's
		}},
		{verify.RuleNonNegative, "trials.csv line 2 (trials go-format-r1-207ec6/0): cpu_throttled_ms: have -1", each(lc.Format, func(tr *TrialRow) {
			if tr.Trial == 0 && tr.Round == 1 {
				tr.ThrottledMs = -1
			}
		})},
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

// TestTrialsAreReadStrictly: a column removed from trials.csv, or one added that no kit
// writes, is refused, SHA256SUMS written again.
func TestTrialsAreReadStrictly(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		edit       func(tb *forgery.Table)
	}{
		{"removed", "trials.csv: cpu_used_ns: missing column", func(tb *forgery.Table) {
			c := indexOf(tb.Header, "cgroup_cpu_ns")
			tb.Header = append(tb.Header[:c:c], tb.Header[c+1:]...)
			for i, r := range tb.Rows {
				tb.Rows[i] = append(r[:c:c], r[c+1:]...)
			}
		}},
		{"unknown", "trials.csv line 1: cpu_ns_per_line_adjusted: not a column of this schema", func(tb *forgery.Table) {
			tb.Header = append(tb.Header, "cpu_ns_per_line_adjusted")
			for i := range tb.Rows {
				tb.Rows[i] = append(tb.Rows[i], "1")
			}
		}},
		{"twice", "trials.csv line 1: wall_ns: named twice in the header", func(tb *forgery.Table) {
			tb.Header = append(tb.Header, "wall_ns")
			for i := range tb.Rows {
				tb.Rows[i] = append(tb.Rows[i], "1")
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := forgery.Open(t, filepath.Join("..", "..", "..", "results", "2026-11-30-vm2", "lc-final.tar.gz"))
			tb := forgery.Read(t, f, TrialsFile)
			tc.edit(tb)
			tb.Write(f, TrialsFile)
			forgery.Resum(f)
			p := problems(f)
			found := false
			for _, s := range p {
				found = found || strings.HasPrefix(s, tc.want)
			}
			if !found {
				t.Fatalf("want %q; have %q", tc.want, p)
			}
		})
	}
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// TestAnEarlierKitsCgroupColumnsReadUnderTodaysNames: cgroup_cpu_ns, cgroup_periods and
// throttled_periods read as fifo-stall's names (their was tags), and throttled_ns as
// cpu_throttled_ms, converted to ms.
func TestAnEarlierKitsCgroupColumnsReadUnderTodaysNames(t *testing.T) {
	old := []byte("run_id,cgroup_cpu_ns,cgroup_periods,throttled_periods,throttled_ns\nr,5,4,3,2500000\nq,,,,\n")
	d := bundle.DecodeCSV[TrialRow](TrialsFile, respell(TrialsFile, old), 10)
	if len(d.Errs) > 0 || len(d.Rows) != 2 {
		t.Fatalf("%d rows: %v", len(d.Rows), d.Errs)
	}
	if r := d.Rows[0]; r.CgroupCPUNs != 5 || r.CgroupPeriods != 4 || r.ThrottledPeriods != 3 || r.ThrottledMs != 2.5 {
		t.Errorf("read as %v, %v, %v, %v ms", r.CgroupCPUNs, r.CgroupPeriods, r.ThrottledPeriods, r.ThrottledMs)
	}
	if r := d.Rows[1]; r.CgroupCPUNs.Present() || r.ThrottledMs.Present() {
		t.Errorf("empty fields read as %v, %v", r.CgroupCPUNs, r.ThrottledMs)
	}
	if now := []byte("run_id,cpu_used_ns\nr,5\n"); string(respell(TrialsFile, now)) != string(now) {
		t.Error("today's columns were rewritten")
	}
}

// TestATrialWithoutACgroupReadingHasNoCgroupFigures: no reading is an empty field, not
// 0 (which, for the CPU limit, would say none).
func TestATrialWithoutACgroupReadingHasNoCgroupFigures(t *testing.T) {
	tr := trialRow(RunRow{RunKey: RunKey{RunID: "r", Language: Go, Way: lc.Format}}, contract.LineCostTrial{Lines: 10, CgroupError: "no cgroup"}, lc.LineFormat)
	for name, o := range map[string]bundle.Opt{"cpu_used_ns": tr.CgroupCPUNs, "cgroup_wall_ns": tr.CgroupWallNs, "cpu_periods": tr.CgroupPeriods,
		"cpu_throttled_periods": tr.ThrottledPeriods, "cpu_throttled_ms": tr.ThrottledMs, "cpu_limit_cores": tr.CPULimitCores} {
		if o.Present() {
			t.Errorf("%s: %v, want empty", name, o)
		}
	}
	read := trialRow(RunRow{RunKey: RunKey{RunID: "r", Language: Go, Way: lc.Format}}, contract.LineCostTrial{Lines: 10,
		CgroupAfter: contract.CgroupSnapshot{CPUThrottledNanos: 1500000}}, lc.LineFormat)
	if read.CPULimitCores != 0 || !read.CPULimitCores.Present() || read.ThrottledMs != 1.5 {
		t.Errorf("a reading without a limit: limit %v (want 0: none), throttled %v ms", read.CPULimitCores, read.ThrottledMs)
	}
}
