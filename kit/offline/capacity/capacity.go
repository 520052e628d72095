// Package capacity is the rule of a search for the highest rate a service carries
// within a latency target: geometric steps up from a start rate until a step fails,
// then bisection between the last rate held and the first failed until the two are
// within a resolution. A step whose load generator, not the service, was the limit
// ends the search: the capacity is then at least the last rate held.
//
// The rule is pure: given the steps so far and their outcomes it says the next rate,
// or that the search is done and what it found. reproduce plans each step by it, and
// verify replays it on a bundle's steps, so a bundle whose steps do not follow it (a
// forged capacity) is refused.
package capacity

import (
	"errors"
	"fmt"
	"math"
)

// Outcome is how one step went.
type Outcome int

const (
	// Held: the service answered every request within the target.
	Held Outcome = iota
	// Failed: the service missed the target (its p99 over it, or errors).
	Failed
	// GeneratorLimited: the load generator could not keep its schedule (late sends,
	// its CPU at its limit); the step says nothing of the service.
	GeneratorLimited
)

func (o Outcome) String() string {
	switch o {
	case Held:
		return "held"
	case Failed:
		return "failed"
	case GeneratorLimited:
		return "generator-limited"
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// Step is one step of a search: the rate offered and how it went.
type Step struct {
	RateRPS float64
	Outcome Outcome
}

// The bounds of a rate: the open loop's own (--rate 1 to 100000 req/s).
const (
	MinRate = 1
	MaxRate = 100000
)

// Rule is a search's settings.
type Rule struct {
	// StartRPS is the first step's rate.
	StartRPS float64
	// Factor multiplies the rate while every step holds (and divides it while none
	// has), above 1.
	Factor float64
	// Resolution ends the bisection once the failed rate is within this share above
	// the held one: 0.1 is 10%.
	Resolution float64
	// MaxSteps bounds the steps of one search.
	MaxSteps int
}

// DefaultFactor is the geometric step.
const DefaultFactor = 2

// Valid refuses settings no search can have.
func (r Rule) Valid() error {
	switch {
	case !(r.StartRPS >= MinRate && r.StartRPS <= MaxRate):
		return fmt.Errorf("start %v req/s: want %d to %d", r.StartRPS, MinRate, MaxRate)
	case !(r.Factor > 1 && r.Factor <= 10):
		return fmt.Errorf("factor %v: want above 1, at most 10", r.Factor)
	case !(r.Resolution >= 0.01 && r.Resolution <= 1):
		return fmt.Errorf("resolution %v: want 1%% to 100%%", r.Resolution)
	case r.MaxSteps < 2 || r.MaxSteps > 50:
		return fmt.Errorf("max steps %d: want 2 to 50", r.MaxSteps)
	}
	return nil
}

// Stop says why a search ended.
type Stop string

const (
	// Going: the search is not done.
	Going Stop = ""
	// Resolved: the held and failed rates are within the resolution, or no whole rate
	// lies between them.
	Resolved Stop = "resolved"
	// Limited: the load generator was the limit at the last step.
	Limited Stop = "generator-limited"
	// MaxSteps: the steps ran out before the rates were within the resolution.
	MaxSteps Stop = "max-steps"
	// Ceiling: every step held up to MaxRate.
	Ceiling Stop = "ceiling"
	// Floor: every step failed down to MinRate.
	Floor Stop = "floor"
)

// Result is where a search stands after its steps.
type Result struct {
	// Held is the highest rate held below the lowest failed (0: none held); Failed the
	// lowest failed rate (0: none failed).
	HeldRPS, FailedRPS float64
	// LimitedRPS is the rate at which the generator was the limit (0: it never was).
	LimitedRPS float64
	// Stop says why the search ended (Going while it goes on).
	Stop Stop
	// Next is the next step's rate while the search goes on.
	NextRPS float64
}

// Done says whether the search has ended.
func (r Result) Done() bool { return r.Stop != Going }

// Judge replays steps by the rule and says where the search stands. It does not ask
// whether the steps' rates are the rule's: Check does.
func (r Rule) Judge(steps []Step) Result {
	var res Result
	if len(steps) == 0 {
		res.NextRPS = rate(r.StartRPS)
		return res
	}
	for _, s := range steps {
		switch s.Outcome {
		case Held:
			res.HeldRPS = s.RateRPS
		case Failed:
			res.FailedRPS = s.RateRPS
		case GeneratorLimited:
			res.LimitedRPS = s.RateRPS
		}
	}
	last := steps[len(steps)-1]
	switch {
	case last.Outcome == GeneratorLimited:
		res.Stop = Limited
		return res
	case res.FailedRPS == 0:
		if last.RateRPS >= MaxRate {
			res.Stop = Ceiling
			return res
		}
		res.NextRPS = rate(math.Min(last.RateRPS*r.Factor, MaxRate))
	case res.HeldRPS == 0:
		if last.RateRPS <= MinRate {
			res.Stop = Floor
			return res
		}
		res.NextRPS = rate(math.Max(last.RateRPS/r.Factor, MinRate))
	default:
		lo, hi := res.HeldRPS, res.FailedRPS
		mid := rate((lo + hi) / 2)
		if hi <= lo*(1+r.Resolution) || mid <= lo || mid >= hi {
			res.Stop = Resolved
			return res
		}
		res.NextRPS = mid
	}
	if len(steps) >= r.MaxSteps {
		res.Stop, res.NextRPS = MaxSteps, 0
	}
	return res
}

// rate rounds a rate to whole requests per second, as the steps offer them.
func rate(x float64) float64 { return math.Max(MinRate, math.Round(x)) }

// ErrNotTheRule is a sequence of steps the rule would not have taken.
var ErrNotTheRule = errors.New("not the search's rule")

// Check holds steps to the rule: each step's rate is the one the steps before it
// give, and none follows the search's end. complete says whether the steps must reach
// the end (a bundle whose search finished) or may stop short of it (an interrupted
// one).
func (r Rule) Check(steps []Step, complete bool) error {
	for i, s := range steps {
		j := r.Judge(steps[:i])
		if j.Done() {
			return fmt.Errorf("step %d at %v req/s: %w: the search had ended (%s) after step %d", i+1, s.RateRPS, ErrNotTheRule, j.Stop, i)
		}
		if s.RateRPS != j.NextRPS {
			return fmt.Errorf("step %d at %v req/s: %w: it is %v req/s", i+1, s.RateRPS, ErrNotTheRule, j.NextRPS)
		}
	}
	if j := r.Judge(steps); complete && !j.Done() {
		return fmt.Errorf("%w: the search goes on after step %d, at %v req/s", ErrNotTheRule, len(steps), j.NextRPS)
	}
	return nil
}

// Text says what a finished search found, in one phrase: "3,900 req/s (4,300 failed)".
func (res Result) Text() string {
	switch {
	case res.HeldRPS == 0 && res.Stop == Limited:
		return fmt.Sprintf("none held: the generator was the limit at %s req/s", Thousands(res.LimitedRPS))
	case res.HeldRPS == 0:
		return fmt.Sprintf("none held down to %s req/s", Thousands(res.FailedRPS))
	case res.Stop == Limited:
		return fmt.Sprintf("at least %s req/s (limited by the generator at %s)", Thousands(res.HeldRPS), Thousands(res.LimitedRPS))
	case res.FailedRPS == 0:
		return fmt.Sprintf("at least %s req/s (none failed)", Thousands(res.HeldRPS))
	}
	return fmt.Sprintf("%s req/s (%s failed)", Thousands(res.HeldRPS), Thousands(res.FailedRPS))
}

// Thousands writes a rate rounded to whole requests with thousands separated: 9,800.
func Thousands(x float64) string {
	n := int64(math.Round(x))
	neg := n < 0
	if neg {
		n = -n
	}
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}
