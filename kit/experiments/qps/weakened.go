package qps

import (
	"fmt"
	"math"
)

// wideInterval is the half-width of a rate's 95% interval, as a share of the rate, past
// which verify names the condition's rate as weakly determined.
const wideInterval = 0.10

// weakened names what weakens the figures of a bundle that verifies: noisy runs, rates
// wrk does not confirm, a load generator that used its whole CPU, wide intervals.
func (v *verifier) weakened(b *Bundle) {
	var noisy, busy, unconfirmed, noWrk int
	for _, r := range b.Runs {
		if !r.Verified {
			continue
		}
		if r.HostNoisy {
			noisy++
		}
		if r.GeneratorBusy {
			busy++
		}
		switch a := float64(r.WrkAgreement); {
		case math.IsNaN(a):
			noWrk++
		case !WrkAgrees(a):
			unconfirmed++
		}
	}
	w := &v.res.Weakened
	if noisy > 0 {
		*w = append(*w, fmt.Sprintf("%d runs were measured on a noisy host", noisy))
	}
	if busy > 0 {
		*w = append(*w, fmt.Sprintf("%d runs had a load generator using its whole CPU: their rate may be the generator's, not the API's", busy))
	}
	if unconfirmed > 0 {
		*w = append(*w, fmt.Sprintf("%d runs' rates are NOT CONFIRMED by wrk (outside 1 ± %g)", unconfirmed, WrkTolerance))
	}
	if noWrk > 0 && noWrk < len(b.Runs) {
		*w = append(*w, fmt.Sprintf("%d verified runs have no wrk figure to check their rate against", noWrk))
	}
	for _, c := range b.Conditions {
		rate, lo, hi := float64(c.RequestsPerS), float64(c.RequestsPerSCILow), float64(c.RequestsPerSCIHigh)
		if rate > 0 && (hi-lo)/2 > wideInterval*rate {
			*w = append(*w, fmt.Sprintf("%s/%s: req/s %.0f has a 95%% interval [%.0f, %.0f], wider than ±%g%%", c.API, c.Config, rate, lo, hi, wideInterval*100))
		}
	}
}
