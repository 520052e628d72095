package qps

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/plotter"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/report"
)

// Report draws several bundles on one page, on the same axes: a colour per bundle.
func (Experiment) Report(w io.Writer, sources []experiment.Source, version string) error {
	return writeReport(w, sources, version)
}

// drawn is one bundle as the drawings need it.
type drawn struct {
	label  string
	colour color.RGBA
	b      *Bundle
	rows   []compare.Row // its figures, as compare and verify state them
}

// cond finds the bundle's condition of a category (config, or api/config).
func (d drawn) cond(cat string, multiAPI bool) *ConditionRow {
	for i, c := range d.b.Conditions {
		if catOf(c.API, c.Config, multiAPI) == cat {
			return &d.b.Conditions[i]
		}
	}
	return nil
}

// runs are the bundle's verified runs of a category.
func (d drawn) runs(cat string, multiAPI bool) []RunRow {
	var out []RunRow
	for _, r := range d.b.Runs {
		if r.Verified && catOf(r.API, r.Config, multiAPI) == cat {
			out = append(out, r)
		}
	}
	return out
}

// catOf is a condition's category on the x axis: its configuration, with its API when
// a bundle has several (bundles of one API each sit side by side by configuration).
func catOf(api, config string, multiAPI bool) string {
	if multiAPI {
		return api + "/" + config
	}
	return config
}

func writeReport(w io.Writer, sources []experiment.Source, version string) error {
	pub, err := LoadPublished()
	if err != nil {
		return err
	}
	var bs []drawn
	var page report.Bundles
	multiAPI := false
	for _, s := range sources {
		b, err := bundleOf(s.Result)
		if err != nil {
			return err
		}
		bs = append(bs, drawn{label: s.Label, colour: page.Add(s.Label, s.Result, &b.M.Common, b.M.Parameters), b: b, rows: Rows(b, s.Result.Speed)})
		multiAPI = multiAPI || len(b.M.Parameters.APIs) > 1
	}
	var cats []string
	for _, d := range bs {
		for _, c := range d.b.Conditions {
			if k := catOf(c.API, c.Config, multiAPI); !slices.Contains(cats, k) {
				cats = append(cats, k)
			}
		}
	}

	// Each note once, with the bundles it concerns.
	var notes []string
	who := map[string][]string{}
	for _, d := range bs {
		for _, n := range UnlikePublished(d.b.M.Parameters) {
			if who[n] == nil {
				notes = append(notes, n)
			}
			who[n] = append(who[n], d.label)
		}
	}
	for i, n := range notes {
		notes[i] = strings.Join(who[n], ", ") + ": " + n
	}
	p, err := page.Page(Name, version,
		"Requests per second of an API that writes an access log to the console, a file, both or neither, under a closed-loop load. Published: "+pub.Source,
		notes, versionsTable(bs))
	if err != nil {
		return err
	}

	rate := group(bs)
	ratio := group(bs)
	rate.Published, ratio.Published = make([]float64, len(cats)), make([]float64, len(cats))
	for i, cat := range cats {
		rate.Published[i], ratio.Published[i] = math.NaN(), math.NaN()
		for j, d := range bs {
			c := d.cond(cat, multiAPI)
			if c == nil {
				rate.Series[j].Values = append(rate.Series[j].Values, report.Absent)
				ratio.Series[j].Values = append(ratio.Series[j].Values, report.Absent)
				continue
			}
			rate.Series[j].Values = append(rate.Series[j].Values, report.Value{V: f(c.RequestsPerS), Lo: f(c.RequestsPerSCILow), Hi: f(c.RequestsPerSCIHigh)})
			ratio.Series[j].Values = append(ratio.Series[j].Values, report.Value{V: f(c.RatioToConsoleFile), Lo: math.NaN(), Hi: math.NaN()})
			if c.PublishedReqPerS.Present() {
				rate.Published[i] = float64(c.PublishedReqPerS)
			}
			if c.PublishedRatio.Present() {
				ratio.Published[i] = float64(c.PublishedRatio)
			}
		}
	}
	rateFig := report.Bars("Requests per second", "req/s", cats, rate, false)
	p.Open("What does logging to the console and to a file cost, against no logging?", answer(bs), rateFig)
	// The rates are the answer's chart; their section is the ratios, the fidelity check.
	rateSec := report.Section{ID: "rate", Title: "Ratios to console+file",
		Caption: "Each configuration's rate over console+file's, same API: the fidelity check, since the published API (Nest.js) is not this one. The rates themselves, the mean over verified runs of each run's requests per second (autocannon's figure: the mean of its per-second counts) with its 95% t-interval over runs, are the chart at the top. The dashed black strokes are the published figures."}
	if ratio.Any() {
		rateSec.Figures = []report.Figure{report.Bars("Ratio to console+file", "req/s over console+file's", cats, ratio, false)}
	} else {
		rateSec.Empty = "No bundle here ran console+file: there is no ratio to it to draw."
	}
	p.Sections = append(p.Sections, rateSec)

	p.Sections = append(p.Sections, report.Section{ID: "series", Title: "Requests per second, second by second",
		Caption: "Each run's responses completed in each second of its measured interval, a line per run" + perBundle(bs) + ": a slow first second or a run unlike the others shows here, and the mean above hides it.",
		Figures: seriesPlots(bs, cats, multiAPI)})

	var lat []report.Figure
	for _, pc := range []struct {
		name string
		of   func(RunRow) float64
	}{{"p50", func(r RunRow) float64 { return float64(r.LatencyP50Ms) }}, {"p90", func(r RunRow) float64 { return float64(r.LatencyP90Ms) }},
		{"p99", func(r RunRow) float64 { return float64(r.LatencyP99Ms) }}, {"max", func(r RunRow) float64 { return float64(r.LatencyMaxMs) }}} {
		lat = append(lat, report.Bars("Latency "+pc.name, pc.name+" latency (ms, log scale)", cats, runGroup(bs, cats, multiAPI, pc.of), true))
	}
	p.Sections = append(p.Sections, report.Section{ID: "latency", Title: "Latency percentiles",
		Caption: "Each percentile as the load generator measured it over a run's requests: the mean over verified runs (square) and the runs' range (whisker), on a log scale.",
		Figures: lat})

	p.Sections = append(p.Sections, report.Section{ID: "cpu", Title: "CPU per request",
		Caption: "CPU time per request inside the API's container (its cgroup) and outside it (the engine: dockerd, containerd, the shims), over the measured interval: the mean over verified runs, the whisker the runs' range. The engine's is absent where it was not measured.",
		Figures: []report.Figure{
			report.Bars("API CPU per request", "µs per request", cats, runGroup(bs, cats, multiAPI, func(r RunRow) float64 { return f(r.APICPUUsPerReq) }), false),
			report.Bars("Engine CPU per request", "µs per request", cats, runGroup(bs, cats, multiAPI, func(r RunRow) float64 { return f(r.EngineUsPerReq) }), false),
		}})

	p.Sections = append(p.Sections, wrkSection(bs, cats, multiAPI))
	p.Sections = append(p.Sections, report.Section{ID: "conditions", Title: "Conditions",
		Caption: "Every figure recomputed from the runs. ratio: to console+file, same API; cost/req: CPU per request over none's, inside the container + outside it; other cores: the host's busy CPU that neither the API, the generator nor the engine used; noisy: other cores over " + strconv.FormatFloat(NoisyOtherCores, 'g', -1, 64) + "; " + report.OtherCoresNote + ".",
		Tables:  conditionTables(bs)})
	p.Sections = append(p.Sections, report.Section{ID: "runs", Title: "Runs",
		Caption: "Every run, failed ones too, with the checks of its logs: every line the API wrote read back from the engine's log driver and from the file.",
		Tables:  runTables(bs)})
	p.Sections = append(p.Sections, page.Images())
	return report.Write(w, p)
}

func f(o Opt) float64 { return float64(o) }

func perBundle(bs []drawn) string {
	if len(bs) > 1 {
		return ", a colour per bundle"
	}
	return ""
}

func group(bs []drawn) *report.Grouped {
	g := &report.Grouped{}
	for _, d := range bs {
		g.Series = append(g.Series, report.Series{Name: d.label, Colour: d.colour})
	}
	return g
}

// runGroup is a figure of each run: the mean over a condition's verified runs, the
// runs' range as its interval.
func runGroup(bs []drawn, cats []string, multiAPI bool, of func(RunRow) float64) *report.Grouped {
	g := group(bs)
	for _, cat := range cats {
		for j, d := range bs {
			var vs []float64
			for _, r := range d.runs(cat, multiAPI) {
				vs = append(vs, of(r))
			}
			g.Series[j].Values = append(g.Series[j].Values, report.OverRuns(vs))
		}
	}
	return g
}

// seriesPlots draw each run's per-second counts, a plot per condition.
func seriesPlots(bs []drawn, cats []string, multiAPI bool) []report.Figure {
	return report.PerSecondPlots(cats, "requests in the second", len(bs), func(i int, cat string) report.Traces {
		d := bs[i]
		t := report.Traces{Label: d.label, Colour: d.colour}
		for _, r := range d.runs(cat, multiAPI) {
			t.Runs = append(t.Runs, report.RoundTrace(d.b.Series, r.RunID, r.Round, func(s SeriesRow) (string, int, int64) { return s.RunID, s.Second, s.Requests }))
		}
		return t
	})
}

// wrkSection is wrk's check of the kit's rate: the kit's rate over the interval over
// wrk's, on the same API container after the kit's load, with NOT CONFIRMED where they
// disagree beyond the tolerance.
func wrkSection(bs []drawn, cats []string, multiAPI bool) report.Section {
	s := report.Section{ID: "wrk", Title: "wrk's agreement",
		Caption: fmt.Sprintf("Debian's wrk loads the same API container from the same pod next to the kit's load (in every configuration since the kit alternates the two; after it, in none only, in earlier bundles), with the same connections and duration: the kit's rate over the interval divided by wrk's. They must agree within %g%%; the dashed lines bound that.", WrkTolerance*100)}
	g := group(bs)
	g.Points = true
	var wcats []string
	for _, cat := range cats {
		for _, d := range bs {
			if c := d.cond(cat, multiAPI); c != nil && c.WrkAgreement.Present() && !slices.Contains(wcats, cat) {
				wcats = append(wcats, cat)
			}
		}
	}
	cats = wcats
	any := false
	t := report.Table{Header: []string{"bundle", "condition", "runs with wrk", "kit req/s over the interval", "wrk req/s", "kit / wrk", "verdict"}, Text: 2}
	for _, cat := range cats {
		for j, d := range bs {
			runs := d.runs(cat, multiAPI)
			var ags []float64
			for _, r := range runs {
				if r.WrkAgreement.Present() {
					ags = append(ags, float64(r.WrkAgreement))
				}
			}
			v := report.Absent
			c := d.cond(cat, multiAPI)
			if c != nil && c.WrkAgreement.Present() {
				any = true
				v.V = float64(c.WrkAgreement)
				if len(ags) > 1 {
					v.Lo, v.Hi = slices.Min(ags), slices.Max(ags)
				}
				verdict := "confirmed"
				if !WrkAgrees(v.V) {
					verdict = "NOT CONFIRMED"
					s.Warnings = append(s.Warnings, fmt.Sprintf("NOT CONFIRMED: %s, %s/%s: the kit's closed-loop rate is %+.0f%% off wrk's on the same API, beyond the %g%% they must agree within; the kit's requests/s of this API are not vouched for.",
						d.label, c.API, c.Config, (v.V-1)*100, WrkTolerance*100))
				}
				t.Rows = append(t.Rows, []string{d.label, c.API + "/" + c.Config, fmt.Sprintf("%d of %d", len(ags), len(runs)),
					num(c.RequestsPerSOver, 0), num(c.WrkRequestsPerS, 0), num(c.WrkAgreement, 3), verdict})
			}
			g.Series[j].Values = append(g.Series[j].Values, v)
		}
	}
	if !any {
		s.Empty = "No bundle here ran wrk (reproduce --wrk): the kit's rates are not checked against another load generator."
		return s
	}
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
	for _, d := range bs {
		for _, api := range sortedKeys(d.b.M.Versions) {
			for _, k := range sortedKeys(d.b.M.Versions[api]) {
				t.Rows = append(t.Rows, []string{d.label, api, k, d.b.M.Versions[api][k]})
			}
		}
		for _, u := range d.b.M.Unmeasured {
			t.Rows = append(t.Rows, []string{d.label, "", "not measured", u})
		}
	}
	return t
}

func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func conditionTables(bs []drawn) []report.Table {
	var out []report.Table
	for _, d := range bs {
		t := report.Table{Caption: d.label, Text: 1, Header: []string{"condition", "runs ok (noisy)", "req/s", "95% interval", "ratio", "published req/s", "published ratio",
			"p50 ms", "p99 ms", "lines written", "read", "dropped", "API cores", "engine cores", "other cores", "API µs/req", "engine µs/req", "cost/req µs in + out", "wrk req/s", "kit / wrk"}}
		for _, c := range d.b.Conditions {
			t.Rows = append(t.Rows, []string{c.API + "/" + c.Config, fmt.Sprintf("%d/%d (%d)", c.RunsVerified, c.Runs, c.RunsNoisy),
				num(c.RequestsPerS, 0), interval(c.RequestsPerSCILow, c.RequestsPerSCIHigh), num(c.RatioToConsoleFile, 2), num(c.PublishedReqPerS, 0), num(c.PublishedRatio, 2),
				num(c.LatencyP50Ms, 2), num(c.LatencyP99Ms, 2), strconv.FormatInt(c.LogLinesWritten, 10), num(c.LogLinesRead, 0), num(c.LogLinesDropped, 0),
				num(c.CPUAPICores, 2), num(c.CPUEngineCores, 2), report.Clamped(f(c.OtherCPUCores), 2), num(c.CPUAPIUsPerReq, 1), num(c.CPUEngineUsPerReq, 1),
				inOut(c.CostPerRequestAPIUs, c.CostPerRequestEngineUs), num(c.WrkRequestsPerS, 0), num(c.WrkAgreement, 3)})
		}
		out = append(out, t)
	}
	return out
}

func runTables(bs []drawn) []report.Table {
	var out []report.Table
	for _, d := range bs {
		t := report.Table{Caption: d.label, Text: 5, Header: []string{"run", "condition", "verified", "console", "file", "round", "req/s", "p50 ms", "p99 ms", "API cores", "engine cores", "other cores", "wrk req/s", "kit / wrk"}}
		for _, r := range d.b.Runs {
			verified := "yes"
			if !r.Verified {
				verified = "no: " + r.Failure
			}
			if r.HostNoisy {
				verified += " (noisy host)"
			}
			t.Rows = append(t.Rows, []string{r.RunID, r.API + "/" + r.Config, verified, r.ConsoleVerified, r.FileVerified, strconv.Itoa(r.Round), fmt.Sprintf("%.0f", r.RequestsPerS),
				fmt.Sprintf("%.2f", r.LatencyP50Ms), fmt.Sprintf("%.2f", r.LatencyP99Ms), num(r.APICPUCores, 2), num(r.EngineCores, 2), report.Clamped(f(r.OtherCores), 2),
				num(r.WrkRequestsPerS, 0), num(r.WrkAgreement, 3)})
		}
		out = append(out, t)
	}
	return out
}

// answer is the page's opening: for each bundle and API, what console and file logs
// cost in requests per second and in the API's CPU per request, against none, each
// figure as compare states it.
func answer(bs []drawn) []string {
	var out []string
	var marked []compare.Row
	for _, d := range bs {
		for _, api := range d.b.M.Parameters.APIs {
			who := api
			if len(bs) > 1 {
				who = api + " in " + d.label
			}
			fig := func(metric, config string) (string, bool) {
				r, ok := report.RowOf(d.rows, metric, compare.KV{Key: "api", Value: api}, compare.KV{Key: "config", Value: config})
				if !ok {
					return "", false
				}
				marked = append(marked, r)
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
	var marks []string
	for _, r := range marked {
		for _, m := range r.Marks {
			if !slices.Contains(marks, m) {
				marks = append(marks, m)
			}
		}
	}
	if len(marks) > 0 {
		out = append(out, fmt.Sprintf("Every figure is the mean over runs with its 95%% interval over runs; %s marks one not to be trusted as it stands (%s).", report.Untrusted, strings.Join(marks, "; ")))
	} else {
		out = append(out, "Every figure is the mean over runs with its 95% interval over runs.")
	}
	return out
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
