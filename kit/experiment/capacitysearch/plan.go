package capacitysearch

import (
	"fmt"
	"slices"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
)

// Growth is what makes an experiment's plan a search's (experiment.Grower): it starts
// with every subject's first step and grows by one step a subject after each is
// judged, until every search has ended. An experiment whose plan has more of its own
// embeds it beside that plan; Plan does so for tabular's.
type Growth[P experiment.Params, R any] struct {
	s *Search[P, R]
	b *tabular.Bundle[P, R]
}

// Growth is the growth of the plan whose bundle is b.
func (s *Search[P, R]) Growth(b *tabular.Bundle[P, R]) Growth[P, R] { return Growth[P, R]{s, b} }

// Grow plans the next step of every search that goes on: each round of each subject.
func (g Growth[P, R]) Grow() ([]experiment.Condition, error) {
	p := g.b.Params()
	c := g.s.Of(p)
	judged := g.s.Steps(p, g.b.Runs)
	subjects := g.s.Subjects(p)
	var added []experiment.Condition
	for round := 1; round <= c.Searches(); round++ {
		for _, cell := range subjects {
			name := cell.String()
			steps, pending := g.s.search(p, judged, name, round)
			if pending {
				return nil, fmt.Errorf("capacity: %s's step %d of search %d has no run to judge", name, len(steps)+1, round)
			}
			j := c.Rule().Judge(steps)
			if j.Done() {
				continue
			}
			st := PlannedStep{Config: name, Round: roundField(round), Step: len(steps) + 1, RateRPS: j.NextRPS}
			c.Steps = append(c.Steps, st)
			added = append(added, append(slices.Clone(cell), StepName(round, st.Step)))
		}
	}
	return added, nil
}

// AddRound plans another search of every subject, its first step each (reproduce
// --precision with --capacity: the searches are the rounds).
func (g Growth[P, R]) AddRound() ([]experiment.Condition, error) {
	p := g.b.Params()
	c := g.s.Of(p)
	c.Rounds = c.Searches() + 1
	first := c.FirstRPS()
	var added []experiment.Condition
	for _, cell := range g.s.Subjects(p) {
		c.Steps = append(c.Steps, PlannedStep{Config: cell.String(), Round: c.Rounds, Step: 1, RateRPS: first})
		added = append(added, append(slices.Clone(cell), StepName(c.Rounds, 1)))
	}
	return added, nil
}

// Rounds are the rounds of a bundle whose parameters are a search: its searches of each
// subject, which reproduce --precision adds (tabular.Own.Rounds); 0 for one that is not.
func (s *Search[P, R]) Rounds(p P) int {
	if c := s.Of(p); c.On() {
		return c.Searches()
	}
	return 0
}

// OwnRounds are the searches of each subject planned so far.
func (g Growth[P, R]) OwnRounds() int { return g.s.Of(g.b.Params()).Searches() }

// MostRuns: every subject's every step, each redone as often as it may be.
func (g Growth[P, R]) MostRuns() int {
	p := g.b.Params()
	c := g.s.Of(p)
	return len(g.s.Subjects(p)) * c.Searches() * c.MaxSteps * (1 + g.s.Retries(p))
}

// roundField is how a planned step records its round: omitted for the first, as in
// the manifests written before rounds.
func roundField(round int) int {
	if round <= 1 {
		return 0
	}
	return round
}

// tabularPlan is what tabular's plans offer: a plan that prepares and says what it
// leaves out.
type tabularPlan interface {
	experiment.Plan
	experiment.Preparer
	experiment.Noter
}

// searchPlan is tabular's plan, grown.
type searchPlan[P experiment.Params, R any] struct {
	tabularPlan
	Growth[P, R]
}

// Plan is tabular's plan p made a search's when its parameters are one, p itself
// otherwise.
func (s *Search[P, R]) Plan(p experiment.Plan) experiment.Plan {
	b := p.Bundle().(*tabular.Bundle[P, R])
	if !s.Of(b.Params()).On() {
		return p
	}
	return searchPlan[P, R]{p.(tabularPlan), s.Growth(b)}
}
