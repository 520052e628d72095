package fifostall

import (
	"fmt"
	"math"

	"github.com/logbench/logbench/kit/offline/figure"
)

// trust says how far the bundle's figures can be trusted, from the runs as verify
// recomputed them, never from the flags and counts the files claim: a bundle written
// before the kit recorded a flag has it recomputed (the send-lag bound, the host's
// noise), or the summary says plainly that its format did not record it.
func (v *verifier) trust() {
	c := &v.Res.Counts
	c.Trusted = 0
	for _, i := range v.first {
		if r := v.Runs[i]; r.Verified && !r.Superseded && v.Judged[i].SendLagTrusted {
			c.Trusted++
		}
	}
	var unresolved, untrusted int
	for _, cond := range v.derived {
		p99 := v.figures.Of(ConditionKey(cond.API, cond.Mode, cond.Reader), MetricP99)
		v.Res.Trust = append(v.Res.Trust, TrustLine(cond, p99))
		if !math.IsNaN(float64(cond.P99Ms)) && !cond.P99Resolved {
			unresolved++
		}
		if cond.RunsTrusted < cond.Runs {
			untrusted++
		}
	}
	w := &v.Res.Weakened
	if untrusted > 0 {
		*w = append(*w, fmt.Sprintf("%d of %d conditions have runs whose send-lag p99 was over the bound: their latencies carry the load generator's error", untrusted, len(v.derived)))
	}
	if unresolved > 0 {
		*w = append(*w, fmt.Sprintf("%d of %d conditions have a p99 of the pooled requests under %g x their largest send-lag p99 (marked ?): the instrument cannot resolve their p99s", unresolved, len(v.derived), ResolutionFactor))
	}
	if v.Absent[RunsFile]["host_steal_pct"] {
		*w = append(*w, "host noise: this bundle's format did not record it (no host_steal_pct column); no run can be called quiet or noisy")
	}
}

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
