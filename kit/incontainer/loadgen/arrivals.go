package loadgen

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/logbench/logbench/kit/contract"
)

// The arrival processes of an open loop.
const (
	// Constant sends every 1/rate: the schedule fifo-stall's article uses.
	Constant = contract.ArrivalsConstant
	// Poisson sends after independent exponential gaps of mean 1/rate, as many
	// independent clients would: the same mean rate, bursts and lulls included.
	Poisson = contract.ArrivalsPoisson
)

// CheckArrivals refuses an arrival process the generator does not have.
func CheckArrivals(arrivals string) error {
	if arrivals != Constant && arrivals != Poisson && arrivals != "" {
		return fmt.Errorf("arrivals %q: want %s or %s", arrivals, Constant, Poisson)
	}
	return nil
}

// Offsets are the scheduled sends of n requests at rate, from the first: every 1/rate
// (constant, or ""), or after exponential gaps of mean 1/rate drawn from a generator
// seeded with seed (poisson), the first at 0 in both.
func Offsets(arrivals string, rate float64, n int, seed uint64) []time.Duration {
	out := make([]time.Duration, n)
	if arrivals != Poisson {
		// As the generator always scheduled: whole nanoseconds between sends.
		interval := Plan{Rate: rate}.Interval()
		for i := range out {
			out[i] = time.Duration(i) * interval
		}
		return out
	}
	gap := float64(time.Second) / rate
	rng := rand.New(rand.NewPCG(seed, 0x6c6f6762656e6368)) // "logbench"
	var at float64
	for i := range out {
		if i > 0 {
			at += rng.ExpFloat64() * gap
		}
		out[i] = time.Duration(at)
	}
	return out
}
