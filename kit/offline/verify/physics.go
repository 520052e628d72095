package verify

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// The physical rules: what no measurement can show, whichever experiment made it and
// however consistent its derived columns are. The bounds and their tolerances are
// declared here, once; each experiment applies them to the columns it has (its
// rules.go, README "What verify checks").
const (
	// RuleTimes: the manifest was created after the kit existed and finished after it
	// was created and not in the future; every run lies within created..finished, and
	// runs, which the kit performs one at a time, do not overlap.
	RuleTimes = "times-ordered"
	// RuleCPULimit: CPU time over an interval within its limit (or the host's CPUs)
	// times the interval, and no more CFS periods than the interval holds.
	RuleCPULimit = "cpu-within-limit"
	// RuleLittle: a closed loop's rate times its mean latency is the requests it had in
	// flight, at most its connections x pipelining (Little's law).
	RuleLittle = "littles-law"
	// RuleWallParts: a run's wall time covers its parts, performed within it.
	RuleWallParts = "wall-covers-parts"
	// RuleBacklog: a writer that blocks when its pipe (or queue) is full has no more
	// bytes outstanding than the pipe, the queue and the write it is blocked in hold.
	RuleBacklog = "backlog-within-buffer"
	// RuleRateBound: a reader held to a rate reads no faster than it, but for a burst.
	RuleRateBound = "rate-within-bound"
	// RuleNonNegative: a quantity with a unit (a duration, a count, a size, a rate) is
	// never negative, but for the differences a table declares signed.
	RuleNonNegative = "non-negative"
	// RuleMeasured: a column the manifest says was measured is in its file.
	RuleMeasured = "measured-present"
	// RuleDuration: a run's measured interval is its load's planned duration
	// (parameters.duration_s), all of it for a run that is data, never more.
	RuleDuration = "duration-as-planned"
	// RuleEngine: the engine's host has 1 to MaxHostCPUs CPUs and some memory, at most
	// MaxHostMemoryBytes (0: not reported), and no container's CPU limit is more than
	// its CPUs.
	RuleEngine = "engine-plausible"
	// RuleLimits: a container ran under the limits its manifest records, as its own
	// cgroup read them back (0: none), within what the kernel rounds (CPULimitApplied, MemoryLimitApplied).
	RuleLimits = "limits-applied"
)

// CPULimitApplied says whether a container's cgroup read back the CPU limit asked for
// (0: none): the kernel applies it as a quota in whole microseconds a period.
func CPULimitApplied(readCores, askedCores float64) bool {
	return math.Abs(readCores-askedCores) <= 1e-3
}

// MemoryLimitApplied says whether a container's cgroup read back the memory limit asked
// for (0: none, in both): the kernel rounds it down to a page (64 KiB at most).
func MemoryLimitApplied(readBytes, askedBytes int64) bool {
	d := readBytes - askedBytes
	return d <= 0 && d > -64<<10 && (askedBytes == 0) == (readBytes == 0)
}

// Bounds of the engine's host (RuleEngine): no host the kit runs on has more. A limit's
// flags are bounded by them too (experiment.CPUsFlag, experiment.MaxMemory).
const (
	MaxHostCPUs        = 4096
	MaxHostMemoryBytes = 1 << 50
)

// Engine checks the manifest's engine facts (rule engine-plausible): engine.cpus from 1
// to MaxHostCPUs and engine.memory_bytes from 1 to MaxHostMemoryBytes, as the engine
// reports its host. 0 is a fact not reported (an engine that says nothing of its host,
// as the tests' fakes), which the rules that rest on it treat as such; a negative count
// or one past any host is no report at all.
func Engine(res *Result, m *bundle.Common) {
	e := m.Engine
	if e.CPUs < 0 || e.CPUs > MaxHostCPUs {
		res.Problem(Problem{File: bundle.ManifestFile, Column: "engine.cpus", Have: strconv.Itoa(e.CPUs), Want: fmt.Sprintf("1 to %d", MaxHostCPUs),
			Msg: Rule(RuleEngine, "the CPUs the engine reports its host has")})
	}
	if e.MemoryBytes < 0 || e.MemoryBytes > MaxHostMemoryBytes {
		res.Problem(Problem{File: bundle.ManifestFile, Column: "engine.memory_bytes", Have: strconv.FormatInt(e.MemoryBytes, 10), Want: fmt.Sprintf("1 to %d", int64(MaxHostMemoryBytes)),
			Msg: Rule(RuleEngine, "the memory the engine reports its host has")})
	}
}

// CPULimitWithinHost checks a container's CPU limit of cores (0: none), the manifest's
// field, against the host's CPUs as its engine reports them (rule engine-plausible): the
// engines refuse a limit of more CPUs than the host has. An engine.cpus out of its own
// bounds is Engine's problem, not this one's.
func CPULimitWithinHost(res *Result, field string, cores float64, m *bundle.Common) {
	host := m.Engine.CPUs
	if host < 1 || host > MaxHostCPUs || !(cores > float64(host)) {
		return
	}
	res.Problem(Problem{File: bundle.ManifestFile, Column: field, Have: strconv.FormatFloat(cores, 'f', -1, 64), Want: fmt.Sprintf("at most %d", host),
		Msg: Rule(RuleEngine, "the host's CPUs (manifest engine.cpus): the engine refuses a limit of more CPUs than it has")})
}

// KitEpoch is when the kit began: no bundle can have been created before it. Every
// bundle the repository keeps was made in November 2026 or later.
var KitEpoch = time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)

// Tolerances of the time rules.
const (
	// ClockSkew is how far a run's start (the wall clock, RFC 3339) plus its wall_s (the
	// monotonic clock) may pass the next run's start or the manifest's finish. The two
	// clocks of one host drift apart only as NTP slews the wall clock, at most 500 ppm:
	// 63 ms over the longest run the kit allows (max_run_time_s 126 s); a second leaves
	// room for a small step. The archived runs end 1.3 ms or more before the next begins.
	ClockSkew = time.Second
	// FutureSkew is how far past the verifying host's clock a bundle's times may lie: the
	// two hosts' clocks may disagree, or one keep local time as UTC (at most 14 hours).
	FutureSkew = 24 * time.Hour
	// PartsSkewS, in seconds, is how far the parts of a run, timed on the same host's
	// clocks as its wall time, may pass it: the reads of one clock are not simultaneous.
	PartsSkewS = 0.01
)

// DurationSkewS, in seconds, is how far a run's measured interval may differ from the
// planned duration: the load generator ends it at its start plus the duration, to the
// nanosecond, so only the rounding of seconds written in decimal is allowed for. The
// archived runs measured 5 s of a planned 5 s, exactly.
const DurationSkewS = 0.001

// Tolerances of the CPU rule.
const (
	// CFSPeriodS is the period, in seconds, over which the kernel applies a CPU limit as a
	// quota: the engines' default (Docker and Podman turn --cpus into a quota per 100 ms),
	// which the kit keeps.
	CFSPeriodS = 0.1
	// CPUPeriodsSlack is the CFS periods an interval may see beyond those it holds whole:
	// one begun before it and one the counter and the clock were read apart by.
	CPUPeriodsSlack = 2
	// CPUReadShare is the share by which CPU time may pass limit x interval once the
	// periods are allowed for: the CPU counter and the clock are read one after the other.
	CPUReadShare = 0.01
)

// Tolerances of Little's law in a closed loop.
const (
	// LittleReadShare is the share by which the requests in flight may pass connections x
	// pipelining once the requests that straddle the interval are allowed for: the counts
	// and the latencies are read with one clock, a little apart.
	LittleReadShare = 0.01
	// LittleBusyShare is the least share of connections x pipelining a verified closed
	// loop keeps in flight: its connections wait only between a response and the next
	// send, on the load generator, which a verified run kept below saturation. The
	// archived runs keep 99.2% to 99.99% in flight (go none at 0.28 ms mean latency
	// included); 90% leaves room for a slower generator, and refuses a rate scaled down
	// by a tenth or more with its latencies kept.
	LittleBusyShare = 0.9
	// LittleForeignBusyShare is LittleBusyShare for a service the kit did not write: it
	// may close each connection after its response (HTTP/1.0, as Python's http.server
	// does), and then each request waits for a new connection, which its latency does
	// not count. Such a server, on a busy two-core host, kept 78% to 99% in flight; a
	// quarter leaves room for a slower connect, and still refuses a rate scaled down
	// by a fifth or more with its latencies kept.
	LittleForeignBusyShare = 0.25
)

// Breach is how a row breaks a physical rule: what it has, the bound it passes, and why
// the bound holds. The experiment places it in its file (Problem).
type Breach struct {
	Rule, Have, Want, Msg string
}

// Problem places the breach at a file's line, row and column.
func (b *Breach) Problem(file string, line int, key, column string) Problem {
	return Problem{File: file, Line: line, Key: key, Column: column, Have: b.Have, Want: b.Want, Msg: Rule(b.Rule, b.Msg)}
}

// Span is a run's place in time as its table of runs says: where its row is, when it
// started (started_utc as written) and how long it took (wall_s).
type Span struct {
	File    string
	Line    int
	Key     string
	Started string
	WallS   float64
}

// Times checks the manifest's times and the runs' spans against each other, the kit's
// epoch and now (rule times-ordered): created_utc at or after KitEpoch, finished_utc
// not before it, neither past now + FutureSkew; every run started at or after
// created_utc and ended (started + wall_s) by finished_utc; and no run started before
// the one before it ended, all within ClockSkew. A negative wall_s is RuleNonNegative's.
func Times(res *Result, m *bundle.Common, spans []Span, now time.Time) {
	const file = bundle.ManifestFile
	latest := now.Add(FutureSkew)
	at := func(column string, have time.Time, want, msg string) {
		res.Problem(Problem{File: file, Column: column, Have: stamp(have), Want: want, Msg: Rule(RuleTimes, msg)})
	}
	created, finished := m.CreatedUTC, m.FinishedUTC
	switch {
	case created.IsZero():
		res.Problem(Problem{File: file, Column: "created_utc", Msg: Rule(RuleTimes, "missing: the kit records when it created the bundle")})
	case created.Before(KitEpoch):
		at("created_utc", created, "at or after "+stamp(KitEpoch), "no bundle is older than the kit")
	case created.After(latest):
		at("created_utc", created, "at most "+stamp(latest), "now on this host, give or take a day: a bundle cannot be created in the future")
	}
	switch {
	case finished.IsZero():
		res.Problem(Problem{File: file, Column: "finished_utc", Msg: Rule(RuleTimes, "missing: the kit records when it last saved the bundle")})
	case !created.IsZero() && finished.Before(created):
		at("finished_utc", finished, "at or after "+stamp(created), "created_utc: a bundle is finished after it is created")
	case finished.After(latest):
		at("finished_utc", finished, "at most "+stamp(latest), "now on this host, give or take a day: a bundle cannot be finished in the future")
	}
	// A run is held to the manifest's times only where they are in order; where they
	// are not, the manifest's problem is the one to name.
	from, to := created, finished
	if from.IsZero() || from.Before(KitEpoch) || from.After(latest) {
		from = KitEpoch
	}
	if to.IsZero() || to.Before(from) || to.After(latest) {
		to = latest
	}
	type run struct {
		Span
		start, end time.Time
	}
	var runs []run
	early := capped{res: res, file: firstFile(spans), column: "started_utc", what: "start outside the manifest's created_utc..finished_utc"}
	for _, s := range spans {
		start, err := time.Parse(time.RFC3339Nano, s.Started)
		if err != nil {
			res.Problem(Problem{File: s.File, Line: s.Line, Key: s.Key, Column: "started_utc", Have: strconv.Quote(Short(s.Started)),
				Msg: Rule(RuleTimes, "not an RFC 3339 time: the run cannot be placed in time")})
			continue
		}
		wall := time.Duration(max(s.WallS, 0) * float64(time.Second))
		if math.IsNaN(s.WallS) || s.WallS > float64(100*365*24*time.Hour/time.Second) {
			wall = 0 // no time at all: another rule names it
		}
		r := run{s, start.UTC(), start.UTC().Add(wall)}
		runs = append(runs, r)
		switch {
		case r.start.Before(from.Add(-ClockSkew)):
			early.add(Problem{File: s.File, Line: s.Line, Key: s.Key, Column: "started_utc", Have: stamp(r.start), Want: "at or after " + stamp(from),
				Msg: Rule(RuleTimes, "the manifest's created_utc (or the kit's epoch): a run starts after its bundle is created")})
		case r.end.After(to.Add(ClockSkew)):
			early.add(Problem{File: s.File, Line: s.Line, Key: s.Key, Column: "wall_s", Have: fmt.Sprintf("an end at %s", stamp(r.end)), Want: "at most " + stamp(to),
				Msg: Rule(RuleTimes, "started_utc + wall_s, by the manifest's finished_utc (or now): a run ends before its bundle is last saved")})
		}
	}
	early.close()
	// The kit performs runs one at a time: each starts after the one before it ended.
	slices.SortStableFunc(runs, func(a, b run) int { return a.start.Compare(b.start) })
	overlap := capped{res: res, file: firstFile(spans), column: "started_utc", what: "start before the run before them ended"}
	for i := 1; i < len(runs); i++ {
		prev, r := runs[i-1], runs[i]
		if r.start.Before(prev.end.Add(-ClockSkew)) {
			overlap.add(Problem{File: r.File, Line: r.Line, Key: r.Key, Column: "started_utc", Have: stamp(r.start), Want: "at or after " + stamp(prev.end),
				Msg: Rule(RuleTimes, fmt.Sprintf("the end of %s (line %d: started_utc + wall_s): the kit performs one run at a time", prev.Key, prev.Line))})
		}
	}
	overlap.close()
}

func firstFile(spans []Span) string {
	if len(spans) == 0 {
		return ""
	}
	return spans[0].File
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// CPUBound is the most CPU time, in seconds, a group of processes can use over
// intervalS seconds under a limit of cores: the limit over the interval and two CFS
// periods more (an interval may begin in a period whose quota is still unused, and the
// kernel hands out a period's quota in slices per CPU, so a period may run a slice
// over), and CPUReadShare more.
func CPUBound(intervalS, cores float64) float64 {
	return cores * (intervalS + 2*CFSPeriodS) * (1 + CPUReadShare)
}

// CPUWithin checks usedS seconds of CPU over intervalS seconds against a limit of cores,
// named by limit ("parameters.limits.api_cpus", "the host's 2 CPUs"). It is nil when
// the CPU fits, and when there is nothing to hold it to: a figure absent (NaN), no
// interval, no limit (0).
func CPUWithin(usedS, intervalS, cores float64, limit string) *Breach {
	if !(usedS >= 0) || !(intervalS > 0) || !(cores > 0) {
		return nil
	}
	bound := CPUBound(intervalS, cores)
	if usedS <= bound {
		return nil
	}
	return &Breach{Rule: RuleCPULimit, Have: fmt.Sprintf("%s s of CPU (%.3g cores)", Number(usedS), usedS/intervalS),
		Want: fmt.Sprintf("at most %.6g s", bound),
		Msg: fmt.Sprintf("%g cores of %s over %s s, and %g s more: the kernel applies a limit per %g s period, and the counter and clock are read %g%% apart",
			cores, limit, Number(intervalS), 2*CFSPeriodS, CFSPeriodS, 100*CPUReadShare)}
}

// PeriodsWithin checks a count of CFS periods over intervalS seconds: no more than the
// periods of CFSPeriodS the interval holds, and CPUPeriodsSlack more. nil when it fits
// or there is nothing to hold it to.
func PeriodsWithin(periods, intervalS float64) *Breach {
	if !(periods >= 0) || !(intervalS >= 0) {
		return nil
	}
	bound := intervalS/CFSPeriodS + CPUPeriodsSlack
	if periods <= bound {
		return nil
	}
	return &Breach{Rule: RuleCPULimit, Have: Number(periods), Want: fmt.Sprintf("at most %.6g", bound),
		Msg: fmt.Sprintf("the CFS periods of %g s in %s s, and %d more: the kernel counts one a period elapsed", CFSPeriodS, Number(intervalS), CPUPeriodsSlack)}
}

// ClosedLoop is a closed-loop load as a run measured it: Connections x Pipelining
// requests in flight at most, Responses completed over IntervalS seconds, their mean
// latency MeanMs (or a figure no larger, see wrk) and their largest MaxMs (0 when none
// started before the interval, NaN when unknown). Busy says the loop kept its
// connections busy (a verified run: its generator not saturated), so that the lower
// bound applies.
type ClosedLoop struct {
	Connections, Pipelining int
	Responses               float64
	IntervalS               float64
	MeanMs, MaxMs           float64
	Busy                    bool
	// BusyShare is the least share of the loop a Busy loop keeps in flight; 0 is
	// LittleBusyShare.
	BusyShare float64
}

// Check holds the loop to Little's law: the requests in flight on average, Responses /
// IntervalS x MeanMs, are at most Connections x Pipelining, and at least
// LittleBusyShare of it when Busy. Responses completed in the interval include those in
// flight at its start, whose whole latency counts: the upper bound allows MaxMs of each
// over the interval, the lower one leaves out MaxMs of the interval's end. nil when it
// holds, or a figure is missing.
func (l ClosedLoop) Check() *Breach {
	c := float64(max(l.Connections, 1)) * float64(max(l.Pipelining, 1)) // as floats: a hostile manifest's product overflows an int
	if !(l.IntervalS > 0) || !(l.Responses > 0) || !(l.MeanMs > 0) {
		return nil
	}
	edge := 0.0
	if l.MaxMs > 0 {
		edge = l.MaxMs / 1e3 / l.IntervalS
	}
	rate := l.Responses / l.IntervalS
	inFlight := rate * l.MeanMs / 1e3
	have := fmt.Sprintf("%s req/s x %s ms = %.4g in flight", Number(rate), Number(l.MeanMs), inFlight)
	high := c * (1 + edge) * (1 + LittleReadShare)
	if inFlight > high {
		return &Breach{Rule: RuleLittle, Have: have, Want: fmt.Sprintf("at most %.4g", high),
			Msg: fmt.Sprintf("a closed loop of %d connections x %d pipelined has at most %g requests in flight, plus those straddling the interval's start (max_ms over it) and %g%%; "+
				"a rate that high needs latencies that low", max(l.Connections, 1), max(l.Pipelining, 1), c, 100*LittleReadShare)}
	}
	share := l.BusyShare
	if share == 0 {
		share = LittleBusyShare
	}
	low := c * share * max(0, 1-edge)
	if l.Busy && inFlight < low {
		return &Breach{Rule: RuleLittle, Have: have, Want: fmt.Sprintf("at least %.4g", low),
			Msg: fmt.Sprintf("a verified closed loop of %g requests keeps at least %g%% of them in flight (its connections wait only on its generator), less those the interval's end cuts (max_ms over it); "+
				"a rate that low needs latencies that high", c, 100*share)}
	}
	return nil
}

// Part is one part of a whole, by name ("warmup_s"), in the whole's unit.
type Part struct {
	Name  string
	Value float64
}

// WallCovers checks that a run's wall time, wallS seconds, covers its parts, which it
// performed one after the other (an absent or negative part counts 0): their sum is
// at most wallS and PartsSkewS. nil when it does, or wall_s is absent.
func WallCovers(wallS float64, parts ...Part) *Breach {
	if math.IsNaN(wallS) || wallS < 0 {
		return nil
	}
	sum := 0.0
	var names []string
	for _, p := range parts {
		if p.Value > 0 {
			sum += p.Value
			names = append(names, fmt.Sprintf("%s %s", p.Name, Number(p.Value)))
		}
	}
	if sum <= wallS+PartsSkewS {
		return nil
	}
	return &Breach{Rule: RuleWallParts, Have: Number(wallS), Want: "at least " + Number(sum),
		Msg: fmt.Sprintf("the run performed %s within its wall time (%g s apart at most)", strings.Join(names, " + "), PartsSkewS)}
}

// MeasuredAsPlanned checks a run's measured interval, measuredS seconds, against its
// load's planned duration, plannedS (rule duration-as-planned): at most plannedS, and,
// for a run that is data (verified), plannedS, within DurationSkewS; a run stopped
// early measured less and is not data. nil when it holds, or either is absent.
func MeasuredAsPlanned(measuredS, plannedS float64, verified bool) *Breach {
	switch {
	case math.IsNaN(measuredS) || math.IsNaN(plannedS):
		return nil
	case measuredS > plannedS+DurationSkewS:
		return &Breach{Rule: RuleDuration, Have: Number(measuredS), Want: "at most " + Number(plannedS),
			Msg: "parameters.duration_s: the load generator ends the measured interval at the planned duration"}
	case verified && measuredS < plannedS-DurationSkewS:
		return &Breach{Rule: RuleDuration, Have: Number(measuredS), Want: Number(plannedS),
			Msg: "parameters.duration_s: a run that is data measured the whole planned duration (one stopped early is not data)"}
	}
	return nil
}

// BacklogWithin checks the bytes a blocking writer had generated and its reader not yet
// read: at most what its buffers hold (the pipe, a queue, the write it is blocked in,
// the read whose sample is not yet taken). nil when they do, or a buffer is unknown
// (0 or less).
func BacklogWithin(backlog float64, buffers ...Part) *Breach {
	sum := 0.0
	var names []string
	for _, b := range buffers {
		if !(b.Value > 0) {
			return nil
		}
		sum += b.Value
		names = append(names, fmt.Sprintf("%s %s", b.Name, Number(b.Value)))
	}
	if !(backlog > sum) {
		return nil
	}
	return &Breach{Rule: RuleBacklog, Have: Number(backlog), Want: "at most " + Number(sum),
		Msg: "a blocking writer waits once its buffers are full: " + strings.Join(names, " + ")}
}

// RateShare is the share by which what a reader held to a rate read may pass the rate
// over its interval, beyond its burst: its clock and its pacing are read apart.
const RateShare = 0.01

// RateWithin checks amount read over intervalS seconds by a reader held to rate per
// second (named by bound), which may read burst at once: at most rate x intervalS x
// (1 + RateShare) + burst. nil when it is, or there is no bound (0) or no interval.
func RateWithin(amount, intervalS, rate, burst float64, bound string) *Breach {
	if !(rate > 0) || !(intervalS > 0) || !(amount >= 0) {
		return nil
	}
	most := rate*intervalS*(1+RateShare) + max(burst, 0)
	if amount <= most {
		return nil
	}
	return &Breach{Rule: RuleRateBound, Have: fmt.Sprintf("%s in %s s (%.6g a second)", Number(amount), Number(intervalS), amount/intervalS),
		Want: fmt.Sprintf("at most %.6g", most),
		Msg:  fmt.Sprintf("%s of %s a second, one burst of %s and %g%%", bound, Number(rate), Number(burst), 100*RateShare)}
}

// UnitsOf are the units of file's columns as the kit's own data package declares them.
func UnitsOf(pkg bundle.DataPackage, file string) map[string]string {
	units := map[string]string{}
	if r, ok := pkg.Resource(file); ok && r.Schema != nil {
		for _, f := range r.Schema.Fields {
			units[f.Name] = f.Unit
		}
	}
	return units
}

// Measured checks that file has the columns the manifest says were measured (rule
// measured-present): a column a later kit added is read as absent in an earlier kit's
// bundle (Rows), but a manifest that records what that kit did (because) is no earlier
// kit's, and its bundle cannot lack them.
func Measured(res *Result, file string, absent map[string]bool, columns []string, because string) {
	var missing []string
	for _, c := range columns {
		if absent[c] {
			missing = append(missing, c)
		}
	}
	if len(missing) == 0 {
		return
	}
	res.Problem(Problem{File: file, Line: 1, Column: strings.Join(missing, ", "),
		Msg: Rule(RuleMeasured, "missing, though "+because)})
}

// CPULimit names the CPU a container could use in a run: its own limit when it had one,
// else the host's CPUs, as the run read them (hostCPUs, absent or 0 when it did not)
// or, failing that, as the manifest's engine says (engineCPUs).
type CPULimit struct {
	host     float64
	hostName string
}

// HostCPUs is the CPULimit of a run on a host.
func HostCPUs(engineCPUs int, hostCPUs float64) CPULimit {
	if hostCPUs > 0 && !math.IsNaN(hostCPUs) {
		return CPULimit{hostCPUs, fmt.Sprintf("the host's %g CPUs (host_cpus)", hostCPUs)}
	}
	return CPULimit{float64(engineCPUs), fmt.Sprintf("the host's %d CPUs (manifest engine.cpus)", engineCPUs)}
}

// Of is the cores a container limited to cores (0: no limit) could use, and where that
// figure comes from (parameters.limits.param, or the host's).
func (l CPULimit) Of(cores float64, param string) (float64, string) {
	if cores > 0 {
		return cores, "parameters.limits." + param
	}
	return l.host, l.hostName
}
