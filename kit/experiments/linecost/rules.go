package linecost

import (
	"fmt"
	"slices"
	"strings"

	lc "github.com/logbench/logbench/kit/incontainer/linecost"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// The rules of what can happen at all (README.md, "What verify checks"): a row that
// breaks one cannot have been measured, however consistent the files are.
const (
	RuleThrottled   = "throttled-in-periods"   // throttled periods are some of the periods
	RuleThreadWall  = "thread-cpu-within-wall" // one thread cannot run longer than the time it ran in
	RuleFormatFloor = "format-floor"           // a way that formats and writes costs at least what formatting does
	RuleLimits      = verify.RuleLimits        // the manifest's CPU limit is the one the trials' cgroup read
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

// rules checks every trial, and the conditions, against the rules.
func (c *checker) rules(b *Bundle) {
	var off []int
	for i, t := range c.trials {
		// A trial that read no limit at all (0) is not held to it: a program run outside
		// the kit's container (its recorded test documents) reads none.
		if t.CgroupError == "" && t.CPULimitCores.Present() && t.CPULimitCores != 0 && !verify.CPULimitApplied(float64(t.CPULimitCores), b.Params().CPUs) {
			off = append(off, i)
		}
	}
	if len(off) > 0 {
		t := c.trials[off[0]]
		c.Problem(verify.Problem{File: TrialsFile, Line: off[0] + 2, Key: fmt.Sprintf("run %s trial %d", t.RunID, t.Trial), Column: "cpu_limit_cores",
			Have: verify.Number(float64(t.CPULimitCores)), Want: verify.Number(b.Params().CPUs),
			Msg: verify.Rule(RuleLimits, fmt.Sprintf("%s parameters.cpus, as the trial's cgroup read it (0: no limit); %d trials in all", bundle.ManifestFile, len(off)))})
	}
	for i, t := range c.trials {
		line, key := i+2, fmt.Sprintf("run %s trial %d", t.RunID, t.Trial)
		at := func(column, have, want, rule, msg string) {
			c.Problem(verify.Problem{File: TrialsFile, Line: line, Key: key, Column: column, Have: have, Want: want, Msg: verify.Rule(rule, msg)})
		}
		// No clock or counter negative: verify.NonNegative (physics).
		if t.ThrottledPeriods.Present() && t.CgroupPeriods.Present() && t.ThrottledPeriods > t.CgroupPeriods {
			at("cpu_throttled_periods", verify.Number(float64(t.ThrottledPeriods)), "at most "+verify.Number(float64(t.CgroupPeriods)), RuleThrottled, "a throttled period is one of cpu_periods")
		}
		// Node.js 18 has no per-thread CPU clock: its figure is the whole process's.
		if t.Language != Node && t.WallNs > 0 && float64(t.ThreadCPUNs) > threadWallShare*float64(t.WallNs)+threadWallNs {
			at("thread_cpu_ns", fmt.Sprint(t.ThreadCPUNs), fmt.Sprintf("at most wall_ns %d", t.WallNs), RuleThreadWall, "the calling thread's CPU time over the calls cannot pass their wall time")
		}
	}
	for _, format := range c.conds {
		if format.Way != lc.Format || !(format.CPUNsPerLine > 0) {
			continue
		}
		for i, w := range c.conds {
			if w.Language != format.Language || w.Library != format.Library || w.Line != format.Line || !slices.Contains(formatFloorWays, w.Way) ||
				!(w.CPUNsPerLine < FormatFloorShare*format.CPUNsPerLine) {
				continue
			}
			c.Problem(verify.Problem{File: ConditionsFile, Line: i + 2, Key: strings.TrimSuffix(w.Language+"/"+w.Library, "/") + "/" + w.Way, Column: "cpu_ns_per_line",
				Have: verify.Number(float64(w.CPUNsPerLine)), Want: "at least " + verify.Number(float64(FormatFloorShare*format.CPUNsPerLine)),
				Msg: verify.Rule(RuleFormatFloor, fmt.Sprintf("%s formats as the format way does, then writes: its CPU per line cannot be under %g x format's %s; the figures of %s", w.Way, FormatFloorShare, verify.Number(float64(format.CPUNsPerLine)), TrialsFile))})
		}
	}
}

// physics holds the bundle to the kit's physical rules (kit/offline/verify/physics.go)
// beyond those the kit holds every bundle to (no negative quantity, the runs' times):
// each trial's cgroup CPU within its limit over its interval and its CFS periods within
// that interval; a run's wall time covering its trials, performed one after the other
// inside it.
func (c *checker) physics(b *Bundle) {
	host := float64(b.M.Head().Engine.CPUs)
	trialsS := map[string]float64{}
	for i, t := range c.trials {
		place := c.Res.BreachesAt(TrialsFile, i+2, fmt.Sprintf("run %s trial %d", t.RunID, t.Trial))
		// A trial lasts its calls and the drain after them, which its cgroup's interval
		// spans.
		trialsS[t.RunID] += max(float64(t.WallNs+t.DrainWallNs), t.CgroupWallNs.Or(0)) / 1e9
		if t.CgroupError != "" || !t.CgroupCPUNs.Present() || !t.CgroupWallNs.Present() {
			continue
		}
		interval := float64(t.CgroupWallNs) / 1e9
		cores, limit := float64(t.CPULimitCores), "cpu_limit_cores"
		if !(cores > 0) {
			cores, limit = host, fmt.Sprintf("the host's %g CPUs (manifest engine.cpus)", host)
		}
		place("cpu_used_ns", verify.CPUWithin(float64(t.CgroupCPUNs)/1e9, interval, cores, limit+" over cgroup_wall_ns"))
		if t.CPULimitCores > 0 && t.CgroupPeriods.Present() {
			place("cpu_periods", verify.PeriodsWithin(float64(t.CgroupPeriods), interval))
		}
	}
	for i, r := range b.Runs {
		if s, ok := trialsS[r.RunID]; ok {
			c.Res.BreachesAt(RunsFile, i+2, "run "+r.RunID)("wall_s", verify.WallCovers(r.WallS, verify.Part{Name: "its trials in " + TrialsFile + " (wall_ns + drain_wall_ns, or cgroup_wall_ns)", Value: s}))
		}
	}
}
