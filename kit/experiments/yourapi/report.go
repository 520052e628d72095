package yourapi

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/figure"
	"github.com/logbench/logbench/kit/offline/report"
)

// Report draws one or several bundles on one page in the kit's style, on the same
// axes: a category per configuration name, a colour per bundle.
func (Experiment) Report(w io.Writer, sources []experiment.Source, version string) error {
	var bs []drawn
	var page report.Bundles
	for _, s := range sources {
		b, err := bundleOf(s.Result)
		if err != nil {
			return err
		}
		bs = append(bs, drawn{label: s.Label, colour: page.Add(s.Label, s.Result, &b.M.Common, paramsView{b.M.Parameters, b.M.Parameters.ConfigNames()}), b: b})
	}
	var cats []string
	for _, d := range bs {
		for _, c := range d.b.Conditions {
			if !slices.Contains(cats, c.Config) {
				cats = append(cats, c.Config)
			}
		}
	}

	// The warnings of the setup, each once with the bundles it concerns.
	var notes []string
	who := map[string][]string{}
	for _, d := range bs {
		var own []string
		if r := d.b.M.Parameters.Hardening.Relaxed; len(r) > 0 {
			own = append(own, "hardening relaxed: "+strings.Join(r, ", "))
		}
		for _, c := range d.b.Conditions {
			if !c.LinesSteady {
				own = append(own, fmt.Sprintf("MARKED: %s: %d run(s) whose lines per request moved, or lost console lines in non-blocking mode (runs.csv, column mark)", c.Config, c.RunsMarked))
			}
		}
		for _, n := range own {
			if who[n] == nil {
				notes = append(notes, n)
			}
			who[n] = append(who[n], d.label)
		}
	}
	for i, n := range notes {
		notes[i] = strings.Join(who[n], ", ") + ": " + n
	}
	notes = append([]string{"Log lines are counted, not verified: " + strings.TrimPrefix(Counted, "log lines are counted, not verified: ") + "."}, notes...)

	p, err := page.Page(Name, version,
		"Your own service in each logging configuration you gave, under the same load and limits: requests per second, latency and CPU inside and outside its container, each configuration against the bundle's baseline configuration.",
		notes, configTable(bs))
	if err != nil {
		return err
	}

	rate, ratio := group(bs), group(bs)
	for _, cat := range cats {
		for j, d := range bs {
			c := d.cond(cat)
			if c == nil {
				rate.Series[j].Values = append(rate.Series[j].Values, report.Absent)
				ratio.Series[j].Values = append(ratio.Series[j].Values, report.Absent)
				continue
			}
			rate.Series[j].Values = append(rate.Series[j].Values, report.Value{V: f(c.RequestsPerS), Lo: f(c.RequestsPerSLow), Hi: f(c.RequestsPerSHigh)})
			ratio.Series[j].Values = append(ratio.Series[j].Values, report.Value{V: f(c.RatioToBaseline), Lo: report.NaN, Hi: report.NaN})
		}
	}
	rateFig := report.Bars("Requests per second", "req/s", cats, rate, false)
	p.Open("What does each logging configuration cost your service, against its baseline?", answer(bs), rateFig)
	p.Sections = append(p.Sections, report.Section{ID: "rate", Title: "Ratio to the baseline",
		Caption: "Each configuration's rate over its bundle's baseline configuration's" + baselines(bs) + ". The rates themselves, the mean over the runs that count (verified, trusted, not redone) of each run's requests per second (autocannon's figure: the mean of its whole seconds' counts) with its 95% t-interval over runs, are the chart at the top.",
		Figures: []report.Figure{report.Bars("Ratio to the baseline", "req/s over the baseline's", cats, ratio, false)}})

	p.Sections = append(p.Sections, report.Section{ID: "series", Title: "Requests per second, second by second",
		Caption: "Each run's responses completed in each second of its measured interval, a line per run" + perBundle(bs) + ": a slow first second or a run unlike the others shows here, and the mean above hides it.",
		Figures: seriesPlots(bs, cats)})

	var lat []report.Figure
	for _, pc := range []struct {
		name string
		of   func(RunRow) Opt
	}{{"p50", func(r RunRow) Opt { return r.LatencyP50Ms }}, {"p90", func(r RunRow) Opt { return r.LatencyP90Ms }},
		{"p99", func(r RunRow) Opt { return r.LatencyP99Ms }}, {"max", func(r RunRow) Opt { return r.LatencyMaxMs }}} {
		lat = append(lat, report.Bars("Latency "+pc.name, pc.name+" latency (ms, log scale)", cats, runGroup(bs, cats, pc.of), true))
	}
	p.Sections = append(p.Sections, report.Section{ID: "latency", Title: "Latency percentiles",
		Caption: "Each percentile as the load generator measured it over a run's responses (" + latencyFrom(bs) + "): the mean over the runs that count (square) and the runs' range (whisker), on a log scale.",
		Figures: lat})

	p.Sections = append(p.Sections, report.Section{ID: "cpu", Title: "CPU per request",
		Caption: "CPU time per response over the measured interval, inside the service's container (its processes) and outside it (the engine: dockerd, containerd, the shims), and the two together: the mean over the runs that count, the whisker the runs' range. The cost of a configuration is its figure less the baseline's (the table of configurations below).",
		Figures: []report.Figure{
			report.Bars("CPU per request, inside + engine", "µs per request", cats, runGroup(bs, cats, func(r RunRow) Opt { return r.CPUUsPerReq }), false),
			report.Bars("CPU per request inside the container", "µs per request", cats, runGroup(bs, cats, func(r RunRow) Opt { return r.APIUsPerReq }), false),
			report.Bars("Engine CPU per request", "µs per request", cats, runGroup(bs, cats, func(r RunRow) Opt { return r.EngineUsPerReq }), false),
		}})

	p.Sections = append(p.Sections, report.Section{ID: "lines", Title: "Log lines and bytes per request",
		Caption: "Lines and bytes read back (the console through the engine's log driver, and every file of the log directory) over every request sent to the service, the readiness probes it answered and the warm-up included: the mean over the runs that count, the whisker the runs' range. Counted, not verified: the kit cannot know what a foreign service meant to write.",
		Figures: []report.Figure{
			report.Bars("Log lines per request", "lines per request", cats, runGroup(bs, cats, func(r RunRow) Opt { return r.LinesPerRequest }), false),
			report.Bars("Log bytes per request", "bytes per request", cats, runGroup(bs, cats, func(r RunRow) Opt { return r.BytesPerRequest }), false),
		}})

	p.Sections = append(p.Sections, report.Section{ID: "conditions", Title: "Configurations",
		Caption: "Every figure recomputed from the runs. runs ok: verified of all (pooled: those that count; noisy: during which the rest of the host was busy, other work over " + strconv.FormatFloat(NoisyOtherCores, 'g', -1, 64) + " cores; marked: lines per request moved). ratio and cost: against the bundle's baseline configuration; cost/req: CPU per request less the baseline's, cost in and out its parts inside the container and in the engine.",
		Tables:  conditionTables(bs)})
	if s, ok := capacitySection(bs); ok {
		p.Sections = append(p.Sections, s)
	}
	p.Sections = append(p.Sections, report.Section{ID: "runs", Title: "Runs",
		Caption: "Every run and attempt, failed ones and those redone too, with the lines and bytes read back of its console and log directory; " + report.OtherCoresNote + ".",
		Tables:  runTables(bs)})
	p.Sections = append(p.Sections, page.Images())
	return report.Write(w, p)
}

// paramsView is a bundle's parameters as the page's table of parameters shows them:
// the configurations by name (their settings are a table of their own).
type paramsView struct {
	Params
	Configs []string `json:"configs"`
}

// drawn is one bundle as the drawings need it.
type drawn struct {
	label  string
	colour color.RGBA
	b      *Bundle
}

// cond is the bundle's configuration named config, nil if it has none.
func (d drawn) cond(config string) *ConditionRow {
	for i, c := range d.b.Conditions {
		if c.Config == config {
			return &d.b.Conditions[i]
		}
	}
	return nil
}

// runs are the bundle's runs of a configuration that count in its figures.
func (d drawn) runs(config string) []RunRow {
	var out []RunRow
	for _, r := range d.b.Runs {
		if r.Config == config && pooled(r) {
			out = append(out, r)
		}
	}
	return out
}

// f is a figure for a plot: NaN, drawn as nothing, when absent.
func f(o Opt) float64 { return float64(o) }

func group(bs []drawn) *report.Grouped {
	g := &report.Grouped{}
	for _, d := range bs {
		g.Series = append(g.Series, report.Series{Name: d.label, Colour: d.colour})
	}
	return g
}

// runGroup is a per-run figure of each configuration: the mean over the runs that
// count, their range as its whisker.
func runGroup(bs []drawn, cats []string, of func(RunRow) Opt) *report.Grouped {
	g := group(bs)
	for _, cat := range cats {
		for j, d := range bs {
			var vs []float64
			for _, r := range d.runs(cat) {
				vs = append(vs, f(of(r)))
			}
			g.Series[j].Values = append(g.Series[j].Values, report.OverRuns(vs))
		}
	}
	return g
}

// seriesPlots draw each run's per-second counts, a plot per configuration.
func seriesPlots(bs []drawn, cats []string) []report.Figure {
	return report.PerSecondPlots(cats, "responses in the second", len(bs), func(i int, cat string) report.Traces {
		d := bs[i]
		t := report.Traces{Label: d.label, Colour: d.colour}
		for _, r := range d.runs(cat) {
			t.Runs = append(t.Runs, report.RoundTrace(d.b.Series, r.RunID, r.Round, func(s SeriesRow) (string, int, int64) { return s.RunID, s.Second, s.Requests }))
		}
		return t
	})
}

func perBundle(bs []drawn) string {
	if len(bs) > 1 {
		return ", a colour per bundle"
	}
	return ""
}

// baselines names each bundle's baseline configuration.
func baselines(bs []drawn) string {
	var out []string
	for _, d := range bs {
		if len(bs) == 1 {
			return " (" + d.b.M.Parameters.Baseline + ")"
		}
		out = append(out, d.label+": "+d.b.M.Parameters.Baseline)
	}
	return " (" + strings.Join(out, "; ") + ")"
}

// latencyFrom says where latency is timed from, by the bundles' load shapes.
func latencyFrom(bs []drawn) string {
	var out []string
	for _, d := range bs {
		s := "from each send: a closed loop"
		if d.b.M.Parameters.Load == contract.LoadOpen {
			s = "from each scheduled send: an open loop"
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return strings.Join(out, "; ")
}

// configTable lists each bundle's configurations: what was set, and which is the
// baseline.
func configTable(bs []drawn) report.Table {
	t := report.Table{Caption: "The logging configurations: environment variables added to the image's, and a command in place of its own.", Header: []string{"bundle", "config", "environment", "command", "baseline"}, Text: 5}
	for _, d := range bs {
		p := d.b.M.Parameters
		for _, c := range p.Configs {
			cmd := "the image's"
			if c.Cmd != nil {
				cmd = strings.Join(c.Cmd, " ")
			}
			env := strings.Join(c.Env, ", ")
			if env == "" {
				env = "the image's"
			}
			t.Rows = append(t.Rows, []string{d.label, c.Name, env, cmd, map[bool]string{true: "yes", false: ""}[c.Name == p.Baseline]})
		}
	}
	return t
}

func conditionTables(bs []drawn) []report.Table {
	var out []report.Table
	for _, d := range bs {
		t := report.Table{Caption: d.label, Text: 1, Header: []string{"config", "runs ok (pooled, noisy, marked)", "req/s", "95% interval", "ratio",
			"p50 ms", "p99 ms", "lines/req", "console", "file", "bytes/req", "service cores", "engine cores", "µs/req in + out", "cost/req µs", "cost in", "cost out"}}
		for _, c := range d.b.Conditions {
			name := c.Config
			if c.Baseline {
				name += " (baseline)"
			}
			t.Rows = append(t.Rows, []string{name, fmt.Sprintf("%d/%d (%d, %d, %d)", c.RunsVerified, c.Runs, c.RunsPooled, c.RunsNoisy, c.RunsMarked),
				num(c.RequestsPerS, 0), interval(c.RequestsPerSLow, c.RequestsPerSHigh), num(c.RatioToBaseline, 2),
				num(c.LatencyP50Ms, 2), num(c.LatencyP99Ms, 2), num(c.LinesPerRequest, 2), num(c.ConsolePerReq, 2), num(c.FilePerReq, 2), num(c.BytesPerRequest, 0),
				num(c.APICores, 2), num(c.EngineCores, 2), num(c.APIUsPerReq, 1) + " + " + num(c.EngineUsPerReq, 1),
				signed(c.CostPerRequestUs), signed(c.CostAPIUs), signed(c.CostEngineUs)})
		}
		out = append(out, t)
	}
	return out
}

func runTables(bs []drawn) []report.Table {
	var out []report.Table
	for _, d := range bs {
		t := report.Table{Caption: d.label, Text: 4, Header: []string{"run", "config", "counts", "mark", "round", "attempt", "req/s", "p50 ms", "p99 ms",
			"console lines", "file lines", "lines/req", "µs/req in + out", "other cores"}}
		for _, r := range d.b.Runs {
			counts := "yes"
			switch {
			case !r.Verified:
				counts = "no: " + r.Failure
			case r.Superseded:
				counts = "no: redone"
			case !r.Trusted:
				counts = fmt.Sprintf("no: send lag p99 %.2f ms", float64(r.SendLagP99Ms))
			}
			if r.HostNoisy {
				counts += " (noisy host)"
			}
			t.Rows = append(t.Rows, []string{r.RunID, r.Config, counts, r.Mark, strconv.Itoa(r.Round), strconv.Itoa(r.Attempt), num(r.RequestsPerS, 0),
				num(r.LatencyP50Ms, 2), num(r.LatencyP99Ms, 2), num(r.ConsoleLines, 0), num(r.FileLines, 0), num(r.LinesPerRequest, 3),
				num(r.APIUsPerReq, 1) + " + " + num(r.EngineUsPerReq, 1), report.Clamped(f(r.OtherCores), 2)})
		}
		out = append(out, t)
	}
	return out
}

// answer is the page's opening: each configuration's requests per second and CPU per
// request against its bundle's baseline configuration, with the test compare makes of
// the change (figure.Compare on the runs' figures) and, beside a change it cannot call,
// the smallest change these runs could have detected.
func answer(bs []drawn) []string {
	var out []string
	anyMarked := false
	for _, d := range bs {
		rows := Rows(d.b, false)
		p := d.b.M.Parameters
		base := func(metric string) (compare.Row, bool) {
			return report.RowOf(rows, metric, compare.KV{Key: "config", Value: p.Baseline})
		}
		var parts []string
		for _, config := range p.ConfigNames() {
			if config == p.Baseline {
				continue
			}
			var said []string
			for _, m := range []struct{ metric, unit, what string }{
				{"requests_per_s", "req/s", "requests per second"}, {"cpu_us_per_request", "µs", "CPU per request"}} {
				b, okB := base(m.metric)
				o, okO := report.RowOf(rows, m.metric, compare.KV{Key: "config", Value: config})
				if !okB || !okO {
					continue
				}
				anyMarked = anyMarked || report.Marked(b, o)
				said = append(said, fmt.Sprintf("%s %s against %s's %s, %s", m.what, report.StatedRow(o, m.unit), p.Baseline, report.StatedRow(b, m.unit), changeText(figure.Compare(compare.Estimate(b), compare.Estimate(o)))))
			}
			if len(said) > 0 {
				parts = append(parts, config+": "+strings.Join(said, "; ")+".")
			}
		}
		who := ""
		if len(bs) > 1 {
			who = d.label + ", "
		}
		if len(parts) == 0 {
			out = append(out, fmt.Sprintf("%sonly the baseline configuration %s has runs that count: there is nothing to set against it.", who, p.Baseline))
			continue
		}
		for _, s := range parts {
			out = append(out, who+s)
		}
	}
	tail := "Each figure is the mean over the runs that count with its 95% interval over runs; a change is Welch's t-test on the two configurations' runs, as compare states it, ~ where it cannot be called."
	if anyMarked {
		tail += " " + report.Untrusted + " marks a figure not to be trusted as it stands (noisy runs)."
	}
	return append(out, tail)
}

// changeText is a change as compare writes it: the change in % and its test, or ~ and
// the smallest change these runs could have detected.
func changeText(c figure.Change) string {
	pct := func(v float64) string { return fmt.Sprintf("%+.1f%%", v) }
	switch {
	case math.IsNaN(c.Pct):
		return "no change to state (" + c.Test + ")"
	case !c.Tested():
		return "~ " + pct(c.Pct) + " (" + c.Test + ")"
	case c.Significant():
		return fmt.Sprintf("%s (%s, p = %.3f)", pct(c.Pct), c.Test, c.P)
	}
	return fmt.Sprintf("~ %s (%s, p = %.3f: these runs could not have detected a change under %.1f%%)", pct(c.Pct), c.Test, c.P, c.MDE)
}
