package contract

import "time"

// SweepParams ask for the load generator's capacity: open-loop steps of rising rate.
type SweepParams struct {
	Rates []float64     `json:"rates_rps"`
	Step  time.Duration `json:"step_ns"`
	// MaxLagP99 is the precision a rate must keep to count as held.
	MaxLagP99 time.Duration `json:"max_lag_p99_ns"`
	// Trials at each rate; a rate is held when most of them hold it, so that one
	// passing stall of the host does not decide the capacity.
	Trials int `json:"trials"`
}

// SweepStep is one trial at one rate.
type SweepStep struct {
	RateRPS      float64 `json:"rate_rps"`
	Requests     int     `json:"requests"`
	Errors       int     `json:"errors"`
	LagP50Ms     float64 `json:"lag_p50_ms"`
	LagP99Ms     float64 `json:"lag_p99_ms"`
	LatencyP99Ms float64 `json:"latency_p99_ms"`
	Held         bool    `json:"held"` // every request succeeded and the lag p99 stayed within the bound
}

// SweepRate is every trial at one rate.
type SweepRate struct {
	RateRPS float64     `json:"rate_rps"`
	Trials  []SweepStep `json:"trials"`
	Held    bool        `json:"held"` // by most trials
}

// SweepResult is a whole sweep.
type SweepResult struct {
	Params SweepParams `json:"params"`
	Rates  []SweepRate `json:"rates"`
	// CapacityRPS is the highest rate held; 0 when none was.
	CapacityRPS float64 `json:"capacity_rps"`
	Failure     string  `json:"failure"`
}
