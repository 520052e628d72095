package compare

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/logbench/logbench/kit/contract/stats"
)

// DefaultResamples is how many bootstrap resamples a confidence interval rests on.
const DefaultResamples = 2000

// DefaultSeed makes every comparison's resampling, and so its output, deterministic.
const DefaultSeed = 0x6c6f6762656e6368 // "logbench"

// bootstrapP99 resamples values with replacement and returns the nearest-rank p99 of
// each resample, in resample order (so that two sources' i-th resamples pair up for a
// difference). Nothing for no values.
//
// A resample is drawn as counts per sorted value, and its p99 found by walking the
// counts down from the largest value: the p99 is among the top few, so this is O(n)
// per resample with no sort.
func bootstrapP99(values []float64, resamples int, rng *rand.Rand) []float64 {
	n := len(values)
	if n == 0 || resamples <= 0 {
		return nil
	}
	sorted := slices.Sorted(slices.Values(values))
	rank := int(math.Ceil(0.99 * float64(n))) // 1-based, as stats.NearestRank
	rank = min(max(rank, 1), n)
	fromTop := n - rank + 1 // the p99 is the fromTop-th largest
	counts := make([]int32, n)
	out := make([]float64, resamples)
	for r := range out {
		clear(counts)
		for range n {
			counts[rng.IntN(n)]++
		}
		seen := 0
		for i := n - 1; i >= 0; i-- {
			if seen += int(counts[i]); seen >= fromTop {
				out[r] = sorted[i]
				break
			}
		}
	}
	return out
}

// interval is the central 95% of a bootstrap distribution, by nearest rank.
func interval(boot []float64) (lo, hi float64) {
	if len(boot) == 0 {
		return math.NaN(), math.NaN()
	}
	return stats.NearestRank(boot, 2.5), stats.NearestRank(boot, 97.5)
}

// differences pairs two bootstrap distributions resample by resample: b - a.
func differences(a, b []float64) []float64 {
	if len(a) == 0 || len(a) != len(b) {
		return nil
	}
	out := make([]float64, len(a))
	for i := range a {
		out[i] = b[i] - a[i]
	}
	return out
}

// rngFor seeds one stream per condition and source position, so that a condition's
// interval does not depend on which other conditions or bundles were compared.
func rngFor(seed uint64, condition string, position int) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(condition))
	return rand.New(rand.NewPCG(seed, h.Sum64()+uint64(position)))
}
