package capacity

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// fakeAPI is a service whose p99 rises with the rate offered: flat at base below its
// knee, then steeply, so that it is within slo up to exactly capacity req/s.
type fakeAPI struct {
	capacity float64 // the highest rate whose p99 is within slo
	slo      float64 // ms
	// noise, when set, multiplies each step's p99 by a factor around 1.
	noise func() float64
	// generatorLimit, when above 0, is the rate from which the generator falls behind.
	generatorLimit float64
}

func (f fakeAPI) p99(rate float64) float64 {
	base := f.slo / 4
	if rate <= f.capacity {
		// Rising, but reaching the target only at the capacity.
		return base + (f.slo-base)*math.Pow(rate/f.capacity, 4)
	}
	return f.slo * (1 + 10*(rate-f.capacity)/f.capacity)
}

func (f fakeAPI) step(rate float64) Step {
	if f.generatorLimit > 0 && rate >= f.generatorLimit {
		return Step{rate, GeneratorLimited}
	}
	p := f.p99(rate)
	if f.noise != nil {
		p *= f.noise()
	}
	if p <= f.slo {
		return Step{rate, Held}
	}
	return Step{rate, Failed}
}

// search runs the rule against api to its end, as reproduce does.
func search(t *testing.T, r Rule, api func(float64) Step) ([]Step, Result) {
	t.Helper()
	var steps []Step
	for range 100 {
		j := r.Judge(steps)
		if j.Done() {
			if err := r.Check(steps, true); err != nil {
				t.Fatalf("the rule's own steps do not pass its check: %v", err)
			}
			return steps, j
		}
		steps = append(steps, api(j.NextRPS))
	}
	t.Fatalf("no end after 100 steps: %v", steps)
	return nil, Result{}
}

var rule = Rule{StartRPS: 100, Factor: 2, Resolution: 0.1, MaxSteps: 20}

func TestFindsTheKnownCapacity(t *testing.T) {
	for _, capacity := range []float64{3, 60, 100, 150, 999, 3900, 9800, 12345, 77777} {
		api := fakeAPI{capacity: capacity, slo: 10}
		steps, res := search(t, rule, api.step)
		if res.Stop != Resolved {
			t.Fatalf("capacity %v: stopped %q, want resolved; steps %v", capacity, res.Stop, steps)
		}
		if !(res.HeldRPS <= capacity && capacity < res.FailedRPS) {
			t.Errorf("capacity %v: held %v, failed %v: the capacity is not between them", capacity, res.HeldRPS, res.FailedRPS)
		}
		if res.FailedRPS > res.HeldRPS*(1+rule.Resolution) && res.FailedRPS-res.HeldRPS > 1 {
			t.Errorf("capacity %v: held %v, failed %v: not within %v", capacity, res.HeldRPS, res.FailedRPS, rule.Resolution)
		}
		if res.HeldRPS < capacity/(1+rule.Resolution)-1 {
			t.Errorf("capacity %v: found %v, further below it than the resolution", capacity, res.HeldRPS)
		}
	}
}

func TestGrowsGeometricallyThenBisects(t *testing.T) {
	api := fakeAPI{capacity: 500, slo: 10}
	steps, res := search(t, rule, api.step)
	want := []float64{100, 200, 400, 800, 600, 500, 550}
	if len(steps) != len(want) {
		t.Fatalf("steps %v, want rates %v", steps, want)
	}
	for i, s := range steps {
		if s.RateRPS != want[i] {
			t.Fatalf("step %d at %v, want %v (steps %v)", i+1, s.RateRPS, want[i], steps)
		}
	}
	if res.HeldRPS != 500 || res.FailedRPS != 550 {
		t.Errorf("held %v failed %v, want 500 and 550", res.HeldRPS, res.FailedRPS)
	}
	if have := res.Text(); have != "500 req/s (550 failed)" {
		t.Errorf("text %q", have)
	}
}

func TestNoisyLatencyStaysNearTheCapacity(t *testing.T) {
	// Each step's p99 off by up to ±3%: the rate at which the curve crosses the target
	// moves by under 1% (the curve rises steeply past the knee, as a saturated queue's
	// does), so the search still lands within its resolution of the true capacity.
	for seed := range uint64(50) {
		rng := rand.New(rand.NewPCG(seed, 7))
		api := fakeAPI{capacity: 4321, slo: 10, noise: func() float64 { return 1 + 0.06*(rng.Float64()-0.5) }}
		_, res := search(t, rule, api.step)
		lo, hi := 4321/1.01, 4321*1.01
		if res.Stop != Resolved || res.HeldRPS > hi || res.FailedRPS < lo || res.HeldRPS < lo/(1+rule.Resolution)-1 {
			t.Errorf("seed %d: %s (stopped %s), want a capacity within %v of 4321", seed, res.Text(), res.Stop, rule.Resolution)
		}
	}
}

func TestNonMonotoneSaysWhatItSaw(t *testing.T) {
	// A hiccup at 200 req/s of a service that carries 5,000: the search cannot know
	// better than its steps, and says the rates it saw held and fail, one above the
	// other, within its resolution. It never claims a rate that did not hold.
	api := fakeAPI{capacity: 5000, slo: 10}
	hiccup := func(r float64) Step {
		if r == 200 {
			return Step{r, Failed}
		}
		return api.step(r)
	}
	steps, res := search(t, rule, hiccup)
	if res.Stop != Resolved || res.FailedRPS != 200 || res.HeldRPS < 200/1.1 {
		t.Fatalf("%s after %v", res.Text(), steps)
	}
	held := false
	for _, s := range steps {
		if s.RateRPS == res.HeldRPS && s.Outcome == Held {
			held = true
		}
	}
	if !held {
		t.Errorf("capacity %v is no step that held: %v", res.HeldRPS, steps)
	}

	// A service that fails once in the bisection and holds above it: the bisection
	// narrows below the failure, never above.
	flaky := func(r float64) Step {
		if r == 6000 {
			return Step{r, Failed}
		}
		return api.step(r)
	}
	steps, res = search(t, rule, flaky)
	if !(res.HeldRPS < res.FailedRPS && res.FailedRPS <= 6400) {
		t.Errorf("%s after %v", res.Text(), steps)
	}
}

func TestGeneratorLimitEndsTheSearch(t *testing.T) {
	api := fakeAPI{capacity: 50000, slo: 10, generatorLimit: 3000}
	steps, res := search(t, rule, api.step)
	if res.Stop != Limited || res.HeldRPS != 1600 || res.LimitedRPS != 3200 || res.FailedRPS != 0 {
		t.Fatalf("%+v after %v", res, steps)
	}
	if have := res.Text(); have != "at least 1,600 req/s (limited by the generator at 3,200)" {
		t.Errorf("text %q", have)
	}
}

func TestStartAboveTheCapacityStepsDown(t *testing.T) {
	api := fakeAPI{capacity: 30, slo: 10}
	steps, res := search(t, rule, api.step)
	if steps[1].RateRPS != 50 || steps[2].RateRPS != 25 || res.Stop != Resolved || res.HeldRPS > 30 || res.FailedRPS <= 30 {
		t.Errorf("%s after %v", res.Text(), steps)
	}
	none := func(r float64) Step { return Step{r, Failed} }
	_, res = search(t, rule, none)
	if res.Stop != Floor || res.HeldRPS != 0 || res.FailedRPS != 1 {
		t.Errorf("a service that holds nothing: %+v", res)
	}
	all := func(r float64) Step { return Step{r, Held} }
	_, res = search(t, rule, all)
	if res.Stop != Ceiling || res.HeldRPS != MaxRate {
		t.Errorf("a service that holds everything: %+v", res)
	}
}

func TestMaxStepsBoundsTheSearch(t *testing.T) {
	r := rule
	r.MaxSteps = 4
	api := fakeAPI{capacity: 9800, slo: 10}
	steps, res := search(t, r, api.step)
	if len(steps) != 4 || res.Stop != MaxSteps || res.HeldRPS != 800 || res.FailedRPS != 0 {
		t.Errorf("%+v after %v", res, steps)
	}
}

func TestCheckRefusesAForgedSearch(t *testing.T) {
	api := fakeAPI{capacity: 500, slo: 10}
	steps, _ := search(t, rule, api.step)
	for name, forge := range map[string]func([]Step) []Step{
		"a rate moved": func(s []Step) []Step { s[5].RateRPS = 520; return s },
		"an outcome flipped": func(s []Step) []Step {
			s[4].Outcome = Held // 600 held: the next would be 700, not 500
			return s
		},
		"a step after the end": func(s []Step) []Step { return append(s, Step{530, Held}) },
		"a step left out":      func(s []Step) []Step { return append(s[:3:3], s[4:]...) },
	} {
		forged := forge(append([]Step(nil), steps...))
		if err := rule.Check(forged, true); !errors.Is(err, ErrNotTheRule) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := rule.Check(steps[:3], false); err != nil {
		t.Errorf("an interrupted search: %v", err)
	}
	if err := rule.Check(steps[:3], true); !errors.Is(err, ErrNotTheRule) {
		t.Errorf("an unfinished search said complete: %v", err)
	}
}

func TestRuleCheck(t *testing.T) {
	for _, bad := range []Rule{{0, 2, 0.1, 10}, {100, 1, 0.1, 10}, {100, 2, 0, 10}, {100, 2, 0.1, 1}, {100, 2, 0.1, 51}, {200000, 2, 0.1, 10}} {
		if bad.Valid() == nil {
			t.Errorf("%+v passes", bad)
		}
	}
	if err := rule.Valid(); err != nil {
		t.Error(err)
	}
}
