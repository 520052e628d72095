package capacitysearch

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/capacity"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/report"
	"github.com/logbench/logbench/kit/offline/verify"
	"gonum.org/v1/plot/plotter"
)

// Check holds a search to its rule: each subject's steps the rule's from the start
// rate (a forged capacity is refused), and a complete bundle's searches ended; then it
// counts the subjects as the bundle's conditions and says the capacities in verify's
// text. The kit derives steps.csv again from the runs;
// that every run is a planned step's is the experiment's rule of its conditions.
func (s *Search[P, R]) Check(ch *tabular.Check[P, R]) {
	res, p := ch.Res, ch.Params()
	c := s.Of(p)
	// A step is a condition of the plan; the bundle's conditions are what is searched.
	res.Counts.Conditions = len(s.Subjects(p))
	m := ch.M.Head()
	complete := m.Complete && !m.Interrupted
	judged := s.Steps(p, ch.Runs)
	// Each request's latency less its send lag is at most its latency, so the same holds
	// of their p99s: a net p99 above the p99 was not measured.
	for _, st := range judged {
		if st.NetP99Ms.Present() && st.P99Ms.Present() && float64(st.NetP99Ms) > float64(st.P99Ms) {
			res.Problem(verify.Problem{File: StepsFile, Key: "run " + st.RunID, Column: "net_p99_ms", Have: st.NetP99Ms.Fixed(3), Want: "at most " + st.P99Ms.Fixed(3),
				Msg: "the p99 of latencies less their send lags cannot exceed the p99 of the latencies"})
		}
	}
	for _, name := range s.Names(p) {
		for round := 1; round <= c.Searches(); round++ {
			s.checkSearch(ch, judged, name, round, complete)
		}
	}
	if res.OK() {
		line := "capacity: " + strings.Join(s.Lines(p, ch.Runs), "; ")
		if res.Described != "" {
			line = res.Described + "; " + line
		}
		res.Described = line
	}
}

// checkSearch holds one search of a subject to the rule.
func (s *Search[P, R]) checkSearch(ch *tabular.Check[P, R], judged []StepRow, name string, round int, complete bool) {
	res, p := ch.Res, ch.Params()
	c := s.Of(p)
	rule := c.Rule()
	key := "config " + name
	if round > 1 {
		key += " search " + strconv.Itoa(round)
	}
	var planned []PlannedStep
	for _, ps := range c.Steps {
		if ps.Config == name && ps.search() == round {
			planned = append(planned, ps)
		}
	}
	steps, pending := s.search(p, judged, name, round)
	for i, ps := range planned {
		if ps.Step != i+1 {
			res.Problem(verify.Problem{File: bundle.ManifestFile, Column: "parameters.capacity.steps", Key: key, Have: strconv.Itoa(ps.Step), Want: strconv.Itoa(i + 1), Msg: "a search's steps are numbered from 1 in order"})
			return
		}
	}
	// A bundle saved between a step's run and the planning of the next says it is
	// complete while its search goes on (a crash in between): the capacity line says
	// the search was interrupted, and resuming goes on with it.
	if err := rule.Check(steps, false); err != nil {
		res.Problem(verify.Problem{File: StepsFile, Key: key, Msg: "the search: " + err.Error()})
		return
	}
	if !pending {
		return
	}
	if complete {
		res.Problem(verify.Problem{File: StepsFile, Key: key, Msg: fmt.Sprintf("step %d is planned but has no run, in a complete bundle", len(steps)+1)})
	} else if next := rule.Judge(steps); next.Done() || planned[len(steps)].RateRPS != next.NextRPS {
		res.Problem(verify.Problem{File: bundle.ManifestFile, Column: "parameters.capacity.steps", Key: key, Have: fmt.Sprint(planned[len(steps)].RateRPS), Want: fmt.Sprint(next.NextRPS), Msg: "the step planned next is not the search's rule"})
	}
}

// WriteSummary is the summary's part of a search: the steps, then the capacities;
// nothing when the bundle is no search.
func (s *Search[P, R]) WriteSummary(b *tabular.Bundle[P, R], w io.Writer) {
	p := b.Params()
	c := s.Of(p)
	if !c.On() {
		return
	}
	searches := ""
	if c.Searches() > 1 {
		searches = fmt.Sprintf("; %d searches of each configuration, their steps interleaved", c.Searches())
	}
	fmt.Fprintf(w, "\ncapacity search: steps x%g from %g req/s until one fails, then bisection to %s; each step one run, judged by its last attempt%s\n",
		c.Factor, c.StartRPS, pct(c.Resolution), searches)
	fmt.Fprintf(w, "%-15s %6s %4s %8s %8s %8s %8s %6s %9s %9s %7s  %s\n", "config", "search", "step", "rate", "p50 ms", "p99 ms", "net p99", "errors", "lag p99", "gen cores", "carried", "")
	for _, st := range s.Steps(p, b.Runs) {
		state := st.state()
		if st.GeneratorLimited && !st.Superseded {
			state = "GENERATOR-LIMITED"
		}
		fmt.Fprintf(w, "%-15s %6d %4d %8.0f %8s %8s %8s %6d %9s %9s %7s  %s\n", st.Config, max(1, st.Search), st.Step, st.RateRPS, st.P50Ms.Fixed(2), st.P99Ms.Fixed(2), st.NetP99Ms.Fixed(2), st.Errors,
			st.SendLagP99Ms.Fixed(2), st.GeneratorCores.Fixed(2), st.CarriedRPS.Fixed(0), state)
	}
	for _, line := range s.Lines(p, b.Runs) {
		fmt.Fprintf(w, "CAPACITY %s\n", line)
	}
	if c.Searches() == 1 {
		fmt.Fprintln(w, "one search of each configuration: a capacity with no interval, and a change with no test (--reps 3 searches each three times)")
	}
}

// Section is the report's part of the bundles that are searches: each subject's
// capacity against its baseline, then every step; ok false when none is a search.
func (s *Search[P, R]) Section(bs []tabular.Drawn[P, R]) (sec report.Section, ok bool) {
	for _, d := range bs {
		p := d.Params()
		if !s.Of(p).On() {
			continue
		}
		ok = true
		for _, l := range s.Lines(p, d.Runs) {
			sec.Warnings = append(sec.Warnings, d.Label+": "+l)
		}
		t := report.Table{Caption: d.Label + ": steps", Text: 2,
			Header: []string{"config", "outcome", "search", "step", "rate req/s", "p50 ms", "p99 ms", "p99 less send lag ms", "errors", "carried req/s", "send lag p99 ms", "generator cores"}}
		for _, st := range s.Steps(p, d.Runs) {
			t.Rows = append(t.Rows, []string{st.Config, st.state(), strconv.Itoa(max(1, st.Search)), strconv.Itoa(st.Step), capacity.Thousands(st.RateRPS), st.P50Ms.Fixed(2), st.P99Ms.Fixed(2), st.NetP99Ms.Fixed(2),
				strconv.FormatInt(st.Errors, 10), st.CarriedRPS.Fixed(0), st.SendLagP99Ms.Fixed(2), st.GeneratorCores.Fixed(2)})
		}
		sec.Tables = append(sec.Tables, t)
		sec.Figures = append(sec.Figures, s.curve(d.Label, p, d.Runs))
	}
	sec.ID, sec.Title = "capacity", "Capacity at a latency target"
	sec.Caption = "Each configuration's search: steps ×2 from the start rate while each holds (its p99 from the scheduled send within the target, no error, at least 90% of its rate carried), " +
		"then bisection between the last held and the first failed rate to the resolution; with several searches of a configuration, its capacity is their mean with a 95% Student-t interval over the searches; a step that missed the target while its generator used its CPU to the limit, or sent late and kept the target with each request's send lag taken out, is the generator's limit, " +
		"never counted against the service, and ends the search. verify replays the rule on the steps."
	return sec, ok
}

// curve is the latency against the rate of a bundle's searches: every step's p99 (its
// last attempt), one colour a subject, the target a dashed grey line, and each
// subject's capacity a dashed line in its colour where the p99 leaves the target: the
// knee. Both axes are logarithmic, as the rates double step to step.
func (s *Search[P, R]) curve(label string, p P, runs []R) report.Figure {
	c := s.Of(p)
	ch := report.NewChart(label+": p99 against the rate offered", "rate offered, req/s (log)", "p99 from the scheduled send, ms (log)")
	steps := s.Steps(p, runs)
	lo, hi, plo, phi := math.Inf(1), math.Inf(-1), c.SLOP99Ms, c.SLOP99Ms
	for _, st := range steps {
		if !st.Superseded && st.P99Ms.Present() && st.P99Ms > 0 {
			lo, hi = min(lo, st.RateRPS), max(hi, st.RateRPS)
			plo, phi = min(plo, float64(st.P99Ms)), max(phi, float64(st.P99Ms))
		}
	}
	if math.IsInf(lo, 1) {
		return report.Failed(ch.P.Title.Text, fmt.Errorf("no step has a p99"))
	}
	for i, f := range s.Found(p, runs) {
		var xys plotter.XYs
		for _, st := range steps {
			if st.Config == f.Config && !st.Superseded && st.P99Ms.Present() && st.P99Ms > 0 {
				xys = append(xys, plotter.XY{X: st.RateRPS, Y: float64(st.P99Ms)})
			}
		}
		if len(xys) == 0 {
			continue
		}
		col := report.Colour(i)
		pts, err := report.Points(xys, col, report.Shapes[i%len(report.Shapes)], 3)
		if err != nil {
			return report.Failed(ch.P.Title.Text, err)
		}
		ch.Add(pts)
		name := f.Config
		if held := f.Estimate.Value; f.Exact() {
			name += ": " + capacity.Thousands(held) + " req/s"
			if knee, err := report.Line(plotter.XYs{{X: held, Y: plo / 1.4}, {X: held, Y: phi * 1.4}}, col, 1, true); err == nil {
				ch.Add(knee)
			}
		} else {
			name += ": not found to the resolution"
		}
		ch.AddLegend(name, pts)
	}
	if slo, err := report.Line(plotter.XYs{{X: lo / 1.4, Y: c.SLOP99Ms}, {X: hi * 1.4, Y: c.SLOP99Ms}}, report.Grey, 1, true); err == nil {
		ch.Add(slo)
		ch.AddLegend("target p99 ≤ "+strconv.FormatFloat(c.SLOP99Ms, 'g', -1, 64)+" ms", slo)
	}
	report.LogAxis(&ch.P.X, lo, hi)
	report.LogAxis(&ch.P.Y, plo, phi)
	return ch.Render()
}

// Rows are a search bundle's figures for compare and JSON: each subject's capacity at
// the target, its searches as its runs (one search: one value, no interval), marked
// when a search found a bound rather than a measurement, so that it enters no geomean.
// The steps' own figures, at rates that differ step to step, pool into nothing and are
// not rows. axes names a subject's condition as the experiment's other rows do.
func (s *Search[P, R]) Rows(p P, runs []R, axes func(subject string) []compare.KV) []compare.Row {
	c := s.Of(p)
	metric := "capacity_at_p99_" + strconv.FormatFloat(c.SLOP99Ms, 'g', -1, 64) + "ms"
	var out []compare.Row
	for _, f := range s.Found(p, runs) {
		var held [][]float64
		var marks []string
		for _, r := range f.Searches {
			if r.HeldRPS > 0 {
				held = append(held, []float64{r.HeldRPS})
			}
			if exact(r.Result) {
				continue
			}
			why := ""
			switch r.Stop {
			case capacity.MaxSteps:
				why = ", not resolved: the steps ran out"
			case capacity.Going:
				why = ", the search was interrupted"
			}
			if len(f.Searches) > 1 {
				why += fmt.Sprintf(" (search %d)", r.Round)
			}
			marks = append(marks, "a bound: "+r.Text()+why)
		}
		if len(held) == 0 {
			continue // none held: no figure
		}
		// A bound (some search did not find its capacity) is its lowest rate held, with no
		// interval: it says "at least", and no number of rounds makes it precise.
		row := compare.Measured(axes(f.Config), metric, "req/s", compare.Mean{}, held)
		if len(held) == 1 || len(marks) > 0 {
			row = compare.Fixed(axes(f.Config), metric, "req/s", slices.MinFunc(held, func(a, b []float64) int { return cmp.Compare(a[0], b[0]) })[0])
		}
		row.Marks, row.Headline = marks, true
		out = append(out, row)
	}
	return out
}
