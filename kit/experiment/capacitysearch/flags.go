package capacitysearch

import (
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/capacity"
)

var usagef = experiment.Usagef

// Flags are --capacity and its settings as given, made the manifest's Capacity once
// checked (Settle). A manifest has none: its parameters hold their Capacity alone.
type Flags struct {
	on                             bool
	slo, start, resolution         float64
	maxSteps                       int
	givenSLO, givenStart, givenRes bool
	givenSteps, givenArrivals      bool
}

// Bind declares --capacity and its settings at their defaults; what the search
// implies beyond them (the open loop, one round) is the experiment's to say in
// implies.
func (f *Flags) Bind(fs *flag.FlagSet, implies string) {
	f.slo, f.start, f.resolution, f.maxSteps = DefaultSLOP99Ms, DefaultStartRPS, DefaultResolution, DefaultMaxSteps
	fs.BoolVar(&f.on, "capacity", false, "search each configuration's capacity: the highest open-loop rate whose p99 from the scheduled send stays within --slo-p99 with no error (steps x2 from --capacity-start, then bisection; "+implies+")")
	experiment.Given(fs, &f.givenSLO, func(fs *flag.FlagSet) {
		fs.Var(experiment.Milliseconds(&f.slo), "slo-p99", "with --capacity: the latency target, the p99 a step must stay within")
	})
	experiment.Given(fs, &f.givenStart, func(fs *flag.FlagSet) {
		fs.Float64Var(&f.start, "capacity-start", f.start, "with --capacity: the first step's rate, requests per second")
	})
	experiment.Given(fs, &f.givenRes, func(fs *flag.FlagSet) {
		fs.Var(fractionValue{&f.resolution}, "capacity-resolution", "with --capacity: stop once the failed rate is within this share above the held one, such as 10%")
	})
	experiment.Given(fs, &f.givenSteps, func(fs *flag.FlagSet) {
		fs.IntVar(&f.maxSteps, "capacity-max-steps", f.maxSteps, "with --capacity: the most steps of one configuration's search")
	})
}

// BindArrivals declares --arrivals, the open loop's arrival process, bound to
// arrivals; with says when the flag applies ("--load open").
func (f *Flags) BindArrivals(fs *flag.FlagSet, arrivals *string, with string) {
	experiment.Given(fs, &f.givenArrivals, func(fs *flag.FlagSet) {
		fs.StringVar(arrivals, "arrivals", *arrivals, "the open loop's arrivals: constant (every 1/rate) or poisson (exponential gaps of mean 1/rate, the same seeded schedule in every run; with "+with+")")
	})
}

// CheckArrivals: an arrival process the generator has, given only with the open load
// (open false: the load is not open, as without says: "with --load closed").
func (f Flags) CheckArrivals(arrivals string, open bool, without string) error {
	switch {
	case arrivals != "" && arrivals != contract.ArrivalsConstant && arrivals != contract.ArrivalsPoisson:
		return usagef("--arrivals %q: want constant or poisson", arrivals)
	case f.givenArrivals && !open:
		return usagef("--arrivals does nothing %s", without)
	}
	return nil
}

// On says --capacity was given.
func (f Flags) On() bool { return f.on }

// Unused refuses a setting of the search without --capacity.
func (f Flags) Unused() error {
	if f.on {
		return nil
	}
	for _, g := range []struct {
		name  string
		given bool
	}{{"slo-p99", f.givenSLO}, {"capacity-start", f.givenStart}, {"capacity-resolution", f.givenRes}, {"capacity-max-steps", f.givenSteps}} {
		if g.given {
			return usagef("--%s: a setting of --capacity, which is not given", g.name)
		}
	}
	return nil
}

// search is the flags' search, no step planned yet.
func (f Flags) search() Capacity {
	return Capacity{SLOP99Ms: f.slo, StartRPS: f.start, Factor: capacity.DefaultFactor, Resolution: f.resolution, MaxSteps: f.maxSteps}
}

// Check holds --capacity's settings, or without them a manifest's search (recorded),
// to their rules: the subjects are what the plan searches (Search.Names), rounds the
// plan's rounds: --reps, the searches of each subject, with the flags; one in a
// manifest, whose search records its own searches.
func (f Flags) Check(recorded Capacity, subjects []string, rounds int) error {
	c := recorded
	if f.on {
		c = f.search()
	}
	if !c.On() && !f.on {
		return nil
	}
	switch {
	case !(c.SLOP99Ms > 0 && c.SLOP99Ms <= 60000):
		return usagef("--slo-p99 %s: want more than 0 and at most 1m", experiment.FormatSeconds(c.SLOP99Ms/1e3))
	case !(c.StartRPS >= capacity.MinRate && c.StartRPS <= capacity.MaxRate):
		return usagef("--capacity-start %v: want %d to %d requests per second", c.StartRPS, capacity.MinRate, capacity.MaxRate)
	case !(c.Resolution >= 0.01 && c.Resolution <= 1):
		return usagef("--capacity-resolution %s: want 1%% to 100%%", strconv.FormatFloat(c.Resolution*100, 'g', -1, 64)+"%")
	case c.MaxSteps < 2 || c.MaxSteps > 50:
		return usagef("--capacity-max-steps %d: want 2 to 50", c.MaxSteps)
	}
	if err := c.Rule().Valid(); err != nil {
		return usagef("capacity: %v", err)
	}
	if !f.on && rounds != 1 {
		return usagef("capacity: %d rounds; a search's steps are one run each, in one round", rounds)
	}
	// With the flags no step is planned yet, and --reps, the searches, is the plan's to
	// check (experiment.CheckRounds); a manifest's search records its own.
	searches := c.Searches()
	if searches > experiment.MaxRounds {
		return usagef("capacity: %d searches of each configuration: want 1 to %d", searches, experiment.MaxRounds)
	}
	if len(c.Steps) > len(subjects)*searches*c.MaxSteps {
		return usagef("capacity: %d steps planned, more than %d configurations x %d searches x %d", len(c.Steps), len(subjects), searches, c.MaxSteps)
	}
	for _, s := range c.Steps {
		if !slices.Contains(subjects, s.Config) || s.Step < 1 || s.Step > c.MaxSteps || s.Round < 0 || s.Round == 1 || s.Round > searches ||
			!(s.RateRPS >= capacity.MinRate && s.RateRPS <= capacity.MaxRate) {
			return usagef("capacity: step %d of %q's search %d at %v req/s: want a configuration's step 1 to %d of search 1 to %d at %d to %d req/s",
				s.Step, s.Config, s.search(), s.RateRPS, c.MaxSteps, searches, capacity.MinRate, capacity.MaxRate)
		}
	}
	return nil
}

// Settle is the flags made the manifest's search, searches of each subject (--reps),
// every search's first step planned; zero without --capacity.
func (f Flags) Settle(subjects []string, searches int) Capacity {
	if !f.on {
		return Capacity{}
	}
	c := f.search()
	if searches > 1 {
		c.Rounds = searches
	}
	first := c.Rule().Judge(nil).NextRPS
	for round := 1; round <= c.Searches(); round++ {
		for _, name := range subjects {
			c.Steps = append(c.Steps, PlannedStep{Config: name, Round: roundField(round), Step: 1, RateRPS: first})
		}
	}
	return c
}

// FirstRPS is the rate every search starts at.
func (c Capacity) FirstRPS() float64 { return c.Rule().Judge(nil).NextRPS }

// fractionValue is a share given as a percentage ("10%") or a fraction ("0.1").
type fractionValue struct{ v *float64 }

func (f fractionValue) String() string {
	if f.v == nil {
		return ""
	}
	return strconv.FormatFloat(*f.v*100, 'g', -1, 64) + "%"
}
func (f fractionValue) Set(s string) error {
	t := strings.TrimSpace(s)
	pct, isPct := strings.CutSuffix(t, "%")
	x, err := strconv.ParseFloat(strings.TrimSpace(pct), 64)
	if err != nil {
		return fmt.Errorf("want a share such as 10%% or 0.1")
	}
	if isPct {
		x /= 100
	}
	*f.v = x
	return nil
}
