package linecost

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"

	lc "github.com/logbench/logbench/kit/incontainer/linecost"
	"github.com/logbench/logbench/kit/offline/bundle"
)

var nan = math.NaN()

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
	Language string `csv:"language"`
	// Library is the library's id and Line the shape it wrote; both "" in bundles
	// written before the library axis (each language's first library, text-notime).
	Library string `csv:"library"`
	Line    string `csv:"line"`
	Way     string `csv:"way"`
	// NotOffered is why the library cannot do the way ("" when it can): such a row has
	// no runs and no figures.
	NotOffered   string `csv:"not_offered"`
	Runs         int    `csv:"runs"`
	RunsVerified int    `csv:"runs_verified"`
	Trials       int    `csv:"trials"` // of the verified runs: the figures' sample
	Headline     string `csv:"headline"`
	// The headline per line: the median over trials, and a bootstrap 95% interval of it.
	NsPerLine     bundle.Opt `csv:"ns_per_line"`
	NsPerLineLow  bundle.Opt `csv:"ns_per_line_ci_low"`
	NsPerLineHigh bundle.Opt `csv:"ns_per_line_ci_high"`
	// RatioToCheapest divides the headline by the language's cheapest way's.
	RatioToCheapest bundle.Opt `csv:"ratio_to_cheapest"`
	// Both clocks, always, and the whole container's CPU (every thread: the queue's
	// writer, the flusher, the runtime) per line, all medians over trials.
	CPUNsPerLine       bundle.Opt `csv:"cpu_ns_per_line"`
	WallNsPerLine      bundle.Opt `csv:"wall_ns_per_line"`
	CgroupCPUNsPerLine bundle.Opt `csv:"cgroup_cpu_ns_per_line"`
	// CPUCores is the container's CPU over its trials' wall time: how busy the limit kept it.
	CPUCores        bundle.Opt `csv:"cpu_cores"`
	CPULimitCores   bundle.Opt `csv:"cpu_limit_cores"` // 0: none; absent: no trial read it
	ThrottledTrials int        `csv:"throttled_trials"`
	// ThrottledPeriods are summed over the trials: a CPU limit stretched their wall time.
	ThrottledPeriods int64 `csv:"cpu_throttled_periods" was:"throttled_periods"`
	// What this costs a service logging RateLinesPerS lines a second: the share of one
	// core its calls take (CPU), and the share of the calling thread's time spent in them
	// (wall: for fsync, waiting on the disk).
	RateLinesPerS      float64    `csv:"rate_lines_per_s"`
	ShareOfCoreAtRate  bundle.Opt `csv:"share_of_core_at_rate"`
	CallerShareAtRate  bundle.Opt `csv:"caller_time_share_at_rate"`
	PublishedNsPerLine bundle.Opt `csv:"published_ns_per_line"` // NaN: the seed gives none
	PublishedFigure    string     `csv:"published_figure"`
	// The calling thread's CPU per line, a bootstrap 95% interval of its median, and the
	// share of a core at RateLinesPerS over that interval; 0 in bundles written before
	// the library axis, which did not derive them.
	CPUNsPerLineLow       bundle.Opt `csv:"cpu_ns_per_line_ci_low"`
	CPUNsPerLineHigh      bundle.Opt `csv:"cpu_ns_per_line_ci_high"`
	ShareOfCoreAtRateLow  bundle.Opt `csv:"share_of_core_at_rate_ci_low"`
	ShareOfCoreAtRateHigh bundle.Opt `csv:"share_of_core_at_rate_ci_high"`
}

// Figures derives conditions.csv from the runs and trials: the one derivation that
// saving and verify both make. Conditions come in the plan's order (languages, then
// ways); only verified runs' trials count, and a run that is not data says so in
// runs.csv.
func Figures(p Params, runs []RunRow, trials []TrialRow, pub Published) []ConditionRow {
	verified := map[string]bool{}
	for _, r := range runs {
		if r.Verified {
			verified[r.RunID] = true
		}
	}
	libOf := map[string]string{}
	for _, r := range runs {
		libOf[r.RunID] = r.LibraryID
		if r.LibraryID == "" {
			libOf[r.RunID] = lc.DefaultLibrary(r.Language).ID
		}
	}
	var out []ConditionRow
	for _, lang := range p.Languages {
		for _, lib := range p.LibrariesOf(lang) {
			out = append(out, libraryFigures(p, lang, lib, runs, trials, libOf, verified, pub)...)
		}
	}
	return out
}

// libraryFigures are the rows of one library's ways.
func libraryFigures(p Params, lang string, lib lc.Library, runs []RunRow, trials []TrialRow, libOf map[string]string, verified map[string]bool, pub Published) []ConditionRow {
	var out []ConditionRow
	{
		first := len(out)
		for _, way := range p.Ways {
			c := ConditionRow{Language: lang, Way: way, Headline: HeadlineOf(way), RateLinesPerS: p.RateLinesPerS}
			if !p.Legacy() {
				c.Library, c.Line = lib.ID, p.LineOf(lib)
				if ok, why := lib.Offers(way, c.Line); !ok {
					c.NotOffered = why
				}
			}
			for _, r := range runs {
				if r.Language == lang && libOf[r.RunID] == lib.ID && r.Way == way {
					c.Runs++
					if r.Verified {
						c.RunsVerified++
					}
				}
			}
			var head, cpu, wall, cg []float64
			var cgCPU, cgWall int64
			for _, t := range trials {
				if t.Language != lang || libOf[t.RunID] != lib.ID || t.Way != way || !verified[t.RunID] {
					continue
				}
				c.Trials++
				cpu = append(cpu, float64(t.CPUNsPerLine))
				wall = append(wall, float64(t.WallNsPerLine))
				cg = append(cg, float64(t.CgroupCPUNsPerLin))
				if c.Headline == HeadlineWall {
					head = append(head, float64(t.WallNsPerLine))
				} else {
					head = append(head, float64(t.CPUNsPerLine))
				}
				// A verified trial has its cgroup's reading; one without adds nothing.
				if t.CgroupCPUNs.Present() && t.CgroupWallNs.Present() {
					cgCPU += int64(t.CgroupCPUNs)
					cgWall += int64(t.CgroupWallNs)
				}
				if t.CPULimitCores.Present() {
					c.CPULimitCores = t.CPULimitCores
				}
				if t.ThrottledPeriods.Present() {
					c.ThrottledPeriods += int64(t.ThrottledPeriods)
				}
				if t.Throttled {
					c.ThrottledTrials++
				}
			}
			c.NsPerLine = bundle.Opt(Median(head))
			seed := Seed(lang, way)
			if lib.ID != lc.DefaultLibrary(lang).ID {
				seed = Seed(lang+"/"+lib.ID, way)
			}
			c.NsPerLineLow, c.NsPerLineHigh = bootstrapOpt(head, p.Resamples, seed)
			c.CPUNsPerLine, c.WallNsPerLine, c.CgroupCPUNsPerLine = bundle.Opt(Median(cpu)), bundle.Opt(Median(wall)), bundle.Opt(Median(cg))
			c.CPUCores = bundle.None
			if cgWall > 0 {
				c.CPUCores = bundle.Opt(float64(cgCPU) / float64(cgWall))
			}
			rate := bundle.Opt(p.RateLinesPerS)
			c.ShareOfCoreAtRate = rate * c.CPUNsPerLine / 1e9
			c.CallerShareAtRate = rate * c.WallNsPerLine / 1e9
			if !p.Legacy() {
				c.CPUNsPerLineLow, c.CPUNsPerLineHigh = bootstrapOpt(cpu, p.Resamples, seed)
				c.ShareOfCoreAtRateLow = rate * c.CPUNsPerLineLow / 1e9
				c.ShareOfCoreAtRateHigh = rate * c.CPUNsPerLineHigh / 1e9
			}
			c.PublishedNsPerLine, c.PublishedFigure = bundle.None, ""
			if f, ok := pub.PerLine(way); ok {
				c.PublishedNsPerLine, c.PublishedFigure = bundle.Opt(f.Ns), f.Label
			}
			out = append(out, c)
		}
		cheapest := bundle.None
		for _, c := range out[first:] {
			if c.NsPerLine > 0 && !(c.NsPerLine >= cheapest) {
				cheapest = c.NsPerLine
			}
		}
		for i := first; i < len(out); i++ {
			out[i].RatioToCheapest = out[i].NsPerLine / cheapest
		}
	}
	return out
}

// bootstrapOpt is BootstrapMedian as a row holds it: absent for an empty sample.
func bootstrapOpt(v []float64, resamples int, seed uint64) (lo, hi bundle.Opt) {
	l, h := BootstrapMedian(v, resamples, seed)
	return bundle.Opt(l), bundle.Opt(h)
}

// Median is the middle value (the mean of the two middle ones for an even count); NaN
// for none.
func Median(v []float64) float64 {
	if len(v) == 0 {
		return nan
	}
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Seed is a condition's bootstrap seed: from its name, not its place in the table, so
// that a bundle with other conditions beside it draws the same resamples for it.
func Seed(language, way string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(Name + "/" + language + "/" + way))
	return h.Sum64()
}

// BootstrapMedian is the central 95% interval of the median of v over resamples
// resamples with replacement, drawn from a PCG generator seeded with seed. The draw
// uses only the generator's Uint64 (stable across Go releases) and a modulo, whose bias
// is below 1e-17 for a sample of trials. NaN, NaN for an empty sample.
func BootstrapMedian(v []float64, resamples int, seed uint64) (lo, hi float64) {
	if len(v) == 0 || resamples < 1 {
		return nan, nan
	}
	rng := rand.New(rand.NewPCG(seed, 0x6c696e65636f7374)) // "linecost"
	meds := make([]float64, resamples)
	buf := make([]float64, len(v))
	n := uint64(len(v))
	for i := range meds {
		for j := range buf {
			buf[j] = v[rng.Uint64()%n]
		}
		meds[i] = Median(buf)
	}
	slices.Sort(meds)
	return nearestRank(meds, 2.5), nearestRank(meds, 97.5)
}

// nearestRank is the p-th percentile of sorted s by nearest rank.
func nearestRank(s []float64, p float64) float64 {
	k := int(math.Ceil(p / 100 * float64(len(s))))
	return s[min(max(k, 1), len(s))-1]
}
