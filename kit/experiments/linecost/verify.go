package linecost

import (
	"fmt"
	"strconv"

	"github.com/logbench/logbench/kit/experiment/tabular"
	lc "github.com/logbench/logbench/kit/incontainer/linecost"
	"github.com/logbench/logbench/kit/offline/verify"
)

// checker is a verified bundle as line-cost's rules see it: the kit has checked its
// files, keys, references and counts, and judged every run again from its trials.
type checker struct {
	*tabular.Check[*Params, RunRow]
	trials []TrialRow
	conds  []ConditionRow // conditions.csv as the file has it
}

// rules holds a bundle the kit read to what only line-cost knows: each trial's checks
// made again (every written line against the kit's regeneration of it), the rules of
// what can happen at all, and the physical rules; then it says what weakens the figures.
func rules(tc *tabular.Check[*Params, RunRow]) {
	c := &checker{Check: tc, trials: Trials(tc.Bundle), conds: tabular.Of[ConditionRow](tc.Derived, ConditionsFile)}
	b := tc.Bundle
	c.rows(b)
	c.rules(b)   // rules.go
	c.physics(b) // rules.go
	if p := b.Params(); p.Resamples > 0 {
		c.Res.Notes = append(c.Res.Notes, verify.Problem{File: ConditionsFile, Msg: fmt.Sprintf("an earlier kit's figures per line (bootstrap_resamples %d): "+
			"medians of the trials pooled over runs, their intervals a bootstrap of those medians; recomputed by that kit's rule. "+
			"The figures shown are over runs: each run's median, then their mean with a Student-t interval over runs", p.Resamples)})
	}
	c.Res.Described = fmt.Sprintf("%d trials", len(c.trials))
	c.weakened(b)
}

// rows makes every trial's checks and every run's verdict again.
func (c *checker) rows(b *Bundle) {
	p := *b.Params()
	byRun := map[string]int{}
	for i, r := range b.Runs {
		byRun[r.RunID] = i
	}
	trialsOf := make([][]TrialRow, len(b.Runs))
	for i, t := range c.trials {
		line, key := i+2, fmt.Sprintf("run %s trial %d", t.RunID, t.Trial)
		ri, known := byRun[t.RunID]
		if !known {
			continue // verify.Tables names the trial of no run
		}
		r := b.Runs[ri]
		template := templateOfRun(p, r)
		if t.RunKey != r.RunKey || t.Round != r.Round {
			c.Problem(verify.Problem{File: TrialsFile, Line: line, Key: key, Msg: "language, way or round differ from the run's"})
		}
		if r.LineFormat == template && t.Lines != p.LinesOf(t.Way) {
			c.Problem(verify.Problem{File: TrialsFile, Line: line, Key: key, Column: "lines", Have: fmt.Sprint(t.Lines), Want: fmt.Sprint(p.LinesOf(t.Way)), Msg: "the manifest's lines per trial"})
		}
		verify.Differ(c.Res, TrialsFile, line, key, t, CheckTrialWith(t, template), "", c.Absent[TrialsFile], "recomputed from the trial's counts and the kit's own lines")
		trialsOf[ri] = append(trialsOf[ri], t)
	}
	for i, r := range b.Runs {
		key := "run " + r.RunID
		if template := templateOfRun(p, r); r.Verified && r.LineFormat != template {
			c.Problem(verify.Problem{File: RunsFile, Line: i + 2, Key: key, Column: "line_format", Have: strconv.Quote(r.LineFormat), Want: strconv.Quote(template)})
		}
		if r.Verified && len(trialsOf[i]) != p.Trials {
			c.Problem(verify.Problem{File: RunsFile, Line: i + 2, Key: key, Msg: fmt.Sprintf("verified with %d trials in %s, the manifest asks %d", len(trialsOf[i]), TrialsFile, p.Trials)})
		}
	}
}

// templateOfRun is the kit's own line of the run's library in the manifest's shape.
func templateOfRun(p Params, r RunRow) string {
	lib, ok := LibraryOfRun(r.Language, r.LibraryID)
	if !ok {
		return lc.LineFormat
	}
	return p.TemplateOf(lib)
}
