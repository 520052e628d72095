package verify

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// The physical rules, each held once at its bound and broken once past it: a rule that
// refuses what can happen is as wrong as one that lets through what cannot.

func TestCPUWithinItsLimitAndPeriods(t *testing.T) {
	// One core over 5 s may use 5.2 s and 1% more: a period's quota on each side.
	if b := CPUWithin(5.25, 5, 1, "limit"); b != nil {
		t.Errorf("5.25 s of CPU over 5 s under 1 core: %+v", b)
	}
	if b := CPUWithin(5.26, 5, 1, "limit"); b == nil || b.Rule != RuleCPULimit {
		t.Errorf("5.26 s of CPU over 5 s under 1 core: %+v", b)
	}
	// The forgery of the issue: 9.96 cores under a limit of 1.
	if b := CPUWithin(49.8, 5, 1, "parameters.limits.api_cpus"); b == nil || !strings.Contains(b.Have, "9.96 cores") {
		t.Errorf("9.96 cores: %+v", b)
	}
	// A short interval may use a whole period's quota it began in (line-cost's trials: 11.9 ms
	// of CPU in 11.6 ms under 0.25 cores).
	if b := CPUWithin(0.0119, 0.0116, 0.25, "limit"); b != nil {
		t.Errorf("a period's quota in a short interval: %+v", b)
	}
	for _, c := range []struct{ used, interval, cores float64 }{{math.NaN(), 5, 1}, {5, 0, 1}, {50, 5, 0}, {5, math.NaN(), 1}} {
		if b := CPUWithin(c.used, c.interval, c.cores, "limit"); b != nil {
			t.Errorf("nothing to hold %v to: %+v", c, b)
		}
	}
	if b := PeriodsWithin(7, 0.5); b != nil {
		t.Errorf("7 periods in 0.5 s: %+v", b)
	}
	// line-cost's python trial of 7 periods with its clocks divided by 100.
	if b := PeriodsWithin(7, 0.00707); b == nil || b.Rule != RuleCPULimit {
		t.Errorf("7 periods in 7 ms: %+v", b)
	}
}

func TestLittlesLawBoundsAClosedLoop(t *testing.T) {
	// qps-wrk-every's first run: 25,594 responses in 5 s at a mean of 1.95 ms, max 29.7 ms.
	run := ClosedLoop{Connections: 10, Pipelining: 1, Responses: 25594, IntervalS: 5, MeanMs: 1.952887621512853, MaxMs: 29.737522, Busy: true}
	if b := run.Check(); b != nil {
		t.Fatalf("the archived run: %+v", b)
	}
	for _, c := range []struct {
		name   string
		scale  float64
		refuse bool
	}{{"x10", 10, true}, {"x1.05", 1.05, true}, {"x1.01", 1.01, false}, {"x0.9", 0.9, false}, {"x0.8", 0.8, true}, {"x0.01", 0.01, true}} {
		l := run
		l.Responses *= c.scale
		if b := l.Check(); (b != nil) != c.refuse || (b != nil && b.Rule != RuleLittle) {
			t.Errorf("rate %s: %+v, want refused %v", c.name, b, c.refuse)
		}
	}
	// A run that is not data may have idled (a saturated generator): only the upper bound.
	idle := run
	idle.Responses, idle.Busy = run.Responses/100, false
	if b := idle.Check(); b != nil {
		t.Errorf("an unverified run at a hundredth of the rate: %+v", b)
	}
	// Two connections pipelining 5 carry 10.
	if b := (ClosedLoop{Connections: 2, Pipelining: 5, Responses: 25594, IntervalS: 5, MeanMs: 1.95, Busy: true}).Check(); b != nil {
		t.Errorf("2 x 5 in flight: %+v", b)
	}
}

func TestWallCoversItsParts(t *testing.T) {
	if b := WallCovers(12.08, Part{"warmup_s", 1}, Part{"measured", 5.02}, Part{"wrk_duration_s", 5.1}); b != nil {
		t.Errorf("an archived run: %+v", b)
	}
	if b := WallCovers(11.1, Part{"warmup_s", 1}, Part{"measured", 5.02}, Part{"wrk_duration_s", 5.1}); b == nil || b.Rule != RuleWallParts || b.Want != "at least 11.12" {
		t.Errorf("parts past the wall: %+v", b)
	}
	// fifo-stall's json-sync/slow latencies stretched x10,000: the last response 17,721 s
	// after the load began, in a run of 10.1 s.
	if b := WallCovers(10.1, Part{"last response", 17721}); b == nil {
		t.Error("17,721 s within 10.1 s")
	}
	if b := WallCovers(math.NaN(), Part{"x", 1}); b != nil {
		t.Errorf("no wall time: %+v", b)
	}
}

func TestABlockingWritersBacklogIsWithinItsBuffers(t *testing.T) {
	pipe, record, read := Part{"pipe_capacity_bytes", 65536}, Part{"record", 16384}, Part{"read_bytes", 4096}
	if b := BacklogWithin(81920, pipe, record, read); b != nil {
		t.Errorf("json-sync/slow's backlog, the pipe and one record: %+v", b)
	}
	// The stall hidden: json-queue's backlog in a blocking mode.
	if b := BacklogWithin(532480, pipe, record, read); b == nil || b.Rule != RuleBacklog || b.Want != "at most 86016" {
		t.Errorf("532,480 bytes into a 65,536-byte pipe: %+v", b)
	}
	if b := BacklogWithin(532480, Part{"pipe_capacity_bytes", 0}, record); b != nil {
		t.Errorf("no pipe recorded: %+v", b)
	}
}

func TestNoQuantityIsNegative(t *testing.T) {
	type row struct {
		ID    string     `csv:"id"`
		WallS float64    `csv:"wall_s"`
		Count int64      `csv:"count"`
		Cost  bundle.Opt `csv:"cost_us"`
		Gone  bundle.Opt `csv:"gone_s"`
		Code  int        `csv:"code"` // no unit: a code, not a count
		Note  string     `csv:"note"`
		Other bundle.Opt `csv:"other_cores"`
	}
	units := map[string]string{"wall_s": "s", "count": "1", "cost_us": "us", "gone_s": "s", "other_cores": "cores"}
	rows := []row{
		{ID: "a", WallS: 1, Count: 2, Cost: 3, Gone: bundle.None, Code: -1, Other: -0.2},
		{ID: "b", WallS: -3600, Count: -1, Cost: -1, Gone: bundle.None, Other: 0.1},
	}
	res := &Result{}
	NonNegative(res, "runs.csv", []int{2, 3}, rows, func(r row) string { return "run " + r.ID }, units, "cost_us", "other_cores")
	var have []string
	for _, p := range res.Problems {
		have = append(have, p.String())
	}
	want := []string{
		"runs.csv line 3 (run b): wall_s: have -3600, want 0 or more (rule non-negative: a quantity in s is never negative)",
		"runs.csv line 3 (run b): count: have -1, want 0 or more (rule non-negative: a quantity in 1 is never negative)",
	}
	if strings.Join(have, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems\n%s\nwant\n%s", strings.Join(have, "\n"), strings.Join(want, "\n"))
	}
}

func TestTimesAreInOrder(t *testing.T) {
	now := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	created := time.Date(2026, 11, 30, 16, 19, 18, 0, time.UTC)
	honest := func() (*bundle.Common, []Span) {
		m := &bundle.Common{CreatedUTC: created, FinishedUTC: created.Add(30 * time.Second)}
		return m, []Span{
			{File: "runs.csv", Line: 2, Key: "run a", Started: "2026-11-30T16:19:20Z", WallS: 10},
			{File: "runs.csv", Line: 3, Key: "run b", Started: "2026-11-30T16:19:30.5Z", WallS: 10},
		}
	}
	problems := func(m *bundle.Common, spans []Span) []string {
		res := &Result{}
		Times(res, m, spans, now)
		var out []string
		for _, p := range res.Problems {
			out = append(out, p.String())
		}
		return out
	}
	if p := problems(honest()); len(p) != 0 {
		t.Fatalf("the honest bundle: %q", p)
	}
	for _, c := range []struct {
		name, want string
		edit       func(m *bundle.Common, s []Span)
	}{
		{"finished 29 years before created", "manifest.json: finished_utc: have 1997-11-30T16:19:18Z, want at or after 2026-11-30T16:19:18Z",
			func(m *bundle.Common, _ []Span) { m.FinishedUTC = created.AddDate(-29, 0, 0) }},
		{"created before the kit", "manifest.json: created_utc: have 2025-12-31T23:59:59Z, want at or after 2026-01-01T00:00:00Z",
			func(m *bundle.Common, _ []Span) { m.CreatedUTC = KitEpoch.Add(-time.Second) }},
		{"finished in the future", "manifest.json: finished_utc: have 2026-12-03T00:00:01Z, want at most 2026-12-03T00:00:00Z",
			func(m *bundle.Common, _ []Span) { m.FinishedUTC = now.Add(FutureSkew + time.Second) }},
		{"a run in 1970", "runs.csv line 2 (run a): started_utc: have 1970-01-01T00:00:00Z, want at or after 2026-11-30T16:19:18Z",
			func(_ *bundle.Common, s []Span) { s[0].Started = "1970-01-01T00:00:00Z" }},
		{"a run in 2099", "runs.csv line 3 (run b): wall_s: have an end at 2099-01-01T00:00:10Z, want at most 2026-11-30T16:19:48Z",
			func(_ *bundle.Common, s []Span) { s[1].Started = "2099-01-01T00:00:00Z" }},
		{"a run past the finish", "runs.csv line 3 (run b): wall_s: have an end at 2026-11-30T16:19:50.5Z, want at most 2026-11-30T16:19:48Z",
			func(_ *bundle.Common, s []Span) { s[1].WallS = 20 }},
		{"two runs at once", "runs.csv line 3 (run b): started_utc: have 2026-11-30T16:19:30.5Z, want at or after 2026-11-30T16:19:31.6Z",
			func(_ *bundle.Common, s []Span) { s[0].WallS = 11.6 }},
		{"a start that is no time", `runs.csv line 2 (run a): started_utc: have "yesterday"`,
			func(_ *bundle.Common, s []Span) { s[0].Started = "yesterday" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, s := honest()
			c.edit(m, s)
			p := problems(m, s)
			if len(p) != 1 || !strings.HasPrefix(p[0], c.want) || !strings.Contains(p[0], "rule "+RuleTimes+":") {
				t.Fatalf("want one problem %q naming rule %s; have %q", c.want, RuleTimes, p)
			}
		})
	}
	// Within ClockSkew, a run may end a little past the next one's start: the wall clock
	// and the monotonic one.
	m, s := honest()
	s[0].WallS = 10.5 + ClockSkew.Seconds()
	if p := problems(m, s); len(p) != 0 {
		t.Errorf("a run ending within the clock skew of the next: %q", p)
	}
}

func TestAMeasuredColumnIsPresent(t *testing.T) {
	res := &Result{}
	Measured(res, "runs.csv", map[string]bool{"wrk_requests": true}, []string{"wrk_agreement"}, "wrk ran")
	if len(res.Problems) != 0 {
		t.Fatalf("a column present: %v", res.Problems)
	}
	Measured(res, "runs.csv", map[string]bool{"wrk_requests": true, "wrk_agreement": true}, []string{"wrk_agreement", "wrk_requests"}, "the manifest's parameters.wrk says wrk ran")
	if len(res.Problems) != 1 || res.Problems[0].String() != "runs.csv line 1: wrk_agreement, wrk_requests: rule measured-present: missing, though the manifest's parameters.wrk says wrk ran" {
		t.Fatalf("%v", res.Problems)
	}
}

func TestABoundedReaderReadsWithinItsRate(t *testing.T) {
	// fifo-py's slow reader: 262,144 B/s and reads of 4,096 bytes; 1.0016 x its bound
	// from its first read to its last, the first read's burst.
	if b := RateWithin(262144*1.0016*9.8, 9.8, 262144, 4096, "the reader's bound"); b != nil {
		t.Errorf("an archived run: %+v", b)
	}
	if b := RateWithin(262144*1.05*9.8, 9.8, 262144, 4096, "the reader's bound"); b == nil || b.Rule != RuleRateBound {
		t.Errorf("5%% over its bound: %+v", b)
	}
	if b := RateWithin(1e9, 9.8, 0, 4096, "no bound"); b != nil {
		t.Errorf("an unbounded reader: %+v", b)
	}
}

// A service the kit did not write may close each connection (HTTP/1.0): measured on
// Python's http.server, 5,750 req/s at a 1.36 ms mean kept 7.82 of 10 requests in
// flight. That is a real run, and the foreign share lets it be; the kit's own APIs keep
// their connections, and the same figures would break their rule.
func TestAForeignServiceMayCloseItsConnections(t *testing.T) {
	l := ClosedLoop{Connections: 10, Pipelining: 1, Responses: 5750 * 5, IntervalS: 5, MeanMs: 1.3599656925217376, MaxMs: 20, Busy: true}
	if b := l.Check(); b == nil {
		t.Fatal("78% in flight passes the kit's own APIs' rule")
	}
	l.BusyShare = LittleForeignBusyShare
	if b := l.Check(); b != nil {
		t.Fatalf("a foreign service's real run refused: %v", b)
	}
	l.Responses /= 5 // a rate scaled down by a fifth, latencies kept
	if b := l.Check(); b == nil {
		t.Fatal("a rate scaled down by a fifth passes the foreign rule")
	}
}

func TestTheMeasuredIntervalIsThePlannedDuration(t *testing.T) {
	for _, tc := range []struct {
		measured, planned float64
		verified, ok      bool
	}{
		{5, 5, true, true},
		{5.001, 5, true, true},   // at the skew
		{5.0011, 5, true, false}, // past it: more than planned
		{4.999, 5, true, true},
		{4.9989, 5, true, false}, // a verified run measured all of it
		{2, 5, false, true},      // a run stopped early, not data
		{6, 5, false, false},     // never more, data or not
		{5, 3600, true, false},   // an hour claimed of 5 s runs
		{math.NaN(), 5, true, true},
	} {
		b := MeasuredAsPlanned(tc.measured, tc.planned, tc.verified)
		if ok := b == nil; ok != tc.ok || !ok && b.Rule != RuleDuration {
			t.Errorf("measured %v of %v planned (verified %t): %+v", tc.measured, tc.planned, tc.verified, b)
		}
	}
}

func TestTheEnginesHostIsBelievable(t *testing.T) {
	for _, tc := range []struct {
		cpus, limitCPUs float64
		engineCPUs      int
		memory          int64
		problems        int
	}{
		{1, 1, 2, 8 << 30, 0},
		{2, 0, 2, 8 << 30, 0},         // a limit of all the host's CPUs, and none
		{0, 0, 0, 0, 0},               // not reported
		{2.5, 1, 2, 8 << 30, 1},       // a limit past the host's CPUs
		{1, 1, -2, 8 << 30, 1},        // no host has -2 CPUs (and no limit is held to it)
		{1, 1, MaxHostCPUs + 1, 1, 1}, // nor more than any host
		{1, 1, 2, MaxHostMemoryBytes + 1, 1},
		{1, 1, 2, -1, 1},
	} {
		res := &Result{}
		m := &bundle.Common{}
		m.Engine.CPUs, m.Engine.MemoryBytes = tc.engineCPUs, tc.memory
		Engine(res, m)
		CPULimitWithinHost(res, "parameters.limits.api_cpus", tc.cpus, m)
		CPULimitWithinHost(res, "parameters.limits.loadgen_cpus", tc.limitCPUs, m)
		if len(res.Problems) != tc.problems {
			t.Errorf("%+v: %v", tc, res.Problems)
		}
		for _, p := range res.Problems {
			if !strings.Contains(p.Msg, "rule "+RuleEngine+":") {
				t.Errorf("not rule %s: %s", RuleEngine, p)
			}
		}
	}
}

func TestAContainersLimitsAreTheOnesAsked(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		name                string
		readCores, asked    float64
		readBytes, askedMem int64
		wantCPU, wantMemory bool
	}{
		{"as asked", 1, 1, 512 * mib, 512 * mib, true, true},
		{"a quota rounded to the microsecond", 1.001, 1, 0, 0, true, true},
		{"a tenth of a percent of a core more", 1.0011, 1, 0, 0, false, true},
		{"memory rounded down to a page", 0.5, 0.5, 512*mib - 4<<10, 512 * mib, true, true},
		{"memory 64 KiB short", 0.5, 0.5, 512*mib - 64<<10, 512 * mib, true, false},
		{"memory a byte over", 0.5, 0.5, 512*mib + 1, 512 * mib, true, false},
		{"a limit asked, none read", 0, 0, 0, 512 * mib, true, false},
		{"a limit under a page asked, none read", 0, 0, 0, 32 << 10, true, false},
	} {
		cpu, memory := CPULimitApplied(tc.readCores, tc.asked), MemoryLimitApplied(tc.readBytes, tc.askedMem)
		if cpu != tc.wantCPU || memory != tc.wantMemory {
			t.Errorf("%s: cpu %t memory %t, want %t %t", tc.name, cpu, memory, tc.wantCPU, tc.wantMemory)
		}
	}
}
