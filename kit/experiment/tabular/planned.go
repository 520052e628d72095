package tabular

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// checkPlanned holds every run to a condition its manifest's parameters plan, in one of
// its rounds: a run of any other cell or round cannot be the plan's. An axis whose
// column a later kit added (Own.Later, tag later) may be empty in a run, as an earlier
// kit wrote it (line-cost's library before it had several): it then names no value.
func (t *Experiment[P, R]) checkPlanned(c *Check[P, R]) {
	planned, file, rounds := t.Conditions(c.M.Params()), t.Runs.File, *c.M.Rounds()
	later := t.later(reflect.TypeFor[R]())
	fits := func(run, plan Cell) bool {
		for i, a := range t.Axes {
			if _, added := later[a]; run[i] != plan[i] && (run[i] != "" || !added) {
				return false
			}
		}
		return true
	}
	for i, r := range c.Runs {
		cell, key := c.cellOf(r), "run "+verify.Short(column(r, "run_id"))
		if !slices.ContainsFunc(planned, func(p Cell) bool { return fits(cell, p) }) {
			c.Problem(verify.Problem{File: file, Line: c.Lines[file][i], Key: key,
				Msg: fmt.Sprintf("%s is not a condition of %s's parameters, which plan %s", verify.Short(cell.String()), bundle.ManifestFile, t.planText(planned))})
		}
		if round, err := strconv.Atoi(column(r, "round")); err != nil || round < 1 || round > rounds {
			c.Problem(verify.Problem{File: file, Line: c.Lines[file][i], Key: key, Column: "round", Have: verify.Short(column(r, "round")), Want: fmt.Sprintf("1 to %d", rounds),
				Msg: "a round of " + bundle.ManifestFile + "'s rounds"})
		}
	}
}

// planText says which values of each axis the conditions planned have: "api go|python,
// mode none|json".
func (t *Experiment[P, R]) planText(planned []Cell) string {
	var axes []string
	for i, a := range t.Axes {
		var values []string
		for _, c := range planned {
			if i < len(c) && !slices.Contains(values, c[i]) {
				values = append(values, c[i])
			}
		}
		axes = append(axes, a+" "+strings.Join(values, "|"))
	}
	return strings.Join(axes, ", ")
}
