// Package capacitysearch is `reproduce --capacity` for any tabular experiment whose
// runs can offer an open loop at a fixed rate: for each of its conditions (a subject),
// the highest rate whose p99 from the scheduled send stays within a target with no
// error, by the rule of kit/offline/capacity. It holds everything of the search that is
// not an experiment's own: the flags and their checks, the steps planned in the
// manifest, the plan that grows by a step a subject, the steps' table and its judging,
// verify's replay of the rule, the summary's lines and the report's section. An
// experiment declares a Search: where its parameters keep the search, what it searches,
// against what, and how one of its runs reads as an attempt of a step.
package capacitysearch

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/capacity"
	"github.com/logbench/logbench/kit/offline/figure"
)

// StepsFile is a search's table of steps.
const StepsFile = "steps.csv"

// Search is an experiment's capacity search, declared. P are its parameters, R its
// row of runs.
type Search[P experiment.Params, R any] struct {
	// Of is the search its parameters record (their Capacity field), which the plan
	// grows step by step.
	Of func(p P) *Capacity
	// Subjects are what is searched, in the manifest's order: the experiment's
	// conditions without their last axis, the step. A subject is named by its cell
	// (tabular.Cell.String: "none", "go/none").
	Subjects func(p P) []tabular.Cell
	// Baseline names the subject whose capacity a subject's is set against ("": none).
	Baseline func(p P, subject string) string
	// Attempt is what a run's row says of the step it performed; ok false for a run of
	// no step.
	Attempt func(p P, r R) (a Attempt, ok bool)
	// Generator are the bounds that say the generator, not the service, was the limit.
	Generator func(p P) Generator
	// Retries are how often a step may be redone for late sends (Own.Retry), for the
	// most runs a plan may grow to.
	Retries func(p P) int
}

// Attempt is one run of a step as the experiment reads it from its row of runs.
type Attempt struct {
	// Subject names the condition searched (tabular.Cell.String), Step the row's step
	// column (StepName), RunID the run.
	Subject, Step, RunID string
	// Superseded: the run was performed again. Data: the run is data (verified).
	Superseded, Data bool
	// Number is the run's attempt of its step in its round, from 1 (Retry).
	Number int
	// P50Ms and P99Ms are from each request's scheduled send; missing without responses.
	P50Ms, P99Ms bundle.Opt
	// Errors are requests without a response plus responses that were not 2xx.
	Errors int64
	// CarriedRPS is responses over the measured interval; SendLagP99Ms the generator's
	// send-lag p99; NetP99Ms the p99 of latency less each request's send lag (missing
	// from an earlier kit's run); GeneratorCores its CPU over the measured interval.
	CarriedRPS, SendLagP99Ms, NetP99Ms, GeneratorCores bundle.Opt
}

// Generator are a plan's bounds of its load generator: the send-lag p99 a run may
// have, and the CPUs it may use (0: no limit, none to reach).
type Generator struct {
	MaxSendLagP99Ms float64
	CPUs            float64
}

// The search's defaults.
const (
	DefaultSLOP99Ms   = 10
	DefaultStartRPS   = 100
	DefaultResolution = 0.1
	DefaultMaxSteps   = 12
)

// Capacity is the search of --capacity as the manifest records it (parameters.capacity):
// the rule's settings and every step planned. Zero when the bundle is not a search.
type Capacity struct {
	SLOP99Ms   float64 `json:"slo_p99_ms"`
	StartRPS   float64 `json:"start_rps"`
	Factor     float64 `json:"factor"`
	Resolution float64 `json:"resolution"`
	MaxSteps   int     `json:"max_steps"`
	// Rounds are the searches of each subject (reproduce --reps with --capacity): each
	// round searches again from the start rate, its steps interleaved with the other
	// rounds', and a subject's capacity is the mean of its rounds' with a 95% interval
	// over them. 0 in a manifest written before rounds: one search.
	Rounds int `json:"rounds,omitempty"`
	// Steps are the steps planned so far, in the order they were planned: each
	// subject's next one is added once its last is judged, so that the manifest plans
	// exactly the runs the bundle holds (and, interrupted, the one to come).
	Steps []PlannedStep `json:"steps"`
}

// PlannedStep is one step of a subject's search. Config names the subject: your-api's
// configuration, qps's api/config; Round the search (0 in a manifest written before
// rounds: the first).
type PlannedStep struct {
	Config  string  `json:"config"`
	Round   int     `json:"round,omitempty"`
	Step    int     `json:"step"`
	RateRPS float64 `json:"rate_rps"`
}

// search is the step's round, from 1.
func (s PlannedStep) search() int { return max(1, s.Round) }

// Searches are the searches of each subject, from 1.
func (c Capacity) Searches() int { return max(1, c.Rounds) }

// On says whether the parameters are a capacity search.
func (c Capacity) On() bool { return c.SLOP99Ms > 0 }

// Rule is the search's rule.
func (c Capacity) Rule() capacity.Rule {
	return capacity.Rule{StartRPS: c.StartRPS, Factor: c.Factor, Resolution: c.Resolution, MaxSteps: c.MaxSteps}
}

// RateOf is the rate planned for a subject's step named step (StepName); 0 when none
// is planned.
func (c Capacity) RateOf(subject, step string) float64 {
	round, n, ok := StepOf(step)
	if !ok {
		return 0
	}
	for _, s := range c.Steps {
		if s.Config == subject && s.search() == round && s.Step == n {
			return s.RateRPS
		}
	}
	return 0
}

// StepName is how a run's step column, its condition and its ID name step n of a
// subject's search round: "step3" in the first (as before rounds), "round2-step3" after.
func StepName(round, n int) string {
	if round <= 1 {
		return "step" + strconv.Itoa(n)
	}
	return "round" + strconv.Itoa(round) + "-step" + strconv.Itoa(n)
}

// StepOf is the search round and step a run's step column names; ok false when it
// names none.
func StepOf(name string) (round, n int, ok bool) {
	round, rest := 1, name
	if head, tail, cut := strings.Cut(name, "-"); cut {
		digits, isRound := strings.CutPrefix(head, "round")
		x, err := strconv.Atoi(digits)
		if !isRound || err != nil {
			return 0, 0, false
		}
		round, rest = x, tail
	}
	digits, isStep := strings.CutPrefix(rest, "step")
	n, err := strconv.Atoi(digits)
	if !isStep || err != nil || round < 1 || n < 1 || StepName(round, n) != name {
		return 0, 0, false
	}
	return round, n, true
}

// Names are the subjects' names, in order.
func (s *Search[P, R]) Names(p P) []string {
	var out []string
	for _, c := range s.Subjects(p) {
		out = append(out, c.String())
	}
	return out
}

// Conditions are a search's planned steps as the experiment's conditions: each
// subject's cell with the step's name as its last axis.
func (s *Search[P, R]) Conditions(p P) []tabular.Cell {
	subjects := s.Subjects(p)
	var out []tabular.Cell
	for _, st := range s.Of(p).Steps {
		i := slices.IndexFunc(subjects, func(c tabular.Cell) bool { return c.String() == st.Config })
		if i < 0 {
			continue // Check refuses a step of no subject
		}
		out = append(out, append(slices.Clone(subjects[i]), StepName(st.search(), st.Step)))
	}
	return out
}

// RateOf is the rate planned for the condition c (a subject's cell and its step).
func (s *Search[P, R]) RateOf(p P, c tabular.Cell) float64 {
	if len(c) == 0 {
		return 0
	}
	return s.Of(p).RateOf(c[:len(c)-1].String(), c[len(c)-1])
}

// StepRow is one attempt of a step of a capacity search (steps.csv). config, step,
// rate_rps and run_id are observed (the plan's step and the run that performed it);
// the others are derived from the run's row, and verify recomputes them.
type StepRow struct {
	Config           string     `csv:"config" doc:"The condition searched: the logging configuration (your-api: as --config gave it; qps: its API before a slash, go/none)."`
	Search           int        `csv:"search" unit:"1" doc:"The condition's search, from 1 (reproduce --reps N --capacity searches each condition N times, their steps interleaved); missing in a bundle written before searches were repeated: the first."`
	Step             int        `csv:"step" unit:"1" doc:"The step of the condition's search, from 1."`
	RateRPS          float64    `csv:"rate_rps" unit:"req/s" doc:"The open-loop rate the step offered, as the search's rule gave it (parameters.capacity)."`
	RunID            string     `csv:"run_id" doc:"The run that performed the step (runs.csv); a step redone for late sends has a row per attempt."`
	Superseded       bool       `csv:"superseded" doc:"true when the run was performed again (runs.csv): the step is judged by its last attempt."`
	P50Ms            bundle.Opt `csv:"p50_ms" unit:"ms" doc:"The run's p50 from the scheduled send; missing without responses."`
	P99Ms            bundle.Opt `csv:"p99_ms" unit:"ms" atleast:"p50_ms" doc:"The run's p99 from the scheduled send, held to parameters.capacity.slo_p99_ms; missing without responses."`
	Errors           int64      `csv:"errors" unit:"1" doc:"Requests without a response plus responses that were not 2xx."`
	CarriedRPS       bundle.Opt `csv:"carried_rps" unit:"req/s" doc:"Responses over the measured interval (runs.csv requests_per_s_over_interval); missing without one."`
	SendLagP99Ms     bundle.Opt `csv:"send_lag_p99_ms" unit:"ms" doc:"The generator's send-lag p99, held to parameters.max_send_lag_p99_ms; missing when nothing was sent."`
	NetP99Ms         bundle.Opt `csv:"net_p99_ms" unit:"ms" doc:"The run's p99 of latency less each request's own send lag: the step's p99 without the generator's lateness; missing without responses."`
	GeneratorCores   bundle.Opt `csv:"generator_cpu_cores" unit:"cores" doc:"The generator's CPU over the measured interval, held to its saturation share of parameters.limits.loadgen_cpus; missing without a measured interval."`
	GeneratorLimited bool       `csv:"generator_limited" doc:"true when a step that did not hold may have failed for the generator, not the service: its send-lag p99 over the bound, or its CPU at its saturation share of its limit. Such a step never counts against the service and ends the search."`
	Held             bool       `csv:"held" doc:"true when the step held: the run is data with no error, its p99 within the target, and it carried at least 90% of its rate (a late generator only made that harder)."`
}

// SearchesAdded is the kit that added steps.csv's search column, as an experiment's
// columns added later name it: a bundle of an earlier kit searched each condition once.
const SearchesAdded = "capacity searches could be repeated"

// CarriedShare is the share of its rate a step must carry to hold: an open loop that
// answered fewer did not carry the rate, whatever its latencies.
const CarriedShare = 0.9

// judge derives a step's attempt from what its run says.
func judge(s StepRow, a Attempt, slo float64, g Generator) StepRow {
	s.Superseded = a.Superseded
	s.P50Ms, s.P99Ms, s.Errors, s.CarriedRPS, s.SendLagP99Ms, s.NetP99Ms, s.GeneratorCores = a.P50Ms, a.P99Ms, a.Errors, a.CarriedRPS, a.SendLagP99Ms, a.NetP99Ms, a.GeneratorCores
	lagging := a.SendLagP99Ms.Present() && float64(a.SendLagP99Ms) > g.MaxSendLagP99Ms
	busy := g.CPUs > 0 && a.GeneratorCores.Present() && float64(a.GeneratorCores) >= contract.SaturationShare*g.CPUs
	carried := s.CarriedRPS.Present() && float64(s.CarriedRPS) >= CarriedShare*s.RateRPS
	// A step that kept the target held, however late the generator sent: its latencies
	// count from the schedule, and late sends bunch the requests, which only makes the
	// target harder to keep.
	s.Held = a.Data && s.Errors == 0 && s.P99Ms.Present() && float64(s.P99Ms) <= slo && carried
	// A step that missed it is the generator's limit when the generator ran out of CPU,
	// or sent late and the miss goes with the lateness: without each request's send lag
	// the p99 is within the target (or unknown), or the rate was not even sent. A step
	// whose p99 misses with the lag taken out is the service's, however late the sends.
	lateMiss := lagging && (!s.NetP99Ms.Present() || float64(s.NetP99Ms) <= slo || !carried)
	s.GeneratorLimited = !s.Held && (busy || lateMiss)
	return s
}

// Late says whether run r is a step that missed its target while the generator was the
// limit: the one kind of step worth redoing (Own.Retry).
func (s *Search[P, R]) Late(p P, r R) bool {
	steps := s.Steps(p, []R{r})
	return len(steps) == 1 && steps[0].GeneratorLimited
}

// Retry says whether run r is to be performed again (Own.Retry): a search's step that
// missed its target while the generator was the limit (Late), with attempts left of
// the parameters' Retries. The last attempt is the step's.
func (s *Search[P, R]) Retry(p P, r R) bool {
	a, ok := s.Attempt(p, r)
	return ok && s.Of(p).On() && a.Number <= s.Retries(p) && s.Late(p, r)
}

// Steps are the steps of a search's runs, in the order of the runs: each attempt's
// step and rate as the plan gave them, judged from its run's row.
func (s *Search[P, R]) Steps(p P, runs []R) []StepRow {
	c, g := s.Of(p), s.Generator(p)
	var out []StepRow
	for _, r := range runs {
		a, ok := s.Attempt(p, r)
		round, n, named := StepOf(a.Step)
		if !ok || !named {
			continue
		}
		row := StepRow{Config: a.Subject, Search: round, Step: n, RateRPS: c.RateOf(a.Subject, a.Step), RunID: a.RunID}
		out = append(out, judge(row, a, c.SLOP99Ms, g))
	}
	return out
}

// Table is the steps' table, in the bundles that are searches: derived from the runs,
// and derived again by verify.
func (s *Search[P, R]) Table(experimentName string) tabular.Table[P] {
	return tabular.Only(tabular.Derived(bundle.Table{File: StepsFile, Name: "steps", Key: []string{"run_id"},
		Refs: []bundle.Ref{{Columns: []string{"run_id"}, Table: "runs.csv"}},
		Text: "A capacity search's steps (reproduce " + experimentName + " --capacity): one row per attempt of each condition's step, the rate offered and how the run went; " +
			"held and generator_limited are derived from the run's row, and verify replays the search's rule from parameters.capacity over them."},
		func(p P, runs []R, _ tabular.Rows) []StepRow { return s.Steps(p, runs) }),
		func(p P) bool { return s.Of(p).On() })
}

func (s StepRow) outcome() capacity.Outcome {
	switch {
	case s.GeneratorLimited:
		return capacity.GeneratorLimited
	case s.Held:
		return capacity.Held
	}
	return capacity.Failed
}

// state is how the summary and the report name an attempt's outcome.
func (s StepRow) state() string {
	switch {
	case s.Superseded:
		return "redone"
	case s.GeneratorLimited:
		return "generator-limited"
	case s.Held:
		return "held"
	}
	return "failed"
}

// search is a subject's judged steps of its search round in order, each by its last
// attempt, and whether a planned step is still without a run.
func (s *Search[P, R]) search(p P, judged []StepRow, subject string, round int) (steps []capacity.Step, pending bool) {
	for _, ps := range s.Of(p).Steps {
		if ps.Config != subject || ps.search() != round {
			continue
		}
		last := -1
		for i, st := range judged {
			if st.Config == subject && st.Search == round && st.Step == ps.Step && !st.Superseded {
				last = i
			}
		}
		if last < 0 {
			return steps, true
		}
		steps = append(steps, capacity.Step{RateRPS: judged[last].RateRPS, Outcome: judged[last].outcome()})
	}
	return steps, false
}

// Result is one search of a subject as it ended, or stands.
type Result struct {
	Config string
	Round  int
	capacity.Result
	Steps int
}

// Results are every subject's searches, in the manifest's order, each subject's rounds
// in order.
func (s *Search[P, R]) Results(p P, runs []R) []Result {
	c, judged := s.Of(p), s.Steps(p, runs)
	var out []Result
	for _, name := range s.Names(p) {
		for round := 1; round <= c.Searches(); round++ {
			steps, _ := s.search(p, judged, name, round)
			out = append(out, Result{Config: name, Round: round, Result: c.Rule().Judge(steps), Steps: len(steps)})
		}
	}
	return out
}

// Found is a subject's capacity over its searches.
type Found struct {
	Config   string
	Searches []Result
	// Estimate is the mean of the searches' held rates with its 95% interval over them
	// (the kit's one statistic, figure.Of), when every search found its capacity to the
	// resolution; NaN otherwise: a bound says nothing of the spread.
	Estimate figure.Estimate
}

// Exact says every search found the capacity to its resolution.
func (f Found) Exact() bool { return !math.IsNaN(f.Estimate.Value) }

// Found are every subject's capacities, in the manifest's order.
func (s *Search[P, R]) Found(p P, runs []R) []Found {
	var out []Found
	for _, r := range s.Results(p, runs) {
		if len(out) == 0 || out[len(out)-1].Config != r.Config {
			out = append(out, Found{Config: r.Config})
		}
		f := &out[len(out)-1]
		f.Searches = append(f.Searches, r)
	}
	for i := range out {
		var held []float64
		for _, r := range out[i].Searches {
			if !exact(r.Result) {
				held = nil
				break
			}
			held = append(held, r.HeldRPS)
		}
		out[i].Estimate = figure.Of(held)
	}
	return out
}

// text says what a subject's searches found: one search's phrase, or the mean of
// several with its interval and each search's rate.
func (f Found) text() string {
	if len(f.Searches) == 1 {
		return f.Searches[0].Text()
	}
	var each []string
	for _, r := range f.Searches {
		if f.Exact() {
			each = append(each, capacity.Thousands(r.HeldRPS))
		} else {
			each = append(each, r.Text())
		}
	}
	if !f.Exact() {
		return fmt.Sprintf("not every search found it (%s)", strings.Join(each, "; "))
	}
	return fmt.Sprintf("%s req/s %s over %d searches (%s)", capacity.Thousands(f.Estimate.Value), intervalText(f.Estimate), len(f.Searches), strings.Join(each, ", "))
}

// intervalText is an estimate's interval in whole requests: "[5,900, 6,900]".
func intervalText(e figure.Estimate) string {
	return "[" + capacity.Thousands(e.Low) + ", " + capacity.Thousands(e.High) + "]"
}

// Lines are what the summary, verify and the report say of the searches: each
// subject's capacity, and against its baseline's.
func (s *Search[P, R]) Lines(p P, runs []R) []string {
	c := s.Of(p)
	found := s.Found(p, runs)
	target := "p99 ≤ " + experiment.FormatSeconds(c.SLOP99Ms/1e3)
	var out []string
	for _, f := range found {
		line := fmt.Sprintf("%s: %s at %s", f.Config, f.text(), target)
		if len(f.Searches) == 1 {
			switch r := f.Searches[0]; r.Stop {
			case capacity.Going:
				line += fmt.Sprintf(" so far, after %d steps (the search was interrupted)", r.Steps)
			case capacity.MaxSteps:
				line += fmt.Sprintf(", not resolved to %s: the %d steps ran out", pct(c.Resolution), c.MaxSteps)
			}
		} else {
			var going, ranOut []string
			for _, r := range f.Searches {
				switch r.Stop {
				case capacity.Going:
					going = append(going, strconv.Itoa(r.Round))
				case capacity.MaxSteps:
					ranOut = append(ranOut, strconv.Itoa(r.Round))
				}
			}
			if len(ranOut) > 0 {
				line += fmt.Sprintf(", not resolved to %s in search %s: the %d steps ran out", pct(c.Resolution), strings.Join(ranOut, ", "), c.MaxSteps)
			}
			if len(going) > 0 {
				line += fmt.Sprintf(" (search %s interrupted)", strings.Join(going, ", "))
			}
		}
		baseline := s.Baseline(p, f.Config)
		i := slices.IndexFunc(found, func(b Found) bool { return b.Config == baseline })
		if i >= 0 && f.Config != baseline {
			line += against(found[i], f)
		}
		out = append(out, line)
	}
	return out
}

// against says a subject's capacity against its baseline's: the change of one search
// to another, a bound when either is; over rounds, the change with its interval and
// test (figure.Compare), or no change at all where either side has no estimate.
func against(base, f Found) string {
	if len(f.Searches) == 1 {
		b, r := base.Searches[0], f.Searches[0]
		if !(b.HeldRPS > 0 && r.HeldRPS > 0) {
			return ""
		}
		change := fmt.Sprintf("%+.0f%%", (r.HeldRPS/b.HeldRPS-1)*100)
		if !exact(r.Result) || !exact(b.Result) {
			change += ", a bound, not a measurement"
		}
		return fmt.Sprintf(" against %s for the baseline %s (%s)", capacity.Thousands(b.HeldRPS), base.Config, minus(change))
	}
	if !f.Exact() || !base.Exact() {
		return fmt.Sprintf(" (no change against the baseline %s: not every search of both found its capacity)", base.Config)
	}
	ch := figure.Compare(base.Estimate, f.Estimate)
	change := fmt.Sprintf("%+.0f%% [%+.0f%%, %+.0f%%], p=%.2g", ch.Pct, ch.Low, ch.High, ch.P)
	if !ch.Significant() {
		change += fmt.Sprintf(", not significant: these searches could have detected %.0f%%", ch.MDE)
	}
	return fmt.Sprintf(" against %s for the baseline %s (%s)", capacity.Thousands(base.Estimate.Value), base.Config, minus(change))
}

func minus(s string) string { return strings.ReplaceAll(s, "-", "−") }

// exact: the search found the capacity to its resolution.
func exact(r capacity.Result) bool { return r.Stop == capacity.Resolved && r.HeldRPS > 0 }

func pct(f float64) string { return strconv.FormatFloat(f*100, 'g', -1, 64) + "%" }
