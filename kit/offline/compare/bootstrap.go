package compare

import (
	"math"

	"github.com/logbench/logbench/kit/contract/stats"
)

// interval is the central 95% of a bootstrap distribution, by nearest rank.
func interval(boot []float64) (lo, hi float64) {
	if len(boot) == 0 {
		return math.NaN(), math.NaN()
	}
	return stats.NearestRank(boot, 2.5), stats.NearestRank(boot, 97.5)
}
