package linecost

import (
	"fmt"

	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/figure"
	"github.com/logbench/logbench/kit/offline/verify"
)

// weakened names what weakens the figures of a bundle that verifies: trials a CPU limit
// throttled (their wall time is stretched), headlines with wide intervals, and those of
// one run, which have none; before the kit's (its speed probe).
func (c *checker) weakened(b *Bundle) {
	var w []string
	figures := compare.StatedOf(Rows(b, nil))
	oneRun := 0
	for _, cond := range Conditions(b) {
		name := conditionName(cond)
		if cond.ThrottledTrials > 0 {
			w = append(w, fmt.Sprintf("%s: %d trials were throttled by the CPU limit (their wall time is stretched)", name, cond.ThrottledTrials))
		}
		switch e := figures.Of(name, "ns_per_line"); {
		case e.Runs == 1:
			oneRun++
		case e.HasInterval() && verify.Wide(e.Value, e.Low, e.High):
			w = append(w, fmt.Sprintf("%s: %s ns a line has a 95%% interval %s over %d runs, wider than ±%g%%", name, figure.Text(e.Value), e.IntervalText(), e.Runs, verify.WideShare*100))
		}
	}
	if oneRun > 0 {
		w = append(w, fmt.Sprintf("%d conditions' headlines rest on one run each: a figure, and no interval", oneRun))
	}
	c.Res.Weakened = append(w, c.Res.Weakened...)
}
