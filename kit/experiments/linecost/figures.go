package linecost

import (
	"hash/fnv"
	"math/rand/v2"

	"github.com/logbench/logbench/kit/contract/stats"
	lc "github.com/logbench/logbench/kit/incontainer/linecost"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/figure"
)

// Headlines: which clock a way's headline figure is read from.
const (
	HeadlineCPU  = "cpu"  // the calling thread's CPU time: what the call costs the service
	HeadlineWall = "wall" // wall time: the call waits on the disk, not on the CPU
)

// HeadlineOf is the rule: CPU time for the CPU-bound ways, whose wall time under a
// CPU quota is mostly the time the container is throttled; wall time for fsync, which
// waits on the disk.
func HeadlineOf(way string) string {
	if way == lc.Fsync {
		return HeadlineWall
	}
	return HeadlineCPU
}

// ConditionRow is one language, library and way over every verified run
// (conditions.csv).
type ConditionRow struct {
	Language              string     `csv:"language" doc:"The language whose usual logging is measured, by a program in its API image: go (log/slog), python (logging) or node (util.format and fs.writeSync; its CPU figures are the whole process's, see thread_cpu_ns)."`
	Library               string     `csv:"library" later:"it measured several libraries" doc:"The library's id (see runs.csv library_id); empty in bundles written before the library axis."`
	Line                  string     `csv:"line" later:"it measured several libraries" doc:"The shape of the line the library wrote (text, text-notime, json or json-notime: the manifest's line, default resolved to the library's own); empty in bundles written before the library axis, whose line was text-notime."`
	Way                   string     `csv:"way" doc:"How the line is logged: format (formatted, written nowhere), disabled-eager (a disabled DEBUG line whose message is built at the call site), disabled-lazy (the same with its arguments passed apart), buffered (a 4 KiB buffer flushed when full and every flush_interval_ns), unbuffered (one write system call per line), fsync (a write and an fsync per line) or queue (handed to a bounded queue a writer thread drains)."`
	NotOffered            string     `csv:"not_offered" later:"it measured several libraries" doc:"Why the library cannot do this way (no encoder for the shape, no such mechanism): the row has no runs and no figures; empty when it can."`
	Runs                  int        `csv:"runs" unit:"1" doc:"Runs of the condition, failed ones included."`
	RunsVerified          int        `csv:"runs_verified" unit:"1" doc:"Verified runs: only their trials count."`
	Trials                int        `csv:"trials" unit:"1" doc:"Trials of the verified runs: the figures' sample."`
	Headline              string     `csv:"headline" doc:"Which clock the headline is read from: cpu (the calling thread's CPU time; a CPU-bound way's wall time under a CPU limit is mostly throttling) or wall (fsync, which waits on the disk)."`
	NsPerLine             bundle.Opt `csv:"ns_per_line" unit:"ns" doc:"The headline per line: cpu_ns_per_line, or wall_ns_per_line for wall; empty without trials. In bundles whose manifest has bootstrap_resamples (earlier kits), every figure per line is instead the median of the trials pooled over the verified runs, and its interval a bootstrap of that median."`
	NsPerLineLow          bundle.Opt `csv:"ns_per_line_ci_low" signed:"true" unit:"ns" doc:"Lower end of the 95% Student-t interval of ns_per_line over the verified runs (kit/offline/figure: what every command states of it); empty with fewer than two runs."`
	NsPerLineHigh         bundle.Opt `csv:"ns_per_line_ci_high" unit:"ns" doc:"Upper end of that interval; empty with fewer than two runs."`
	RatioToCheapest       bundle.Opt `csv:"ratio_to_cheapest" unit:"1" doc:"ns_per_line over the smallest positive ns_per_line of the same language's conditions; empty when either is missing."`
	CPUNsPerLine          bundle.Opt `csv:"cpu_ns_per_line" unit:"ns" doc:"The mean over the verified runs of each run's median of its trials' cpu_ns_per_line (the mean of the two middle ones for an even count); empty without trials."`
	WallNsPerLine         bundle.Opt `csv:"wall_ns_per_line" unit:"ns" doc:"The same of the trials' wall_ns_per_line."`
	CgroupCPUNsPerLine    bundle.Opt `csv:"cgroup_cpu_ns_per_line" unit:"ns" doc:"The same of the trials' cgroup_cpu_ns_per_line: every thread of the container, per line."`
	CPUCores              bundle.Opt `csv:"cpu_cores" unit:"cores" doc:"The trials' summed cpu_used_ns over their summed cgroup_wall_ns: how busy the container was; empty without cgroup wall time."`
	CPULimitCores         bundle.Opt `csv:"cpu_limit_cores" unit:"cores" doc:"The CPU limit the trials ran under (the last verified trial's cpu_limit_cores); 0 means none; missing without a verified trial (0 in bundles written before)."`
	ThrottledTrials       int        `csv:"throttled_trials" unit:"1" doc:"Trials with throttled true."`
	ThrottledPeriods      int64      `csv:"cpu_throttled_periods" was:"throttled_periods" unit:"1" doc:"The trials' cpu_throttled_periods summed."`
	RateLinesPerS         float64    `csv:"rate_lines_per_s" unit:"lines/s" doc:"The rate the next two figures assume: the manifest's parameters.rate_lines_per_s."`
	ShareOfCoreAtRate     bundle.Opt `csv:"share_of_core_at_rate" unit:"1" doc:"rate_lines_per_s x cpu_ns_per_line / 1e9: the share of one core the calls take at that rate (0.01 = 1%); empty without trials."`
	CallerShareAtRate     bundle.Opt `csv:"caller_time_share_at_rate" unit:"1" doc:"rate_lines_per_s x wall_ns_per_line / 1e9: the share of the calling thread's time spent in the calls at that rate; empty without trials."`
	PublishedNsPerLine    bundle.Opt `csv:"published_ns_per_line" unit:"ns" doc:"The seed's time per line of this way (results/reference/line-cost/figures.csv), in ns; empty where the seed gives none."`
	PublishedFigure       string     `csv:"published_figure" doc:"That figure as the seed gives it, with its metric (\"58.4 ns (time_per_line_written)\"); empty where the seed gives none."`
	CPUNsPerLineLow       bundle.Opt `csv:"cpu_ns_per_line_ci_low" later:"it measured several libraries" signed:"true" unit:"ns" doc:"Lower end of the 95% Student-t interval of cpu_ns_per_line over the verified runs; empty with fewer than two runs; 0 in bundles written before the library axis."`
	CPUNsPerLineHigh      bundle.Opt `csv:"cpu_ns_per_line_ci_high" later:"it measured several libraries" unit:"ns" doc:"Upper end of that interval."`
	ShareOfCoreAtRateLow  bundle.Opt `csv:"share_of_core_at_rate_ci_low" later:"it measured several libraries" signed:"true" unit:"1" doc:"rate_lines_per_s x cpu_ns_per_line_ci_low / 1e9."`
	ShareOfCoreAtRateHigh bundle.Opt `csv:"share_of_core_at_rate_ci_high" later:"it measured several libraries" unit:"1" doc:"rate_lines_per_s x cpu_ns_per_line_ci_high / 1e9."`
}

// Figures derives conditions.csv from the runs and trials: the one derivation that
// saving and verify both make. Conditions come in the plan's order (languages, then
// ways); only verified runs' trials count, and a run that is not data says so in
// runs.csv. A bundle of an earlier kit (its manifest has bootstrap_resamples) is
// derived by that kit's rule, pooledMedianBootstrap.
func Figures(p Params, runs []RunRow, trials []TrialRow, pub Published) []ConditionRow {
	var out []ConditionRow
	for _, lang := range p.Languages {
		for _, lib := range p.LibrariesOf(lang) {
			out = append(out, libraryFigures(p, lang, lib, runs, trials, pub)...)
		}
	}
	return out
}

// libraryFigures are the rows of one library's ways.
func libraryFigures(p Params, lang string, lib lc.Library, runs []RunRow, trials []TrialRow, pub Published) []ConditionRow {
	var out []ConditionRow
	for _, way := range p.Ways {
		c := ConditionRow{Language: lang, Way: way, Headline: HeadlineOf(way), RateLinesPerS: p.RateLinesPerS}
		if !p.Legacy() {
			c.Library, c.Line = lib.ID, p.LineOf(lib)
			if ok, why := lib.Offers(way, c.Line); !ok {
				c.NotOffered = why
			}
		}
		for _, r := range runs {
			if l, _ := LibraryOfRun(r.Language, r.LibraryID); r.Language == lang && l.ID == lib.ID && r.Way == way {
				c.Runs++
				if r.Verified {
					c.RunsVerified++
				}
			}
		}
		pooled, byRun := conditionTrials(runs, trials, lang, lib.ID, way)
		var cgCPU, cgWall int64
		for _, t := range pooled {
			c.Trials++
			// A verified trial has its cgroup's reading; one without adds nothing.
			if t.CgroupCPUNs.Present() && t.CgroupWallNs.Present() {
				cgCPU += int64(t.CgroupCPUNs)
				cgWall += int64(t.CgroupWallNs)
			}
			if t.CPULimitCores.Present() {
				c.CPULimitCores = t.CPULimitCores
			}
			c.ThrottledPeriods += int64(t.ThrottledPeriods.Or(0))
			if t.Throttled {
				c.ThrottledTrials++
			}
		}
		if p.Resamples > 0 {
			pooledMedianBootstrap(&c, p, lib, pooled)
		} else {
			head, cpu := overRuns(byRun, headlineOf(c.Headline)), overRuns(byRun, cpuOf)
			c.NsPerLine, c.NsPerLineLow, c.NsPerLineHigh = bundle.Opt(head.Value), bundle.Opt(head.Low), bundle.Opt(head.High)
			c.CPUNsPerLine, c.CPUNsPerLineLow, c.CPUNsPerLineHigh = bundle.Opt(cpu.Value), bundle.Opt(cpu.Low), bundle.Opt(cpu.High)
			c.WallNsPerLine, c.CgroupCPUNsPerLine = bundle.Opt(overRuns(byRun, wallOf).Value), bundle.Opt(overRuns(byRun, cgroupOf).Value)
		}
		c.CPUCores = bundle.OptIf(cgWall > 0, float64(cgCPU)/float64(cgWall))
		rate := bundle.Opt(p.RateLinesPerS)
		c.ShareOfCoreAtRate = rate * c.CPUNsPerLine / 1e9
		c.CallerShareAtRate = rate * c.WallNsPerLine / 1e9
		c.ShareOfCoreAtRateLow = rate * c.CPUNsPerLineLow / 1e9
		c.ShareOfCoreAtRateHigh = rate * c.CPUNsPerLineHigh / 1e9
		f, _ := pub.PerLine(way)
		c.PublishedNsPerLine, c.PublishedFigure = bundle.Opt(f.Ns), f.Label
		out = append(out, c)
	}
	cheapest := bundle.None
	for _, c := range out {
		if c.NsPerLine > 0 && !(c.NsPerLine >= cheapest) {
			cheapest = c.NsPerLine
		}
	}
	for i := range out {
		out[i].RatioToCheapest = out[i].NsPerLine / cheapest
	}
	return out
}

// conditionTrials are the trials of one condition's verified runs in trials.csv's
// order, and the same run by run (in the order of their first trials): the runs every
// figure of the condition is stated over.
func conditionTrials(runs []RunRow, trials []TrialRow, language, library, way string) (pooled []TrialRow, byRun [][]TrialRow) {
	verified := map[string]bool{}
	for _, r := range runs {
		if l, ok := LibraryOfRun(r.Language, r.LibraryID); ok && l.ID == library && r.Verified {
			verified[r.RunID] = true
		}
	}
	at := map[string]int{}
	for _, t := range trials {
		if !verified[t.RunID] || t.Language != language || t.Way != way {
			continue
		}
		i, seen := at[t.RunID]
		if !seen {
			i, at[t.RunID] = len(byRun), len(byRun)
			byRun = append(byRun, nil)
		}
		byRun[i] = append(byRun[i], t)
		pooled = append(pooled, t)
	}
	return pooled, byRun
}

// A trial's figures per line.
func cpuOf(t TrialRow) float64    { return float64(t.CPUNsPerLine) }
func wallOf(t TrialRow) float64   { return float64(t.WallNsPerLine) }
func cgroupOf(t TrialRow) float64 { return float64(t.CgroupCPUNsPerLin) }

// headlineOf reads a trial's figure of the headline's clock.
func headlineOf(headline string) func(TrialRow) float64 {
	if headline == HeadlineWall {
		return wallOf
	}
	return cpuOf
}

// overRuns is a figure of a condition's trials as compare.Estimate states it: each
// run's median, then the mean over runs with its Student-t interval.
func overRuns(byRun [][]TrialRow, of func(TrialRow) float64) figure.Estimate {
	return compare.Estimate(compare.Measured(nil, "", "ns", compare.Median{}, compare.ValuesByRun(byRun, of)))
}

// pooledMedianBootstrap is how the kits before figures were stated over runs derived a
// condition's figures, kept so that their bundles still verify: each the median of the
// condition's trials pooled over its runs; the headline's and (with the library axis)
// the thread CPU's with the central 95% interval of that median over p.Resamples
// resamples with replacement, drawn from a PCG generator seeded by the condition's name.
// Nothing shows these figures: verify states an earlier kit's bundle over runs too.
func pooledMedianBootstrap(c *ConditionRow, p Params, lib lc.Library, pooled []TrialRow) {
	values := func(of func(TrialRow) float64) []float64 { return compare.ValuesOf(pooled, of) }
	name := c.Language
	if lib.ID != lc.DefaultLibrary(c.Language).ID {
		name += "/" + lib.ID
	}
	h := fnv.New64a()
	h.Write([]byte(Name + "/" + name + "/" + c.Way))
	bootstrap := func(v []float64) (lo, hi bundle.Opt) {
		if len(v) == 0 {
			return bundle.None, bundle.None
		}
		rng := rand.New(rand.NewPCG(h.Sum64(), 0x6c696e65636f7374)) // "linecost"
		meds, buf := make([]float64, p.Resamples), make([]float64, len(v))
		for i := range meds {
			for j := range buf {
				buf[j] = v[rng.Uint64()%uint64(len(v))]
			}
			meds[i] = compare.MedianOf(buf)
		}
		return bundle.Opt(stats.NearestRank(meds, 2.5)), bundle.Opt(stats.NearestRank(meds, 97.5))
	}
	head, cpu := values(headlineOf(c.Headline)), values(cpuOf)
	c.NsPerLine, c.CPUNsPerLine = bundle.Opt(compare.MedianOf(head)), bundle.Opt(compare.MedianOf(cpu))
	c.WallNsPerLine, c.CgroupCPUNsPerLine = bundle.Opt(compare.MedianOf(values(wallOf))), bundle.Opt(compare.MedianOf(values(cgroupOf)))
	c.NsPerLineLow, c.NsPerLineHigh = bootstrap(head)
	if !p.Legacy() {
		c.CPUNsPerLineLow, c.CPUNsPerLineHigh = bootstrap(cpu)
	}
}
