package tabular

import (
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// RoundsInParams is the manifest of an experiment whose bundles record the rounds among
// the parameters, as every bundle of line-cost, qps and your-api does: the kit's
// common part and the parameters (a T, whose pointer P says where its rounds are).
// Settle, when set, is what a plan records of its parameters (what follows from the
// flags filled in); the rounds are kept.
type RoundsInParams[T any, P interface {
	*T
	experiment.Params
	RoundsField() *int
}] struct {
	bundle.Common
	Parameters T         `json:"parameters"`
	Settle     func(P) T `json:"-"`
}

func (m *RoundsInParams[T, P]) Head() *bundle.Common { return &m.Common }
func (m *RoundsInParams[T, P]) Params() P            { return &m.Parameters }
func (m *RoundsInParams[T, P]) Rounds() *int         { return P(&m.Parameters).RoundsField() }

// SetParams records a plan's parameters, settled, its rounds kept: Settle sees the
// plan's rounds among them (what a capacity search takes for its searches).
func (m *RoundsInParams[T, P]) SetParams(p P) {
	rounds, with := *m.Rounds(), *p
	*P(&with).RoundsField() = rounds
	if m.Settle != nil {
		m.Parameters = m.Settle(&with)
	} else {
		m.Parameters = with
	}
	*m.Rounds() = rounds
}
