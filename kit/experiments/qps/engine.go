package qps

import (
	"github.com/logbench/logbench/kit/contract"
)

// targetEngineCPU records which engine's processes the helper counts, or, for an
// engine whose processes the kit cannot identify, measures nothing and says why in the
// manifest: the engine CPU columns are then empty, never 0.
func (p *Plan) targetEngineCPU(e contract.EngineFacts) {
	params := &p.bundle.M.Parameters
	if !params.EngineCPU {
		return
	}
	if contract.EngineProcessesOf(e.Kind) != "" {
		params.EngineKind = e.Kind
		return
	}
	params.EngineCPU, params.EngineCPUHow, params.EngineKind = false, "", ""
	p.bundle.M.Unmeasured = append(p.bundle.M.Unmeasured, "engine_cpu_cores: the engine's own CPU was not measured: the kit cannot identify the processes of this engine ("+e.KindEvidence+")")
}

// engineText names the engine processes counted outside the container, for the table's
// legend.
func engineText(kind string) string {
	if what := contract.EngineProcessesOf(kind); what != "" {
		return kind + ": " + what
	}
	if kind == "" {
		return "the engine's processes, when measured"
	}
	return kind
}
