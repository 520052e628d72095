package capacitysearch

import (
	"flag"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
)

// params are a toy experiment's: its search and nothing else.
type params struct {
	Capacity Capacity
	retries  int
}

func (*params) Bind(*flag.FlagSet) {}
func (*params) Check() error       { return nil }

// run is a toy row of runs: a step's run as the experiment reads it.
type run struct {
	config, step     string
	p99, lag, cores  float64
	net              float64 // the p99 less each send lag; 0: an earlier kit's run, missing
	carried          float64
	verified, redone bool
	errors           int64
	attempt          int
}

var toy = &Search[*params, run]{
	Of:       func(p *params) *Capacity { return &p.Capacity },
	Subjects: func(*params) []tabular.Cell { return []tabular.Cell{{"go", "none"}, {"go", "console"}} },
	Baseline: func(_ *params, subject string) string { return strings.Split(subject, "/")[0] + "/none" },
	Attempt: func(_ *params, r run) (Attempt, bool) {
		return Attempt{Subject: r.config, Step: r.step, RunID: r.config + "/" + r.step, Superseded: r.redone, Data: r.verified,
			P50Ms: bundle.Opt(r.p99 / 2), P99Ms: bundle.Opt(r.p99), Errors: r.errors, CarriedRPS: bundle.Opt(r.carried),
			SendLagP99Ms: bundle.Opt(r.lag), NetP99Ms: netOf(r), GeneratorCores: bundle.Opt(r.cores), Number: r.attempt}, r.step != ""
	},
	Generator: func(*params) Generator { return Generator{MaxSendLagP99Ms: 1, CPUs: 1} },
	Retries:   func(p *params) int { return p.retries },
}

func netOf(r run) bundle.Opt {
	if r.net == 0 {
		return bundle.None
	}
	return bundle.Opt(r.net)
}

// TestAStepHoldsOnlyWhenTheServiceCarriedItsRate: within the target, with no error,
// verified and carried, however late the generator sent; a step that missed while the
// generator was late or busy is the generator's limit, never the service's.
func TestAStepHoldsOnlyWhenTheServiceCarriedItsRate(t *testing.T) {
	p := &params{Capacity: Capacity{SLOP99Ms: 10, StartRPS: 100, Factor: 2, Resolution: 0.1, MaxSteps: 12,
		Steps: []PlannedStep{{Config: "go/none", Step: 1, RateRPS: 100}}}}
	ok := run{config: "go/none", step: "step1", p99: 5, net: 4.9, lag: 0.1, cores: 0.2, carried: 100, verified: true}
	for _, tc := range []struct {
		name        string
		edit        func(r *run)
		held, limit bool
	}{
		{"within the target", func(*run) {}, true, false},
		{"over the target", func(r *run) { r.p99 = 11 }, false, false},
		{"an error", func(r *run) { r.errors = 1 }, false, false},
		{"not verified", func(r *run) { r.verified = false }, false, false},
		{"fewer carried", func(r *run) { r.carried = 89 }, false, false},
		{"late sends within the target", func(r *run) { r.lag = 1.5 }, true, false},
		{"a busy generator within the target", func(r *run) { r.cores = 0.95 }, true, false},
		{"late sends over the target, within it without them", func(r *run) { r.lag, r.p99, r.net = 1.5, 11, 9.5 }, false, true},
		{"late sends over the target, an earlier kit's run", func(r *run) { r.lag, r.p99, r.net = 1.5, 11, 0 }, false, true},
		{"late sends over the target, over it without them too", func(r *run) { r.lag, r.p99, r.net = 1.5, 20, 18.5 }, false, false},
		{"late sends and fewer carried", func(r *run) { r.lag, r.carried = 1.5, 80 }, false, true},
		{"a busy generator that carried fewer", func(r *run) { r.cores, r.carried = 0.95, 80 }, false, true},
		{"late sends and an error", func(r *run) { r.lag, r.errors = 1.5, 1 }, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ok
			tc.edit(&r)
			steps := toy.Steps(p, []run{r})
			if len(steps) != 1 || steps[0].Held != tc.held || steps[0].GeneratorLimited != tc.limit || steps[0].RateRPS != 100 {
				t.Errorf("have %+v, want held %v, generator-limited %v at 100 req/s", steps, tc.held, tc.limit)
			}
		})
	}
}

// searched is the toy's search of go/none and go/console, searches of each, run to its
// end against a service whose p99 leaves 10 ms above knee(config, search): the
// parameters, the bundle, its growth, and the steps in the order they ran.
func searched(t *testing.T, searches int, knee func(config string, search int) float64) (*params, *tabular.Bundle[*params, run], Growth[*params, run], []string) {
	t.Helper()
	var f Flags
	fs := flag.NewFlagSet("toy", flag.ContinueOnError)
	f.Bind(fs, "the open loop")
	if err := fs.Parse([]string{"--capacity", "--slo-p99", "10ms", "--capacity-max-steps", "20"}); err != nil {
		t.Fatal(err)
	}
	names := []string{"go/none", "go/console"}
	if err := f.Check(Capacity{}, names, searches); err != nil {
		t.Fatal(err)
	}
	p := &params{Capacity: f.Settle(names, searches)}
	if err := f.Check(p.Capacity, names, 1); err != nil {
		t.Fatal(err)
	}
	b := &tabular.Bundle[*params, run]{}
	b.M = &tabular.Standard[*params]{Parameters: p}
	g := toy.Growth(b)
	var order []string
	for range 40 {
		for _, c := range toy.Conditions(p) {
			if slices.ContainsFunc(b.Runs, func(r run) bool { return r.config == c[:2].String() && r.step == c[2] }) {
				continue
			}
			search, _, ok := StepOf(c[2])
			if !ok {
				t.Fatalf("condition %v names no step", c)
			}
			rate := toy.RateOf(p, c)
			r := run{config: c[:2].String(), step: c[2], p99: 2, lag: 0.1, cores: 0.2, carried: rate, verified: true}
			if rate > knee(r.config, search) {
				r.p99 = 50
			}
			b.Runs = append(b.Runs, r)
			order = append(order, c[2])
		}
		added, err := g.Grow()
		if err != nil {
			t.Fatal(err)
		}
		if len(added) == 0 {
			break
		}
	}
	return p, b, g, order
}

// TestTheSearchGrowsAndSaysItsCapacities: every subject's search takes the rule's
// steps against a knee, the plan growing a step a subject, and the lines set each
// capacity against its baseline's.
func TestTheSearchGrowsAndSaysItsCapacities(t *testing.T) {
	p, b, g, _ := searched(t, 1, func(config string, _ int) float64 {
		return map[string]float64{"go/none": 3000, "go/console": 1200}[config]
	})
	lines := toy.Lines(p, b.Runs)
	want := []string{"go/none: 3,000 req/s (3,200 failed) at p99 ≤ 10ms",
		"go/console: 1,200 req/s (1,300 failed) at p99 ≤ 10ms against 3,000 for the baseline go/none (−60%)"}
	if !slices.Equal(lines, want) {
		t.Errorf("have %q\nwant %q", lines, want)
	}
	if n := len(p.Capacity.Steps); n != 17 || g.MostRuns() != 40 {
		t.Errorf("%d steps planned, at most %d runs", n, g.MostRuns())
	}
	var out strings.Builder
	toy.WriteSummary(b, &out)
	if !strings.Contains(out.String(), "CAPACITY go/console: 1,200 req/s") {
		t.Errorf("summary:\n%s", out.String())
	}
	toy.WriteSummary(b, io.Discard)
}

// TestSearchesInRoundsGiveAnInterval: three searches of each subject, each against a
// knee of its own (the service's capacity varies round to round), interleaved; each
// subject's capacity is their mean with a t interval over the searches, its change
// against the baseline tested on them, and compare's row carries the searches as runs.
func TestSearchesInRoundsGiveAnInterval(t *testing.T) {
	knees := map[string][]float64{"go/none": {3000, 2800, 3200}, "go/console": {1200, 1100, 1300}}
	p, b, g, order := searched(t, 3, func(config string, round int) float64 { return knees[config][round-1] })
	if order[0] != "step1" || order[2] != "round2-step1" || order[4] != "round3-step1" || order[6] != "step2" {
		t.Errorf("the searches' steps are not interleaved: %v", order[:8])
	}
	found := toy.Found(p, b.Runs)
	if len(found) != 2 || len(found[0].Searches) != 3 || !found[0].Exact() || found[0].Estimate.Value != 3000 || !found[0].Estimate.HasInterval() {
		t.Fatalf("found %+v", found)
	}
	lines := toy.Lines(p, b.Runs)
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "go/none: 3,000 req/s [2,503, 3,497] over 3 searches (3,000, 2,800, 3,200) at p99 ≤ 10ms") ||
		!strings.Contains(lines[1], "against 3,000 for the baseline go/none (−60% [") || !strings.Contains(lines[1], "p=") {
		t.Errorf("lines %q", lines)
	}
	rows := toy.Rows(p, b.Runs, func(subject string) []compare.KV { return []compare.KV{{Key: "config", Value: subject}} })
	if len(rows) != 2 || len(rows[0].Runs) != 3 || len(rows[0].Marks) != 0 {
		t.Errorf("rows %+v", rows)
	}
	if e := compare.Estimate(rows[1]); e.Value != 1200 || e.IntervalText() != found[1].Estimate.IntervalText() {
		t.Errorf("compare's estimate %+v, the lines' %+v", e, found[1].Estimate)
	}
	if g.MostRuns() != 2*3*20 {
		t.Errorf("at most %d runs", g.MostRuns())
	}
	for _, bad := range []string{"round1-step1", "round0-step1", "round2-step0", "round2step1", "step", "round2-", "step1-round2"} {
		if _, _, ok := StepOf(bad); ok {
			t.Errorf("StepOf(%q) names a step", bad)
		}
	}
	// One search of the three interrupted: a bound, no interval, no change.
	short := slices.DeleteFunc(slices.Clone(b.Runs), func(r run) bool {
		return r.config == "go/none" && strings.HasPrefix(r.step, "round3-") && r.step != "round3-step1"
	})
	lines = toy.Lines(p, short)
	if !strings.Contains(lines[0], "not every search found it") || !strings.Contains(lines[1], "no change against the baseline go/none") {
		t.Errorf("lines with a search interrupted %q", lines)
	}
	if rows := toy.Rows(p, short, func(subject string) []compare.KV { return []compare.KV{{Key: "config", Value: subject}} }); len(rows[0].Marks) != 1 {
		t.Errorf("the interrupted search is not marked: %+v", rows[0])
	}
}

// TestTheFlagsAreTheSearchsRules: a setting without --capacity, and settings out of
// their bounds, are refused in one line naming the flag.
func TestTheFlagsAreTheSearchsRules(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--slo-p99", "10ms"}, "--slo-p99: a setting of --capacity, which is not given"},
		{[]string{"--capacity", "--capacity-resolution", "0"}, "--capacity-resolution 0%"},
		{[]string{"--capacity", "--capacity-max-steps", "1"}, "--capacity-max-steps 1"},
		{[]string{"--capacity", "--capacity-start", "0"}, "--capacity-start 0"},
	} {
		var f Flags
		fs := flag.NewFlagSet("toy", flag.ContinueOnError)
		f.Bind(fs, "the open loop")
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		err := f.Unused()
		if err == nil {
			err = f.Check(Capacity{}, []string{"none"}, 1)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: have %v, want %q", tc.args, err, tc.want)
		}
	}
}

// TestAGeneratorLimitedStepIsRetriedWhileAttemptsLast: only a step the generator
// limited is performed again, and only up to the parameters' retries; a step that held
// however late, one that failed for the service, a run of no step and a bundle that is
// no search are not.
func TestAGeneratorLimitedStepIsRetriedWhileAttemptsLast(t *testing.T) {
	p := &params{retries: 1, Capacity: Capacity{SLOP99Ms: 10, StartRPS: 100, Factor: 2, Resolution: 0.1, MaxSteps: 12,
		Steps: []PlannedStep{{Config: "go/none", Step: 1, RateRPS: 100}}}}
	late := run{config: "go/none", step: "step1", p99: 30, net: 5, lag: 20, cores: 0.2, carried: 100, verified: true, attempt: 1}
	for _, tc := range []struct {
		name string
		edit func(p *params, r *run)
		want bool
	}{
		{"late and missed, first attempt", func(*params, *run) {}, true},
		{"late and missed, retries used", func(_ *params, r *run) { r.attempt = 2 }, false},
		{"no retries", func(p *params, _ *run) { p.retries = 0 }, false},
		{"held however late", func(_ *params, r *run) { r.p99 = 5 }, false},
		{"missed for the service", func(_ *params, r *run) { r.net = 25 }, false},
		{"no step", func(_ *params, r *run) { r.step = "" }, false},
		{"no search", func(p *params, _ *run) { p.Capacity = Capacity{Steps: p.Capacity.Steps} }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			have, r := *p, late
			tc.edit(&have, &r)
			if got := toy.Retry(&have, r); got != tc.want {
				t.Errorf("Retry = %v, want %v", got, tc.want)
			}
		})
	}
}
