package linecost

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	lc "github.com/logbench/logbench/kit/incontainer/linecost"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// The rules of what can happen at all (README.md, "What verify checks"): a row that
// breaks one cannot have been measured, however consistent the files are.
const (
	RuleColumns     = "columns-exact"          // every CSV file has exactly its schema's columns
	RuleCPU         = "cpu-non-negative"       // clocks and CPU counters never run backwards
	RuleThrottled   = "throttled-in-periods"   // throttled periods are some of the periods
	RuleThreadWall  = "thread-cpu-within-wall" // one thread cannot run longer than the time it ran in
	RuleFormatFloor = "format-floor"           // a way that formats and writes costs at least what formatting does
	RuleLimits      = "limits-applied"         // the manifest's CPU limit is the one the trials' cgroup read
)

// FormatFloorShare is how far below the format way's CPU per line a way that does the
// same formatting and then writes may fall before verify calls it impossible. Such a way
// does strictly more work on the calling thread, so its median can be below format's
// only by noise between containers: in the archived bundles the writing ways' medians
// are 1.14x to 1.93x format's, and trials of one condition spread about 20% either side
// of their median. A quarter below is past any noise seen; a forger who stays above it
// is not caught.
const FormatFloorShare = 0.75

// threadWallSlack: the thread's CPU clock and the wall clock are read one after the
// other, so the CPU time over the calls may pass the wall time by a few microseconds
// (up to 9 us, 0.3%, in the archived bundles); past 2% and 1 ms it cannot.
const (
	threadWallShare = 1.02
	threadWallNs    = 1_000_000
)

// formatFloorWays do what the format way does on the calling thread, then write.
var formatFloorWays = []string{lc.Buffered, lc.Unbuffered, lc.Fsync}

// sinceLibraries are the columns the kit added with the library axis: a bundle written
// before it (its manifest names no libraries) lacks them, and is read with them absent.
var sinceLibraries = map[string][]string{
	RunsFile:   {"library_id", "line"},
	TrialsFile: {"file_raw_bytes", "file_raw_sha256"},
	ConditionsFile: {"library", "line", "not_offered", "cpu_ns_per_line_ci_low", "cpu_ns_per_line_ci_high",
		"share_of_core_at_rate_ci_low", "share_of_core_at_rate_ci_high"},
}

// headers: each CSV file has exactly the columns of its row type, none missing, none
// unknown, none twice (the CSV reader itself ignores an unknown column and reads a
// missing one as zero); a bundle from before the library axis (legacy) lacks that
// axis's columns, a note.
func (c *checker) headers(legacy bool) {
	for _, f := range []struct {
		name string
		want []string
	}{
		{RunsFile, bundle.Columns[RunRow]()},
		{TrialsFile, bundle.Columns[TrialRow]()},
		{ConditionsFile, bundle.Columns[ConditionRow]()},
	} {
		body, ok := c.files[f.name]
		if !ok {
			continue
		}
		have, err := csv.NewReader(bytes.NewReader(body)).Read()
		if err != nil && err != io.EOF {
			continue // the table's own parse names it
		}
		at := func(column, msg string) {
			c.problem(verify.Problem{File: f.name, Line: 1, Column: verify.Short(column), Msg: verify.Rule(RuleColumns, msg)})
			c.ok[f.name] = false
		}
		seen := map[string]bool{}
		for _, col := range have {
			switch {
			case seen[col]:
				at(col, "a column twice")
			case !slices.Contains(f.want, col):
				at(col, "not a column of "+f.name)
			}
			seen[col] = true
		}
		var missing, older []string
		for _, col := range f.want {
			switch {
			case seen[col]:
			case legacy && slices.Contains(sinceLibraries[f.name], col):
				older = append(older, col)
			default:
				missing = append(missing, col)
			}
		}
		if len(missing) > 0 {
			at(strings.Join(missing, ", "), "missing")
		}
		if len(older) > 0 {
			c.res.Notes = append(c.res.Notes, verify.Problem{File: f.name, Line: 1, Column: strings.Join(older, ", "),
				Msg: "missing: written by a kit before it measured several libraries; read as absent"})
		}
	}
}

// rules checks every trial, and the conditions, against the rules.
func (c *checker) rules(b *Bundle) {
	off, first := 0, 0
	for i, t := range b.Trials {
		// The kernel applies a CPU limit as a quota in whole microseconds a period. A
		// trial that read no limit at all (0) is not held to it: a program run outside
		// the kit's container (its recorded test documents) reads none.
		if t.CgroupError == "" && t.CPULimitCores.Present() && t.CPULimitCores != 0 && math.Abs(float64(t.CPULimitCores)-b.Manifest.Parameters.CPUs) > 1e-3 {
			if off++; off == 1 {
				first = i
			}
		}
	}
	if off > 0 {
		t := b.Trials[first]
		c.problem(verify.Problem{File: TrialsFile, Line: first + 2, Key: fmt.Sprintf("run %s trial %d", t.RunID, t.Trial), Column: "cpu_limit_cores",
			Have: verify.Number(float64(t.CPULimitCores)), Want: verify.Number(b.Manifest.Parameters.CPUs),
			Msg: verify.Rule(RuleLimits, fmt.Sprintf("%s parameters.cpus, as the trial's cgroup read it (0: no limit); %d trials in all", bundle.ManifestFile, off))})
	}
	for i, t := range b.Trials {
		line, key := i+2, fmt.Sprintf("run %s trial %d", t.RunID, t.Trial)
		at := func(column, have, want, rule, msg string) {
			c.problem(verify.Problem{File: TrialsFile, Line: line, Key: key, Column: column, Have: have, Want: want, Msg: verify.Rule(rule, msg)})
		}
		// An absent cgroup figure (no reading) is neither negative nor 0: it is skipped.
		for _, f := range []struct {
			column string
			value  bundle.Opt
		}{
			{"thread_cpu_ns", bundle.Opt(t.ThreadCPUNs)}, {"wall_ns", bundle.Opt(t.WallNs)}, {"drain_wall_ns", bundle.Opt(t.DrainWallNs)}, {"cpu_used_ns", t.CgroupCPUNs},
			{"cgroup_wall_ns", t.CgroupWallNs}, {"cpu_periods", t.CgroupPeriods}, {"cpu_throttled_periods", t.ThrottledPeriods}, {"cpu_throttled_ms", t.ThrottledMs},
		} {
			if f.value.Present() && f.value < 0 {
				at(f.column, verify.Number(float64(f.value)), "0 or more", RuleCPU, "a clock or a CPU counter over the trial never runs backwards")
			}
		}
		if t.ThrottledPeriods.Present() && t.CgroupPeriods.Present() && t.ThrottledPeriods > t.CgroupPeriods {
			at("cpu_throttled_periods", verify.Number(float64(t.ThrottledPeriods)), "at most "+verify.Number(float64(t.CgroupPeriods)), RuleThrottled, "a throttled period is one of cpu_periods")
		}
		// Node.js 18 has no per-thread CPU clock: its figure is the whole process's.
		if t.Language != Node && t.WallNs > 0 && float64(t.ThreadCPUNs) > threadWallShare*float64(t.WallNs)+threadWallNs {
			at("thread_cpu_ns", fmt.Sprint(t.ThreadCPUNs), fmt.Sprintf("at most wall_ns %d", t.WallNs), RuleThreadWall, "the calling thread's CPU time over the calls cannot pass their wall time")
		}
	}
	if !c.ok[ConditionsFile] {
		return
	}
	for _, format := range b.Conditions {
		if format.Way != lc.Format || !(format.CPUNsPerLine > 0) {
			continue
		}
		for i, w := range b.Conditions {
			if w.Language != format.Language || w.Library != format.Library || w.Line != format.Line || !slices.Contains(formatFloorWays, w.Way) ||
				!(w.CPUNsPerLine < FormatFloorShare*format.CPUNsPerLine) {
				continue
			}
			c.problem(verify.Problem{File: ConditionsFile, Line: i + 2, Key: strings.TrimSuffix(w.Language+"/"+w.Library, "/") + "/" + w.Way, Column: "cpu_ns_per_line",
				Have: verify.Number(float64(w.CPUNsPerLine)), Want: "at least " + verify.Number(float64(FormatFloorShare*format.CPUNsPerLine)),
				Msg: verify.Rule(RuleFormatFloor, fmt.Sprintf("%s formats as the format way does, then writes: its CPU per line cannot be under %g x format's %s; the figures of %s", w.Way, FormatFloorShare, verify.Number(float64(format.CPUNsPerLine)), TrialsFile))})
		}
	}
}
