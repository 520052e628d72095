package compare

import "github.com/logbench/logbench/kit/offline/bundle"

// OnePerRun are the runs' values of a figure of one value a run (of: a run's latency
// percentile, its CPU per request), each run its own, the runs without it left out:
// what Measured states over runs.
func OnePerRun[R any](runs []R, of func(R) bundle.Opt) [][]float64 {
	var out [][]float64
	for _, r := range runs {
		if v := of(r); v.Present() {
			out = append(out, []float64{float64(v)})
		}
	}
	return out
}
