package linecost

import "github.com/logbench/logbench/kit/contract"

// The document this program writes crosses the container boundary, so its types are
// the contract's (kit/contract/linecost.go); these names keep the program's code short.
type (
	Document  = contract.LineCostDocument
	TimerCost = contract.LineCostTimer
	FSFacts   = contract.LineCostFS
	WayResult = contract.LineCostWay
	Trial     = contract.LineCostTrial
)
