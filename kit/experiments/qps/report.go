package qps

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/plotter"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/httpload"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/report"
)

// drawn is one bundle of a report: its label, colour and rows.
type drawn = tabular.Drawn[*Params, RunRow]

// cond finds the bundle's condition of a category (config, or api/config).
func cond(d drawn, cat string, multiAPI bool) *ConditionRow {
	for _, c := range ConditionsOf(d.Bundle) {
		if catOf(c.API, c.Config, multiAPI) == cat {
			return &c
		}
	}
	return nil
}

// runs are the bundle's verified runs of a category.
func runs(d drawn, cat string, multiAPI bool) []RunRow {
	return counting(d.Runs, func(r RunRow) bool { return catOf(r.API, r.Config, multiAPI) == cat })
}

// catOf is a condition's category on the x axis: its configuration, with its API when
// a bundle has several (bundles of one API each sit side by side by configuration).
func catOf(api, config string, multiAPI bool) string {
	if multiAPI {
		return api + "/" + config
	}
	return config
}

// drawings are the report's sections beyond the figures (which the kit draws, the
// published figures as strokes): how each setup differs from the published one and its
// runtimes, each run's seconds, the latency percentiles, wrk's agreement, and the
// conditions and runs as tables.
func drawings(bs []drawn) []report.Section {
	multiAPI := false
	for _, d := range bs {
		multiAPI = multiAPI || len(d.Params().APIs) > 1
	}
	runsOf := func(d drawn, cat string) []RunRow { return runs(d, cat, multiAPI) }
	var cats []string
	for _, d := range bs {
		for _, c := range ConditionsOf(d.Bundle) {
			cats = report.Union(cats, []string{catOf(c.API, c.Config, multiAPI)})
		}
	}
	notes := tabular.Attributed(bs, func(d drawn) []string { return UnlikePublished(*d.Params()) })
	out := []report.Section{{ID: "setup", Title: "Setup", Caption: "Published: " + mustPublished().Source + ". Unlike it: " + strings.Join(notes, "; ") + ".",
		Tables: []report.Table{versionsTable(bs)}}}
	// A capacity search's steps are the open loop's; qps's own load is the closed loop.
	out = append(out, httpload.Sections(bs, cats, SeriesFile, func(p *Params) bool { return p.Capacity.On() }, runsOf,
		func(r RunRow) httpload.Measured { return r.Measured })...)
	out = append(out, wrkSection(bs, cats, multiAPI))
	if s, ok := Search.Section(bs); ok {
		out = append(out, s)
	}
	out = append(out, report.Section{ID: "conditions", Title: "Conditions",
		Caption: "Every figure recomputed from the runs. ratio: to console+file, same API; cost/req: CPU per request over none's, inside the container + outside it; other cores: the host's busy CPU that neither the API, the generator nor the engine used; noisy: other cores over " + strconv.FormatFloat(experiment.NoisyOtherCores, 'g', -1, 64) + "; " + report.OtherCoresNote + ".",
		Tables:  tabular.TableEach(bs, conditionTable)})
	return append(out, report.Section{ID: "runs", Title: "Runs",
		Caption: "Every run, failed ones too, with the checks of its logs: every line the API wrote read back from the engine's log driver and from the file.",
		Tables:  tabular.TableEach(bs, runTable)})
}

// wrkSection is wrk's check of the kit's rate: the kit's rate over the interval over
// wrk's, on the same API container after the kit's load, with NOT CONFIRMED where they
// disagree beyond the tolerance.
func wrkSection(bs []drawn, cats []string, multiAPI bool) report.Section {
	s := report.Section{ID: "wrk", Title: "wrk's agreement",
		Caption: fmt.Sprintf("Debian's wrk loads the same API container from the same pod next to the kit's load (in every configuration since the kit alternates the two; after it, in none only, in earlier bundles), with the same connections and duration: the kit's rate over the interval divided by wrk's. They must agree within %g%%; the dashed lines bound that.", WrkTolerance*100)}
	// Only the categories where some bundle has wrk's agreement.
	cats = slices.DeleteFunc(slices.Clone(cats), func(cat string) bool {
		return !slices.ContainsFunc(bs, func(d drawn) bool { c := cond(d, cat, multiAPI); return c != nil && c.WrkAgreement.Present() })
	})
	if len(cats) == 0 {
		s.Empty = "No bundle here ran wrk (reproduce --wrk): the kit's rates are not checked against another load generator."
		return s
	}
	t := report.Table{Header: []string{"bundle", "condition", "runs with wrk", "kit req/s over the interval", "wrk req/s", "kit / wrk", "verdict"}, Text: 2}
	g := tabular.PerCategory(bs, cats, func(d drawn, cat string) report.Value {
		c := cond(d, cat, multiAPI)
		if c == nil || !c.WrkAgreement.Present() {
			return report.Absent
		}
		rs := runs(d, cat, multiAPI)
		ags := bundle.PresentOf(rs, func(r RunRow) Opt { return r.WrkAgreement })
		v := report.Absent
		v.V = float64(c.WrkAgreement)
		if len(ags) > 1 {
			v.Lo, v.Hi = slices.Min(ags), slices.Max(ags)
		}
		verdict := "confirmed"
		if !WrkAgrees(v.V) {
			verdict = "NOT CONFIRMED"
			s.Warnings = append(s.Warnings, fmt.Sprintf("NOT CONFIRMED: %s, %s/%s: the kit's closed-loop rate is %+.0f%% off wrk's on the same API, beyond the %g%% they must agree within; the kit's requests/s of this API are not vouched for.",
				d.Label, c.API, c.Config, (v.V-1)*100, WrkTolerance*100))
		}
		t.Rows = append(t.Rows, []string{d.Label, c.API + "/" + c.Config, fmt.Sprintf("%d of %d", len(ags), len(rs)),
			c.RequestsPerSOver.Fixed(0), c.WrkRequestsPerS.Fixed(0), c.WrkAgreement.Fixed(3), verdict})
		return v
	})
	g.Points = true
	ch := report.NewChart("The kit's rate over wrk's", "", "kit req/s over wrk's")
	ch.Add(g)
	lo, hi := 1-WrkTolerance, 1+WrkTolerance
	for _, y := range []float64{lo, hi} {
		if l, err := report.Line(plotter.XYs{{X: -0.6, Y: y}, {X: float64(len(cats)) - 0.4, Y: y}}, report.Grey, 1, true); err == nil {
			ch.Add(l)
		}
	}
	for _, sr := range g.Series {
		ch.AddLegend(sr.Name, report.Swatch{Colour: sr.Colour})
	}
	if l, err := report.Line(plotter.XYs{{}, {X: 1}}, report.Grey, 1, true); err == nil {
		ch.AddLegend(fmt.Sprintf("±%g%%", WrkTolerance*100), l)
	}
	report.Categories(ch.P, cats)
	_, _, ymin, ymax := g.DataRange()
	ch.P.Y.Min, ch.P.Y.Max = min(lo, ymin)-0.02, max(ymax, hi)+0.02
	ch.P.Y.Tick.Marker = report.LinearTicks{}
	s.Figures = []report.Figure{ch.Render()}
	s.Tables = []report.Table{t}
	return s
}

// versionsTable lists each API's runtime and libraries as the images record them.
func versionsTable(bs []drawn) report.Table {
	t := report.Table{Caption: "Each API's runtime and libraries.", Header: []string{"bundle", "api", "component", "version"}, Text: 4}
	return tabular.Labelled(bs, t, func(d drawn) (rows [][]string) {
		m := d.M.(*Manifest)
		for _, api := range slices.Sorted(maps.Keys(m.Versions)) {
			for _, k := range slices.Sorted(maps.Keys(m.Versions[api])) {
				rows = append(rows, []string{api, k, m.Versions[api][k]})
			}
		}
		for _, u := range m.Unmeasured {
			rows = append(rows, []string{"", "not measured", u})
		}
		return rows
	})
}

func conditionTable(d drawn) report.Table { return conditionsTable(d.Label, ConditionsOf(d.Bundle)) }

// conditionsTable is the conditions, one a row: the report's table and the summary's.
func conditionsTable(caption string, conds []ConditionRow) report.Table {
	t := report.Table{Caption: caption, Text: 1, Header: []string{"condition", "runs ok (noisy)", "req/s", "95% interval", "ratio", "published req/s", "published ratio",
		"p50 ms", "p99 ms", "lines written", "read", "dropped", "API cores", "engine cores", "other cores", "API µs/req", "engine µs/req", "cost/req µs in + out", "wrk req/s", "kit / wrk"}}
	for _, c := range conds {
		t.Rows = append(t.Rows, []string{c.API + "/" + c.Config, fmt.Sprintf("%d/%d (%d)", c.RunsVerified, c.Runs, c.RunsNoisy),
			c.RequestsPerS.Fixed(0), bundle.FixedInterval(c.RequestsPerSCILow, c.RequestsPerSCIHigh), c.RatioToConsoleFile.Fixed(2), c.PublishedReqPerS.Fixed(0), c.PublishedRatio.Fixed(2),
			c.LatencyP50Ms.Fixed(2), c.LatencyP99Ms.Fixed(2), strconv.FormatInt(c.LogLinesWritten, 10), c.LogLinesRead.Fixed(0), c.LogLinesDropped.Fixed(0),
			c.CPUAPICores.Fixed(2), c.CPUEngineCores.Fixed(2), report.Clamped(float64(c.OtherCPUCores), 2), c.CPUAPIUsPerReq.Fixed(1), c.CPUEngineUsPerReq.Fixed(1),
			inOut(c.CostPerRequestAPIUs, c.CostPerRequestEngineUs), c.WrkRequestsPerS.Fixed(0), c.WrkAgreement.Fixed(3)})
	}
	return t
}

func runTable(d drawn) report.Table {
	t := report.Table{Caption: d.Label, Text: 5, Header: []string{"run", "condition", "verified", "console", "file", "round", "req/s", "p50 ms", "p99 ms", "API cores", "engine cores", "other cores", "wrk req/s", "kit / wrk"}}
	for _, r := range d.Runs {
		verified := "yes"
		if !r.Verified {
			verified = "no: " + r.Failure
		}
		if r.HostNoisy {
			verified += " (noisy host)"
		}
		t.Rows = append(t.Rows, []string{r.RunID, r.API + "/" + r.Config, verified, r.ConsoleVerified, r.FileVerified, strconv.Itoa(r.Round), fmt.Sprintf("%.0f", r.RequestsPerS),
			fmt.Sprintf("%.2f", r.LatencyP50Ms), fmt.Sprintf("%.2f", r.LatencyP99Ms), r.APICPUCores.Fixed(2), r.EngineCores.Fixed(2), report.Clamped(float64(r.OtherCores), 2),
			r.WrkRequestsPerS.Fixed(0), r.WrkAgreement.Fixed(3)})
	}
	return t
}

// answer is the page's opening: for each bundle and API, what console and file logs
// cost in requests per second and in the API's CPU per request, against none, each
// figure as compare states it.
func answer(bs []drawn) ([]string, int) {
	var out, marks []string
	for _, d := range bs {
		rows := Rows(d.Bundle)
		for _, api := range d.Params().APIs {
			who := api
			if len(bs) > 1 {
				who = api + " in " + d.Label
			}
			fig := func(metric, config string) (string, bool) {
				r, ok := report.RowOf(rows, metric, compare.KV{Key: "api", Value: api}, compare.KV{Key: "config", Value: config})
				if !ok {
					return "", false
				}
				marks = report.Union(marks, r.Marks)
				return report.StatedRow(r, ""), true
			}
			for _, m := range []struct{ metric, what string }{
				{"requests_per_s", "requests per second"}, {"api_cpu_us_per_request", "API CPU per request (µs)"}} {
				var with []string
				for _, config := range []string{ConsoleFile, Console, File} {
					if v, ok := fig(m.metric, config); ok {
						with = append(with, v+" with "+logsOf(config))
					}
				}
				none, hasNone := fig(m.metric, NoLog)
				switch {
				case len(with) == 0 && !hasNone:
					continue
				case len(with) == 0:
					out = append(out, fmt.Sprintf("%s, %s: %s with no logging, the only configuration run.", who, m.what, none))
				case !hasNone:
					out = append(out, fmt.Sprintf("%s, %s: %s; no run without logging to set them against.", who, m.what, strings.Join(with, ", ")))
				default:
					out = append(out, fmt.Sprintf("%s, %s: %s, against %s with no logging.", who, m.what, strings.Join(with, ", "), none))
				}
			}
		}
	}
	if len(marks) > 0 {
		out = append(out, fmt.Sprintf("Every figure is the mean over runs with its 95%% interval over runs; %s marks one not to be trusted as it stands (%s).", report.Untrusted, strings.Join(marks, "; ")))
	} else {
		out = append(out, "Every figure is the mean over runs with its 95% interval over runs.")
	}
	return out, 0 // requests per second
}

// logsOf says a configuration in words.
func logsOf(config string) string {
	switch config {
	case ConsoleFile:
		return "console and file logs"
	case Console:
		return "console logs"
	case File:
		return "file logs"
	}
	return config
}

// summary is every condition beside the published figures and ratios, and wrk's
// verdict on each rate.
func summary(b *Bundle, w io.Writer) error {
	p, conds, pub := *b.Params(), ConditionsOf(b), mustPublished()
	if p.Capacity.On() {
		// The steps are the figures: each condition's runs offered different rates, so
		// the closed loop's table, which pools them, would say nothing.
		return writeNotesAndSearch(b, w)
	}
	if err := conditionsTable("", conds).WriteText(w); err != nil {
		return err
	}
	fmt.Fprintf(w, "\npublished: %s\n", pub.Source)
	fmt.Fprintf(w, "req/s: mean of the runs' autocannon figures (mean of per-second counts), [95%% t-interval over runs]; ratio: to console+file of the same API\n")
	fmt.Fprintf(w, "cost/req: CPU per request over none's, inside the API's container + outside it (%s); other cores: the host's busy CPU that neither the API, the generator nor the engine used; noisy: other cores over %g\n", engineText(p.EngineKind), experiment.NoisyOtherCores)
	for _, c := range conds {
		if c.WrkRequestsPerS.Present() {
			fmt.Fprintf(w, "wrk (Debian, same API container, %s, -c %d): %s/%s %.0f req/s; the kit's over the interval / wrk's %.3f [%s, %s], %s of %s runs within %g%% (runs.csv has every run's)\n",
				wrkWhen(p), p.Connections, c.API, c.Config, float64(c.WrkRequestsPerS), c.WrkAgreement.Or(0),
				c.WrkAgreementCILow.Fixed(3), c.WrkAgreementCIHigh.Fixed(3), c.RunsWrkAgreeing.Fixed(0), c.RunsWrk.Fixed(0), WrkTolerance*100)
			if !WrkAgrees(c.WrkAgreement.Or(0)) {
				fmt.Fprintf(w, "NOT CONFIRMED: %s's rates: the kit's closed-loop rate is %+.0f%% off wrk's on the same API, beyond the %g%% they must agree within; the kit's requests/s of this API are not vouched for\n",
					c.API, (c.WrkAgreement.Or(0)-1)*100, WrkTolerance*100)
			}
		}
	}
	return writeNotesAndSearch(b, w)
}

// writeNotesAndSearch ends the summary: how the bundle's setup differs from the
// published one, then a capacity search's steps and vegeta's check of them.
func writeNotesAndSearch(b *Bundle, w io.Writer) error {
	for _, d := range UnlikePublished(*b.Params()) {
		fmt.Fprintf(w, "NOTE: %s\n", d)
	}
	Search.WriteSummary(b, w)
	for _, l := range VegetaLines(b.Runs) {
		fmt.Fprintln(w, l)
	}
	return nil
}

// VegetaTolerance is how far the kit's p50 and p99 may be from vegeta's, as a share of
// vegeta's, to agree.
const VegetaTolerance = 0.05

// VegetaLines hold each step that vegeta checked (--vegeta) against the kit's half of
// the same seconds: each offered half the rate at once, so that both measured the same
// API through the same pauses of the host. vegeta counts from its own send, so the
// kit's figures set beside it are from when each request could leave (its latency less
// its send lag); the kit's from the schedule follow.
func VegetaLines(runs []RunRow) []string {
	var lines []string
	var checked, agree int
	for _, r := range runs {
		if !r.VegetaP99Ms.Present() || !r.VegetaKitNetP99Ms.Present() || r.VegetaP50Ms <= 0 || r.VegetaP99Ms <= 0 {
			continue
		}
		checked++
		p50, p99 := float64(r.VegetaKitNetP50Ms/r.VegetaP50Ms), float64(r.VegetaKitNetP99Ms/r.VegetaP99Ms)
		ok := math.Abs(p50-1) <= VegetaTolerance && math.Abs(p99-1) <= VegetaTolerance
		if ok {
			agree++
		}
		lines = append(lines, fmt.Sprintf("vegeta %s/%s %s: p50 %s ms, kit %s (x%.2f; %s from the schedule), p99 %s ms, kit %s (x%.2f; %s from the schedule)%s",
			r.API, r.Config, r.Step, r.VegetaP50Ms.Fixed(3), r.VegetaKitNetP50Ms.Fixed(3), p50, r.VegetaKitP50Ms.Fixed(3),
			r.VegetaP99Ms.Fixed(2), r.VegetaKitNetP99Ms.Fixed(2), p99, r.VegetaKitP99Ms.Fixed(2), map[bool]string{true: "", false: " DIFFERS"}[ok]))
	}
	if checked > 0 {
		lines = append(lines, fmt.Sprintf("vegeta and the kit each at half of each step's rate at once, before the kit's measured load: %d of %d steps agree on p50 and p99 within %g%%", agree, checked, VegetaTolerance*100))
	}
	return lines
}

// engineText names the engine processes counted outside the container.
func engineText(kind string) string {
	if what := contract.EngineProcessesOf(kind); what != "" {
		return kind + ": " + what
	}
	if kind == "" {
		return "the engine's processes, when measured"
	}
	return kind
}

// inOut is a cost inside + outside the container.
func inOut(in, out Opt) string {
	if !out.Present() {
		return in.Fixed(1) + " + -"
	}
	return fmt.Sprintf("%s + %s", in.Fixed(1), out.Fixed(1))
}

// UnlikePublished lists where p departs from the published setup.
func UnlikePublished(p Params) []string {
	var d []string
	if p.Capacity.On() {
		d = append(d, fmt.Sprintf("a capacity search: the open loop at each step's rate for %gs, latency from the scheduled send; published: the closed loop -c 10 -p 1 -d 5s", p.DurationS))
	} else if p.Connections != 10 || p.Pipelining != 1 || p.DurationS != 5 {
		d = append(d, fmt.Sprintf("load -c %d -p %d -d %gs, published -c 10 -p 1 -d 5s", p.Connections, p.Pipelining, p.DurationS))
	}
	if p.Limits.APICPUs > 0 {
		d = append(d, fmt.Sprintf("the API is limited to %g CPU (published: no limits, a developer's machine)", p.Limits.APICPUs))
	}
	d = append(d, "the published API is Nest.js on Express; this one is Express and morgan alone (Nest's layers are not in reach), so absolute rates differ; the ratios are the fidelity check")
	return d
}

// wrkWhen says when a bundle's wrk ran against the kit's load.
func wrkWhen(p Params) string {
	if p.WrkOrder == WrkAlternate {
		return "before the kit's load in odd runs, after it in even ones"
	}
	return "after the kit's load"
}
