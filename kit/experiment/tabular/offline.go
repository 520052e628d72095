package tabular

import (
	"fmt"
	"image/color"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/report"
	"github.com/logbench/logbench/kit/offline/verify"
)

// Drawn is one bundle of a report, for an experiment's own drawings: its label, its
// colour on every chart, its rows, and what is made of them once for the whole report.
type Drawn[P experiment.Params, R any] struct {
	Label  string
	Colour color.RGBA
	*Bundle[P, R]
	// Figures are the bundle's figures, as verify and compare state them.
	Figures []compare.Row
	// Own is what the experiment's Own.Drawn made of the bundle; nil without it.
	Own any
}

// bundleOf is the bundle a verification of this experiment read.
func (t *Experiment[P, R]) bundleOf(res *verify.Result) (*Bundle[P, R], error) {
	b, ok := res.Own.(*Bundle[P, R])
	if !ok {
		return nil, fmt.Errorf("%s: not verified as a bundle of the %s experiment", res.Name, t.About.Name)
	}
	return b, nil
}

// Figures are every figure of every condition over its verified runs, one value a run.
func (t *Experiment[P, R]) Figures(res *verify.Result) ([]compare.Row, error) {
	b, err := t.bundleOf(res)
	if err != nil {
		return nil, err
	}
	return b.figures(), nil
}

// Compare sets bundles side by side, figure by figure, in any format of compare, the
// published figures first with opt.Published where the experiment has them.
func (t *Experiment[P, R]) Compare(out, warn io.Writer, sources []experiment.Source, opt experiment.CompareOptions) error {
	return experiment.CompareWith(out, warn, sources, opt, t.Comparison(sources))
}

// Comparison is what the experiment says of a comparison of sources (CompareWith).
func (t *Experiment[P, R]) Comparison(sources []experiment.Source) experiment.Comparison {
	c := experiment.Comparison{Experiment: t.About.Name, Metrics: t.Metrics, PublishedMetrics: t.Own.PublishedMetrics,
		Side: func(s experiment.Source) (compare.Side, error) {
			b, err := t.bundleOf(s.Result)
			if err != nil {
				return compare.Side{}, err
			}
			side := compare.Side{Rows: b.figures(), Common: b.M.Head(), Manifest: b.M}
			if t.Own.Host != nil {
				side.Host = t.Own.Host(b)
			}
			return side, nil
		}}
	if t.Own.Legend != nil && len(sources) > 0 {
		if b, err := t.bundleOf(sources[0].Result); err == nil {
			c.Legend = t.Own.Legend(b)
		}
	}
	if sayNoisy[R]() {
		c.Legend = append(c.Legend, fmt.Sprintf("%s: a condition with runs that count measured on a noisy host, other work sharing it (%s host_noisy says by which rule; verify names how many).", MarkNoisy, t.Runs.File))
	}
	if t.Published != nil {
		c.Published = func(sources []experiment.Source) ([]compare.Row, []string, []string, error) {
			var bs []*Bundle[P, R]
			for _, s := range sources {
				b, err := t.bundleOf(s.Result)
				if err != nil {
					return nil, nil, nil, err
				}
				b.Label = s.Label
				bs = append(bs, b)
			}
			return t.Published(bs)
		}
	}
	return c
}

// Report draws every figure of the bundles, each condition's estimate with its
// interval, one chart a figure.
func (t *Experiment[P, R]) Report(w io.Writer, sources []experiment.Source, version string) error {
	var bs report.Bundles
	var drawn []Drawn[P, R]
	for _, s := range sources {
		b, ok := s.Result.Own.(*Bundle[P, R])
		if !ok {
			return fmt.Errorf("%s: not verified as a bundle of the %s experiment", s.Label, t.About.Name)
		}
		b.Label = s.Label
		var shown any = b.M.Params()
		if t.Own.ParamsShown != nil {
			shown = t.Own.ParamsShown(b.M.Params())
		}
		colour := bs.Add(s.Label, s.Result, b.M.Head(), shown)
		d := Drawn[P, R]{Label: s.Label, Colour: colour, Bundle: b, Figures: b.figures()}
		if t.Own.Drawn != nil {
			d.Own = t.Own.Drawn(d)
		}
		drawn = append(drawn, d)
	}
	cats, catOf := t.categories(drawn)
	groups := make([]report.Grouped, len(t.Metrics))
	var firstRows []compare.Row // the first bundle's figures, which the answer states
	for j, d := range drawn {
		rows := d.Figures
		if j == 0 {
			firstRows = rows
		}
		for i, m := range t.Metrics {
			series := report.Series{Name: d.Label, Colour: d.Colour, Values: make([]report.Value, len(cats))}
			for k := range series.Values {
				series.Values[k] = report.Absent
			}
			for _, r := range rows {
				if k := slices.Index(cats, catOf[j][kvText(r.Condition)]); r.Metric == m.Name && k >= 0 {
					e := compare.Estimate(r)
					series.Values[k] = report.Value{V: e.Value, Lo: e.Low, Hi: e.High}
				}
			}
			groups[i].Series = append(groups[i].Series, series)
		}
	}
	// The publication's figures, where the experiment has them, as strokes on its bars:
	// each beside the conditions a bundle measured.
	if t.Published != nil {
		var all []*Bundle[P, R]
		drawnAt := map[string]string{}
		for j, d := range drawn {
			all = append(all, d.Bundle)
			maps.Copy(drawnAt, catOf[j])
		}
		if pub, _, _, err := t.Published(all); err == nil {
			for i, m := range t.Metrics {
				groups[i].Published = published(pub, m.Name, cats, drawnAt)
			}
		}
	}
	// A condition is named by the axes that differ between the conditions drawn: an
	// axis every one shares says nothing and would only crowd the chart.
	names := shortNames(cats)
	page, err := bs.Page(t.About.Name, version, t.About.Summary, nil)
	if err != nil {
		return err
	}
	sec := report.Section{ID: "figures", Title: "Figures",
		Caption: "Each condition's figure: the mean over its verified runs, with its 95% Student-t interval over runs (none from one run)."}
	charts := map[int]report.Figure{} // by metric, each drawn once
	chart := func(i int) report.Figure {
		if _, ok := charts[i]; !ok {
			m := t.Metrics[i]
			charts[i] = report.Bars(m.Title, unitOfFigure[R](m.Name, firstRows), names, &groups[i], m.Log)
		}
		return charts[i]
	}
	var unmeasured []string
	for i, m := range t.Metrics {
		if t.Own.Charted != nil && !slices.Contains(t.Own.Charted, m.Name) {
			continue
		}
		if groups[i].Any() { // a figure no bundle measured draws no empty chart, and is named
			sec.Figures = append(sec.Figures, chart(i))
		} else {
			unmeasured = append(unmeasured, m.Title)
		}
	}
	if len(unmeasured) > 0 {
		sec.Caption += " No bundle here has a figure of " + strings.Join(unmeasured, "; ") + "."
	}
	question := t.About.Question
	if question == "" {
		question = "What does each condition measure?"
	}
	var first map[string]string
	if len(catOf) > 0 {
		first = catOf[0]
	}
	sentences, headline := t.answer(firstRows, func(cond string) string {
		if i := slices.Index(cats, first[cond]); i >= 0 && names[i] != "" {
			return names[i]
		}
		return cond
	}), 0
	for i, m := range t.Metrics {
		if m.Headline {
			headline = i
			break
		}
	}
	if t.Own.Answer != nil {
		sentences, headline = t.Own.Answer(drawn)
	}
	if t.Own.AnswerChart != nil {
		page.Open(question, sentences, t.Own.AnswerChart(drawn))
	} else {
		page.Open(question, sentences, chart(headline))
	}
	page.Sections = append(page.Sections, sec)
	if t.Drawings != nil {
		page.Sections = append(page.Sections, t.Drawings(drawn)...)
	}
	page.Sections = append(page.Sections, bs.Images())
	return report.Write(w, page)
}

// categories are every chart's categories, in the order the bundles give their
// conditions, and for each bundle the category of each of its conditions (by its name,
// Cell.String). A category is a condition, but for the axes each bundle holds one value
// of, a value of its own: there the bundles are set side by side by the axes they vary
// (a bundle of the Go API's conditions beside one of the Python API's), not each
// condition in a category of its own beside none.
func (t *Experiment[P, R]) categories(ds []Drawn[P, R]) (cats []string, catOf []map[string]string) {
	drawnCells := t.Conditions
	if t.Own.Categories != nil {
		drawnCells = t.Own.Categories
	}
	cells := make([][]Cell, len(ds))
	for j, d := range ds {
		cells[j] = drawnCells(d.M.Params())
	}
	aside := make([]bool, len(t.Axes))
	for a := range aside {
		one, values := true, map[string]bool{}
		for _, cs := range cells {
			held := map[string]bool{}
			for _, c := range cs {
				if a < len(c) {
					held[c[a]], values[c[a]] = true, true
				}
			}
			one = one && len(held) <= 1
		}
		aside[a] = one && len(values) > 1
	}
	for _, cs := range cells {
		of := map[string]string{}
		for _, c := range cs {
			var kept Cell
			for a, v := range c {
				if a >= len(aside) || !aside[a] {
					kept = append(kept, v)
				}
			}
			of[c.String()] = kept.String()
			if !slices.Contains(cats, kept.String()) {
				cats = append(cats, kept.String())
			}
		}
		catOf = append(catOf, of)
	}
	return cats, catOf
}

// answer is a sentence for each headline figure (every figure where none is marked):
// its range over the conditions, the lowest and the highest each stated with its
// interval and named as the charts name its condition (name, of the condition's name).
func (t *Experiment[P, R]) answer(rows []compare.Row, name func(condition string) string) []string {
	headlines := slices.ContainsFunc(t.Metrics, func(m compare.Metric) bool { return m.Headline })
	var out []string
	for _, m := range t.Metrics {
		if headlines && !m.Headline {
			continue
		}
		var lo, hi *compare.Row
		for i, r := range rows {
			if r.Metric != m.Name || compare.Estimate(r).Runs == 0 {
				continue
			}
			v := compare.Estimate(r).Value
			if lo == nil || v < compare.Estimate(*lo).Value {
				lo = &rows[i]
			}
			if hi == nil || v > compare.Estimate(*hi).Value {
				hi = &rows[i]
			}
		}
		if lo == nil {
			out = append(out, fmt.Sprintf("%s: no condition measured it.", capitalised(m.Title)))
			continue
		}
		unit := unitOfFigure[R](m.Name, rows)
		if unit == "1" {
			unit = ""
		}
		if lo == hi || compare.Estimate(*lo).Value == compare.Estimate(*hi).Value {
			out = append(out, fmt.Sprintf("%s: %s in every condition.", capitalised(m.Title), report.Stated(compare.Estimate(*lo), unit)))
			continue
		}
		out = append(out, fmt.Sprintf("%s: from %s (%s) to %s (%s).", capitalised(m.Title),
			report.Stated(compare.Estimate(*lo), unit), name(kvText(lo.Condition)), report.Stated(compare.Estimate(*hi), unit), name(kvText(hi.Condition))))
	}
	return out
}

// published are a metric's published figures by category (NaN where none), or nil
// where the publication has none of it: each at the category of the condition it is of
// (drawnAt, by the condition's name), where a bundle drew that condition.
func published(rows []compare.Row, metric string, cats []string, drawnAt map[string]string) []float64 {
	var out []float64
	for i, cat := range cats {
		for _, r := range rows {
			if at, ok := drawnAt[kvText(r.Condition)]; ok && r.Metric == metric && at == cat {
				if out == nil {
					out = make([]float64, len(cats))
					for j := range out {
						out[j] = math.NaN()
					}
				}
				out[i] = r.Value
			}
		}
	}
	return out
}

func capitalised(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// unitOfFigure is the unit of metric: its column's in R, or, for a figure the
// experiment states itself (Own.Figures) of no column of R, its rows'.
func unitOfFigure[R any](metric string, rows []compare.Row) string {
	if unit := unitOf[R](metric); unit != "" {
		return unit
	}
	for _, r := range rows {
		if r.Metric == metric {
			return r.Unit
		}
	}
	return ""
}
