package tabular

import (
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// Manifest is what a bundle's manifest.json holds: the kit's common part, the rounds and
// the parameters. Standard is the manifest of an experiment that records nothing more;
// one whose bundles record more (the runtimes' versions), or record the rounds among the
// parameters as bundles of earlier kits do, declares its own type (Experiment.Manifest),
// which manifest.json is decoded into, strictly.
type Manifest[P experiment.Params] interface {
	Head() *bundle.Common
	// Params are the parameters as the manifest holds them; SetParams records them.
	Params() P
	SetParams(P)
	// Rounds is where the manifest keeps the rounds of the plan.
	Rounds() *int
}

// Standard is the manifest of the kit's common part, the rounds and the parameters.
type Standard[P experiment.Params] struct {
	bundle.Common
	PlanRounds int `json:"rounds"`
	Parameters P   `json:"parameters"`
}

func (m *Standard[P]) Head() *bundle.Common { return &m.Common }
func (m *Standard[P]) Params() P            { return m.Parameters }
func (m *Standard[P]) SetParams(p P)        { m.Parameters = p }
func (m *Standard[P]) Rounds() *int         { return &m.PlanRounds }

// newManifest is a fresh manifest of the experiment's type.
func (t *Experiment[P, R]) newManifest() Manifest[P] {
	if t.Manifest != nil {
		return t.Manifest()
	}
	return &Standard[P]{}
}
