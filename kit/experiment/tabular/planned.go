package tabular

import (
	"slices"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/verify"
)

// CheckPlanned holds every run to a condition its manifest's parameters plan: a run
// of any other cell cannot be the plan's, and why says what it is instead.
func CheckPlanned[P experiment.Params, R any](c *Check[P, R], why func(cell Cell) string) {
	planned, file := c.t.Conditions(c.M.Params()), c.t.Runs.File
	for i, r := range c.Runs {
		if cell := c.cellOf(r); !slices.ContainsFunc(planned, func(p Cell) bool { return slices.Equal(p, cell) }) {
			c.Problem(verify.Problem{File: file, Line: c.Lines[file][i], Key: "run " + column(r, "run_id"), Msg: why(cell)})
		}
	}
}
