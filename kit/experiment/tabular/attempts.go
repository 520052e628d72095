package tabular

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/verify"
)

// RuleAttempts is the rule checkAttempts names: a round's attempts of a condition are
// 1..k, or 0 alone.
const RuleAttempts = "attempts-contiguous"

// checkAttempts holds the runs of an experiment that redoes runs (Own.Retry) to what a
// matrix leaves: each condition's round has one run that counts, its latest attempt,
// the attempts before it superseded and numbered 1..k. A bundle of a kit before runs
// were redone has attempt 0 everywhere and nothing superseded. R has the columns
// attempt and superseded; a run whose run_id is empty or seen before is verify.Tables'
// problem, and is not held here. Verify holds the runs of every experiment that
// redoes runs to it.
func checkAttempts[P experiment.Params, R any](c *Check[P, R]) {
	runs, file := c.Runs, c.t.Runs.File
	lines := c.Lines[file]
	type key struct {
		cell  string
		round int
	}
	byRound := map[key][]int{}
	var order []key
	seenID := map[string]bool{}
	attempt := func(i int) int { a, _ := strconv.Atoi(column(runs[i], "attempt")); return a }
	problem := func(i int, have, want, msg string) {
		c.Problem(verify.Problem{File: file, Line: lines[i], Key: "run " + column(runs[i], "run_id"), Column: "attempt", Have: have, Want: want, Msg: msg})
	}
	for i, r := range runs {
		id := column(r, "run_id")
		if id == "" || seenID[id] {
			continue
		}
		seenID[id] = true
		round, _ := strconv.Atoi(column(r, "round"))
		k := key{c.cellOf(r).String(), round}
		if _, ok := byRound[k]; !ok {
			order = append(order, k)
		}
		byRound[k] = append(byRound[k], i)
	}
	for _, k := range order {
		idx := byRound[k]
		name := fmt.Sprintf("%s round %d", k.cell, k.round)
		var counting []int
		seen := map[int]int{}
		for _, i := range idx {
			a := attempt(i)
			if a < 0 || (a == 0 && (!counts(runs[i]) || len(idx) > 1)) {
				problem(i, strconv.Itoa(a), "1 or more", "a run of a round performed more than once numbers its attempts")
			}
			if j, dup := seen[a]; dup && a > 0 {
				problem(i, "", "", fmt.Sprintf("attempt %d of %s again (first on line %d)", a, name, lines[j]))
			}
			seen[a] = i
			if counts(runs[i]) {
				counting = append(counting, i)
			}
		}
		contiguous(idx, attempt, name, problem)
		if len(counting) > 1 {
			i := counting[1]
			c.Problem(verify.Problem{File: file, Line: lines[i], Key: "run " + column(runs[i], "run_id"), Column: "superseded",
				Msg: fmt.Sprintf("%d runs of %s count; all but the last attempt must be superseded", len(counting), name)})
			continue
		}
		if len(counting) == 1 {
			kept := counting[0]
			for _, i := range idx {
				if !counts(runs[i]) && attempt(i) >= attempt(kept) {
					problem(i, strconv.Itoa(attempt(i)), "below "+strconv.Itoa(attempt(kept)),
						"a superseded attempt came before the run that counts (run "+column(runs[kept], "run_id")+")")
				}
			}
		}
	}
}

// contiguous: a round's attempts (the runs idx) are 1..k, or hold a 0, which
// checkAttempts names among others.
func contiguous(idx []int, attempt func(int) int, name string, problem func(i int, have, want, msg string)) {
	atts := make([]int, 0, len(idx))
	for _, i := range idx {
		atts = append(atts, attempt(i))
	}
	if slices.Contains(atts, 0) {
		return
	}
	slices.Sort(atts)
	for k, a := range atts {
		if a != k+1 {
			i := idx[0]
			for _, j := range idx {
				if attempt(j) == a {
					i = j
				}
			}
			problem(i, strconv.Itoa(a), strconv.Itoa(k+1),
				verify.Rule(RuleAttempts, fmt.Sprintf("the %d runs of %s are attempts 1..%d", len(atts), name, len(atts))))
			return
		}
	}
}
