package yourapi

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/capacity"
	"github.com/logbench/logbench/kit/offline/report"
	"github.com/logbench/logbench/kit/offline/verify"
)

// The search's defaults.
const (
	DefaultSLOP99Ms   = 10
	DefaultStartRPS   = 100
	DefaultResolution = 0.1
	DefaultMaxSteps   = 12
)

// Capacity is the search of --capacity: for each configuration, the highest open-loop
// rate whose p99 from the scheduled send stays within SLOP99Ms with no error, by the
// rule of kit/offline/capacity. Zero when the bundle is not a search.
type Capacity struct {
	SLOP99Ms   float64 `json:"slo_p99_ms"`
	StartRPS   float64 `json:"start_rps"`
	Factor     float64 `json:"factor"`
	Resolution float64 `json:"resolution"`
	MaxSteps   int     `json:"max_steps"`
	// Steps are the steps planned so far, in the order they were planned: each
	// configuration's next one is added once its last is judged, so that the manifest
	// plans exactly the runs the bundle holds (and, interrupted, the one to come).
	Steps []PlannedStep `json:"steps"`
}

// PlannedStep is one step of a configuration's search.
type PlannedStep struct {
	Config  string  `json:"config"`
	Step    int     `json:"step"`
	RateRPS float64 `json:"rate_rps"`
}

// On says whether the parameters are a capacity search.
func (c Capacity) On() bool { return c.SLOP99Ms > 0 }

// Rule is the search's rule.
func (c Capacity) Rule() capacity.Rule {
	return capacity.Rule{StartRPS: c.StartRPS, Factor: c.Factor, Resolution: c.Resolution, MaxSteps: c.MaxSteps}
}

// capacityFlags are --capacity and its settings as given, made the manifest's Capacity
// once checked.
type capacityFlags struct {
	on                             bool
	slo, start, resolution         float64
	maxSteps                       int
	givenSLO, givenStart, givenRes bool
	givenSteps, givenLoad          bool
	givenArrivals                  bool
}

func (p *Params) bindCapacity(fs *flag.FlagSet) {
	c := &p.capacity
	c.slo, c.start, c.resolution, c.maxSteps = DefaultSLOP99Ms, DefaultStartRPS, DefaultResolution, DefaultMaxSteps
	fs.BoolVar(&c.on, "capacity", false, "search each configuration's capacity: the highest open-loop rate whose p99 from the scheduled send stays within --slo-p99 with no error (steps x2 from --capacity-start, then bisection; implies --load open)")
	fs.Var(experiment.Milliseconds(&c.slo), "slo-p99", "with --capacity: the latency target, the p99 a step must stay within")
	fs.Float64Var(&c.start, "capacity-start", c.start, "with --capacity: the first step's rate, requests per second")
	fs.Var(fractionValue{&c.resolution}, "capacity-resolution", "with --capacity: stop once the failed rate is within this share above the held one, such as 10%")
	fs.IntVar(&c.maxSteps, "capacity-max-steps", c.maxSteps, "with --capacity: the most steps of one configuration's search")
	experiment.MarkGiven(fs, "slo-p99", &c.givenSLO)
	experiment.MarkGiven(fs, "capacity-start", &c.givenStart)
	experiment.MarkGiven(fs, "capacity-resolution", &c.givenRes)
	experiment.MarkGiven(fs, "capacity-max-steps", &c.givenSteps)
	experiment.MarkGiven(fs, "load", &c.givenLoad)
	p.bindArrivals(fs)
}

// checkCapacity holds --capacity and its settings, or a manifest's search, to their
// rules.
func (p Params) checkCapacity() error {
	f := p.capacity
	if !f.on {
		for _, g := range []struct {
			name  string
			given bool
		}{{"slo-p99", f.givenSLO}, {"capacity-start", f.givenStart}, {"capacity-resolution", f.givenRes}, {"capacity-max-steps", f.givenSteps}} {
			if g.given {
				return usagef("--%s: a setting of --capacity, which is not given", g.name)
			}
		}
		if !p.Capacity.On() {
			return nil
		}
	}
	c := p.Capacity
	if f.on {
		c = Capacity{SLOP99Ms: f.slo, StartRPS: f.start, Factor: capacity.DefaultFactor, Resolution: f.resolution, MaxSteps: f.maxSteps}
		switch {
		case f.givenLoad && p.Load != contract.LoadOpen:
			return usagef("--capacity needs --load open: it offers fixed rates and times latency from the scheduled send")
		case p.given.rate:
			return usagef("--rate: --capacity searches the rate (its first step is --capacity-start)")
		}
	} else if p.Load != contract.LoadOpen {
		return usagef("capacity: a search needs the open load, not %q", p.Load)
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
	if !f.on && p.Rounds != 1 {
		return usagef("capacity: %d rounds; a search's steps are one run each, in one round", p.Rounds)
	}
	if len(c.Steps) > len(p.Configs)*c.MaxSteps {
		return usagef("capacity: %d steps planned, more than %d configurations x %d", len(c.Steps), len(p.Configs), c.MaxSteps)
	}
	for _, s := range c.Steps {
		if !slices.Contains(p.ConfigNames(), s.Config) || s.Step < 1 || s.Step > c.MaxSteps || !(s.RateRPS >= capacity.MinRate && s.RateRPS <= capacity.MaxRate) {
			return usagef("capacity: step %d of %q at %v req/s: want a configuration's step 1 to %d at %d to %d req/s", s.Step, s.Config, s.RateRPS, c.MaxSteps, capacity.MinRate, capacity.MaxRate)
		}
	}
	return nil
}

// settleCapacity makes the flags the manifest's search, its first step planned for
// every configuration; the open load's rate is the first step's.
func (p *Params) settleCapacity() {
	f := p.capacity
	p.capacity = capacityFlags{}
	if !f.on {
		return
	}
	p.Capacity = Capacity{SLOP99Ms: f.slo, StartRPS: f.start, Factor: capacity.DefaultFactor, Resolution: f.resolution, MaxSteps: f.maxSteps}
	first := p.Capacity.Rule().Judge(nil).NextRPS
	p.RateRPS = first
	for _, name := range p.ConfigNames() {
		p.Capacity.Steps = append(p.Capacity.Steps, PlannedStep{Config: name, Step: 1, RateRPS: first})
	}
}

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

// stepName is how a run's step column, its condition and its ID name step n.
func stepName(n int) string { return "step" + strconv.Itoa(n) }

// stepOf is the step a run's step column names; ok false when it names none.
func stepOf(name string) (n int, ok bool) {
	digits, ok := strings.CutPrefix(name, "step")
	n, err := strconv.Atoi(digits)
	return n, ok && err == nil && n >= 1 && stepName(n) == name
}

// rateOf is the rate the plan offers in the condition c: its step's, in a search.
func (p Params) rateOf(c tabular.Cell) float64 {
	n, ok := stepOf(c[1])
	if !ok {
		return p.RateRPS
	}
	for _, s := range p.Capacity.Steps {
		if s.Config == c[0] && s.Step == n {
			return s.RateRPS
		}
	}
	return 0
}

// searchPlan is a plan that searches each configuration's capacity: it starts with
// every configuration's first step and grows by one step a configuration after each is
// judged, until every search has ended.
type searchPlan struct{ plan }

var _ experiment.Grower = searchPlan{}

// Rounds is one: each step is one run (redone while its sends are late, --retries).
func (p searchPlan) Rounds() int { return 1 }

// SetRounds does nothing: a search grows by steps, not rounds.
func (p searchPlan) SetRounds(int) {}

// Grow plans the next step of every configuration whose search goes on.
func (p searchPlan) Grow() ([]experiment.Condition, error) {
	pr := p.b.Params()
	c := &pr.Capacity
	var added []experiment.Condition
	for _, name := range pr.ConfigNames() {
		steps, pending := search(p.b, name)
		if pending {
			return nil, fmt.Errorf("capacity: %s's step %d has no run to judge", name, len(steps)+1)
		}
		j := c.Rule().Judge(steps)
		if j.Done() {
			continue
		}
		s := PlannedStep{Config: name, Step: len(steps) + 1, RateRPS: j.NextRPS}
		c.Steps = append(c.Steps, s)
		added = append(added, tabular.Cell{s.Config, stepName(s.Step)})
	}
	return added, nil
}

// MostRuns: every configuration's every step, each redone as often as it may be.
func (p searchPlan) MostRuns() int {
	pr := p.b.Params()
	return len(pr.Configs) * pr.Capacity.MaxSteps * (1 + pr.Retries)
}

// StepRow is one attempt of a step of a capacity search (steps.csv). config, step,
// rate_rps and run_id are observed (the plan's step and the run that performed it);
// the others are derived from the run's row, and verify recomputes them.
type StepRow struct {
	Config           string  `csv:"config" doc:"The logging configuration searched, as --config gave it."`
	Step             int     `csv:"step" unit:"1" doc:"The step of the configuration's search, from 1."`
	RateRPS          float64 `csv:"rate_rps" unit:"req/s" doc:"The open-loop rate the step offered, as the search's rule gave it (parameters.capacity)."`
	RunID            string  `csv:"run_id" doc:"The run that performed the step (runs.csv); a step redone for late sends has a row per attempt."`
	Superseded       bool    `csv:"superseded" doc:"true when the run was performed again (runs.csv): the step is judged by its last attempt."`
	P50Ms            Opt     `csv:"p50_ms" unit:"ms" doc:"The run's p50 from the scheduled send; missing without responses."`
	P99Ms            Opt     `csv:"p99_ms" unit:"ms" doc:"The run's p99 from the scheduled send, held to parameters.capacity.slo_p99_ms; missing without responses."`
	Errors           int64   `csv:"errors" unit:"1" doc:"Requests without a response plus responses that were not 2xx."`
	CarriedRPS       Opt     `csv:"carried_rps" unit:"req/s" doc:"Responses over the measured interval (runs.csv requests_per_s_over_interval); missing without one."`
	SendLagP99Ms     Opt     `csv:"send_lag_p99_ms" unit:"ms" doc:"The generator's send-lag p99, held to parameters.max_send_lag_p99_ms; missing when nothing was sent."`
	GeneratorCores   Opt     `csv:"generator_cpu_cores" unit:"cores" doc:"The generator's CPU over the measured interval, held to its saturation share of parameters.limits.loadgen_cpus; missing without a measured interval."`
	GeneratorLimited bool    `csv:"generator_limited" doc:"true when the generator, not the service, was the limit: its send-lag p99 over the bound, or its CPU at its saturation share of its limit. Such a step never counts as the service's capacity and ends the search."`
	Held             bool    `csv:"held" doc:"true when the step held: not generator-limited, the run is data with no error, its p99 within the target, and it carried at least 90% of its rate."`
}

// CarriedShare is the share of its rate a step must carry to hold: an open loop that
// answered fewer did not carry the rate, whatever its latencies.
const CarriedShare = 0.9

// DeriveStep judges one attempt of a step from its run's row.
func DeriveStep(s StepRow, r RunRow, p Params) StepRow {
	s.Superseded = r.Superseded
	s.P50Ms, s.P99Ms, s.Errors, s.CarriedRPS, s.SendLagP99Ms = r.LatencyP50Ms, r.LatencyP99Ms, r.Errors+r.Non2xx, r.RequestsPerSOver, r.SendLagP99Ms
	s.GeneratorCores = None
	if r.MeasuredS > 0 {
		s.GeneratorCores = Opt(r.GeneratorCPUS / r.MeasuredS)
	}
	lagging := r.SendLagP99Ms.Present() && float64(r.SendLagP99Ms) > p.MaxSendLagP99Ms
	busy := s.GeneratorCores.Present() && float64(s.GeneratorCores) >= contract.SaturationShare*p.Limits.LoadgenCPUs
	s.GeneratorLimited = lagging || busy
	s.Held = !s.GeneratorLimited && r.Verified && s.Errors == 0 && s.P99Ms.Present() && float64(s.P99Ms) <= p.Capacity.SLOP99Ms &&
		s.CarriedRPS.Present() && float64(s.CarriedRPS) >= CarriedShare*s.RateRPS
	return s
}

// DeriveSteps are the steps of a search's runs, in the order of the runs: each
// attempt's step and rate as the plan gave them, judged from its run's row.
func DeriveSteps(runs []RunRow, p Params) []StepRow {
	var out []StepRow
	for _, r := range runs {
		n, ok := stepOf(r.Step)
		if !ok {
			continue
		}
		s := StepRow{Config: r.Config, Step: n, RateRPS: p.rateOf(tabular.Cell{r.Config, r.Step}), RunID: r.RunID}
		out = append(out, DeriveStep(s, r, p))
	}
	return out
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

// search is a configuration's judged steps in order, each by its last attempt, and
// whether a planned step is still without a run.
func search(b *Bundle, config string) (steps []capacity.Step, pending bool) {
	p := b.Params()
	judgedSteps := DeriveSteps(b.Runs, *p)
	for _, ps := range p.Capacity.Steps {
		if ps.Config != config {
			continue
		}
		judged := -1
		for i, s := range judgedSteps {
			if s.Config == config && s.Step == ps.Step && !s.Superseded {
				judged = i
			}
		}
		if judged < 0 {
			return steps, true
		}
		steps = append(steps, capacity.Step{RateRPS: judgedSteps[judged].RateRPS, Outcome: judgedSteps[judged].outcome()})
	}
	return steps, false
}

// CapacityResult is one configuration's search as it ended.
type CapacityResult struct {
	Config string
	capacity.Result
	Steps int
}

// Capacities are every configuration's searches, in the manifest's order.
func Capacities(b *Bundle) []CapacityResult {
	c := b.Params().Capacity
	var out []CapacityResult
	for _, name := range b.Params().ConfigNames() {
		steps, _ := search(b, name)
		out = append(out, CapacityResult{Config: name, Result: c.Rule().Judge(steps), Steps: len(steps)})
	}
	return out
}

// CapacityLines are what the summary and verify say of the searches: each
// configuration's capacity, and against the baseline's.
func CapacityLines(b *Bundle) []string {
	p := b.Params()
	results := Capacities(b)
	var base CapacityResult
	for _, r := range results {
		if r.Config == p.Baseline {
			base = r
		}
	}
	target := "p99 ≤ " + experiment.FormatSeconds(p.Capacity.SLOP99Ms/1e3)
	var out []string
	for _, r := range results {
		line := fmt.Sprintf("%s: %s at %s", r.Config, r.Text(), target)
		switch r.Stop {
		case capacity.Going:
			line += fmt.Sprintf(" so far, after %d steps (the search was interrupted)", r.Steps)
		case capacity.MaxSteps:
			line += fmt.Sprintf(", not resolved to %s: the %d steps ran out", pct(p.Capacity.Resolution), p.Capacity.MaxSteps)
		}
		if r.Config != p.Baseline && base.HeldRPS > 0 && r.HeldRPS > 0 {
			change := fmt.Sprintf("%+.0f%%", (r.HeldRPS/base.HeldRPS-1)*100)
			if !exact(r.Result) || !exact(base.Result) {
				change += ", a bound, not a measurement"
			}
			line += fmt.Sprintf(" against %s for the baseline %s (%s)", capacity.Thousands(base.HeldRPS), p.Baseline, strings.Replace(change, "-", "−", 1))
		}
		out = append(out, line)
	}
	return out
}

// exact: the search found the capacity to its resolution.
func exact(r capacity.Result) bool { return r.Stop == capacity.Resolved && r.HeldRPS > 0 }

func pct(f float64) string { return strconv.FormatFloat(f*100, 'g', -1, 64) + "%" }

// writeCapacity is the summary's part of a search: the steps, then the capacities.
func writeCapacity(b *Bundle, w io.Writer) {
	p := b.Params()
	if !p.Capacity.On() {
		return
	}
	fmt.Fprintf(w, "\ncapacity search: steps x%g from %g req/s until one fails, then bisection to %s; each step one run, judged by its last attempt\n",
		p.Capacity.Factor, p.Capacity.StartRPS, pct(p.Capacity.Resolution))
	fmt.Fprintf(w, "%-12s %4s %8s %8s %8s %6s %9s %9s %7s  %s\n", "config", "step", "rate", "p50 ms", "p99 ms", "errors", "lag p99", "gen cores", "carried", "")
	for _, s := range DeriveSteps(b.Runs, *p) {
		state := "failed"
		switch {
		case s.Superseded:
			state = "redone"
		case s.GeneratorLimited:
			state = "GENERATOR-LIMITED"
		case s.Held:
			state = "held"
		}
		fmt.Fprintf(w, "%-12s %4d %8.0f %8s %8s %6d %9s %9s %7s  %s\n", s.Config, s.Step, s.RateRPS, s.P50Ms.Fixed(2), s.P99Ms.Fixed(2), s.Errors, s.SendLagP99Ms.Fixed(2), s.GeneratorCores.Fixed(2), s.CarriedRPS.Fixed(0), state)
	}
	for _, line := range CapacityLines(b) {
		fmt.Fprintf(w, "CAPACITY %s\n", line)
	}
}

// checkSearch holds a search to its rule: each configuration's steps the rule's from
// the start rate (a forged capacity is refused), and a complete bundle's searches
// ended. Each run is a planned step's (rules), and steps.csv is derived from the runs.
func checkSearch(res *verify.Result, b *Bundle) {
	p := b.Params()
	problem := res.Problem
	m := b.M.Head()
	complete := m.Complete && !m.Interrupted
	rule := p.Capacity.Rule()
	for _, name := range p.ConfigNames() {
		var planned []PlannedStep
		for _, ps := range p.Capacity.Steps {
			if ps.Config == name {
				planned = append(planned, ps)
			}
		}
		steps, pending := search(b, name)
		for i, ps := range planned {
			if ps.Step != i+1 {
				problem(verify.Problem{File: ManifestFile, Column: "parameters.capacity.steps", Key: "config " + name, Have: strconv.Itoa(ps.Step), Want: strconv.Itoa(i + 1), Msg: "a configuration's steps are numbered from 1 in order"})
				return
			}
		}
		// A bundle saved between a step's run and the planning of the next says it is
		// complete while its search goes on (a crash in between): the capacity line says
		// the search was interrupted, and resuming goes on with it.
		if err := rule.Check(steps, false); err != nil {
			problem(verify.Problem{File: StepsFile, Key: "config " + name, Msg: "the search: " + err.Error()})
			continue
		}
		if pending {
			if complete {
				problem(verify.Problem{File: StepsFile, Key: "config " + name, Msg: fmt.Sprintf("step %d is planned but has no run, in a complete bundle", len(steps)+1)})
			} else if next := rule.Judge(steps); next.Done() || planned[len(steps)].RateRPS != next.NextRPS {
				problem(verify.Problem{File: ManifestFile, Column: "parameters.capacity.steps", Key: "config " + name, Have: fmt.Sprint(planned[len(steps)].RateRPS), Want: fmt.Sprint(next.NextRPS), Msg: "the step planned next is not the search's rule"})
			}
		}
	}
	if res.OK() {
		res.Described = joinSentences(res.Described, "capacity: "+strings.Join(CapacityLines(b), "; "))
	}
}

func joinSentences(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// capacitySection is the report's part of the bundles that are searches: each
// configuration's capacity against the baseline, then every step; ok false when none
// is a search.
func capacitySection(bs []drawn) (s report.Section, ok bool) {
	for _, d := range bs {
		p := d.Params()
		if !p.Capacity.On() {
			continue
		}
		ok = true
		s.Warnings = append(s.Warnings, prefixed(d.Label, CapacityLines(d.Bundle))...)
		t := report.Table{Caption: d.Label + ": steps", Text: 2,
			Header: []string{"config", "outcome", "step", "rate req/s", "p50 ms", "p99 ms", "errors", "carried req/s", "send lag p99 ms", "generator cores"}}
		for _, st := range DeriveSteps(d.Runs, *p) {
			outcome := "failed"
			switch {
			case st.Superseded:
				outcome = "redone"
			case st.GeneratorLimited:
				outcome = "generator-limited"
			case st.Held:
				outcome = "held"
			}
			t.Rows = append(t.Rows, []string{st.Config, outcome, strconv.Itoa(st.Step), capacity.Thousands(st.RateRPS), st.P50Ms.Fixed(2), st.P99Ms.Fixed(2),
				strconv.FormatInt(st.Errors, 10), st.CarriedRPS.Fixed(0), st.SendLagP99Ms.Fixed(2), st.GeneratorCores.Fixed(2)})
		}
		s.Tables = append(s.Tables, t)
	}
	s.ID, s.Title = "capacity", "Capacity at a latency target"
	s.Caption = "Each configuration's search: steps ×2 from the start rate while each holds (its p99 from the scheduled send within the target, no error, at least 90% of its rate carried), " +
		"then bisection between the last held and the first failed rate to the resolution; a step whose generator sent late or used its CPU to the limit is the generator's limit, " +
		"never the service's capacity, and ends the search. verify replays the rule on the steps."
	return s, ok
}

func prefixed(label string, lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = label + ": " + l
	}
	return out
}
