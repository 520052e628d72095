package schema

import (
	"fmt"
	"math"

	"github.com/logbench/logbench/kit/offline/figure"
)

// TrustLine is one condition's line of Trust: its runs' trust, its p99 as every output
// states it (p99, the mean over runs of each run's p99 with its interval), and the p99
// of its pooled requests, which the resolution rule tests.
func TrustLine(c ConditionRow, p99 figure.Estimate) string {
	s := fmt.Sprintf("%s/%s/%s: %d/%d verified, %d/%d lag-trusted", c.API, c.Mode, c.Reader, c.RunsVerified, c.Runs, c.RunsTrusted, c.Runs)
	if c.RunsSuperseded > 0 {
		s += fmt.Sprintf(", %d redone", c.RunsSuperseded)
	}
	if c.RunsNoisy > 0 {
		s += fmt.Sprintf(", %d on a noisy host", c.RunsNoisy)
	}
	if c.RunsTrusted < c.Runs {
		s += "; STILL UNTRUSTED RUNS"
	}
	if !math.IsNaN(p99.Value) {
		s += "; p99 " + p99.Stated() + " ms" + overRuns(p99)
	}
	switch pooled, lag := float64(c.P99Ms), float64(c.SendLagP99MaxMs); {
	case math.IsNaN(pooled):
	case c.P99Resolved:
		s += fmt.Sprintf("; p99 of the pooled requests %s ms, resolved (at least %g x the largest send-lag p99, %s ms)", figure.Text(pooled), ResolutionFactor, figure.Text(lag))
	default:
		s += fmt.Sprintf("; p99 of the pooled requests %s ms, NOT resolved (under %g x the largest send-lag p99, %s ms)", figure.Text(pooled), ResolutionFactor, figure.Text(lag))
	}
	return s
}

// overRuns says what a figure rests on: " over 3 runs", or " from one run, no interval".
func overRuns(e figure.Estimate) string {
	if e.Runs == 1 {
		return " from one run, no interval"
	}
	return fmt.Sprintf(" over %d runs", e.Runs)
}
