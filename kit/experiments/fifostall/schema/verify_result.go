package schema

import (
	"fmt"
	"math"
	"strconv"
)

// TrustLine is one condition's line of Trust.
func TrustLine(c ConditionRow) string {
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
	switch p99, lag := float64(c.P99Ms), float64(c.SendLagP99MaxMs); {
	case math.IsNaN(p99):
	case c.P99Resolved:
		s += fmt.Sprintf("; p99 %s ms resolved (send-lag p99 at most %s ms)", number3(p99), number3(lag))
	default:
		s += fmt.Sprintf("; p99 %s ms NOT resolved (under %g x the send-lag p99 of %s ms)", number3(p99), ResolutionFactor, number3(lag))
	}
	return s
}

func number3(f float64) string {
	if math.IsNaN(f) {
		return "-"
	}
	return strconv.FormatFloat(f, 'g', 3, 64)
}
