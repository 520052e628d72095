package yourapi

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/httpload"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/figure"
	"github.com/logbench/logbench/kit/offline/report"
)

// drawings are the report's sections beyond the kit's figures: the setup's notes and
// the configurations, the ratio to the baseline, the seconds of each run, the latency
// percentiles, the configurations' table, a search's steps and every run.
func drawings(bs []drawn) []report.Section {
	var cats []string
	for _, d := range bs {
		cats = report.Union(cats, d.Params().ConfigNames())
	}

	notes := tabular.Attributed(bs, func(d drawn) []string { return setupNotes(d.Params(), conds(d)) })
	notes = append([]string{"Log lines are counted, not verified: " + strings.TrimPrefix(Counted, "log lines are counted, not verified: ") + "."}, notes...)

	ratio := tabular.PerCategory(bs, cats, func(d drawn, cat string) report.Value {
		if c := cond(d, cat); c != nil {
			return report.Value{V: float64(c.RatioToBaseline), Lo: report.NaN, Hi: report.NaN}
		}
		return report.Absent
	})
	out := []report.Section{
		{ID: "configs", Title: "Logging configurations", Warnings: notes, Tables: []report.Table{configTable(bs)}},
		{ID: "rate", Title: "Ratio to the baseline",
			Caption: "Each configuration's rate over its bundle's baseline configuration's" + baselines(bs) + ". The rates themselves, the mean over the runs that count (verified, trusted, not redone) of each run's requests per second (autocannon's figure: the mean of its whole seconds' counts) with its 95% t-interval over runs, are among the figures above.",
			Figures: []report.Figure{report.Bars("Ratio to the baseline", "req/s over the baseline's", cats, ratio, false)}},
	}
	out = append(out, httpload.Sections(bs, cats, SeriesFile, func(p *Params) bool { return p.Load == contract.LoadOpen }, runsOf,
		func(r RunRow) httpload.Measured { return r.Measured })...)
	out = append(out, report.Section{ID: "conditions", Title: "Configurations",
		Caption: "Every figure recomputed from the runs. runs ok: verified of all (pooled: those that count; noisy: during which the rest of the host was busy, other work over " + strconv.FormatFloat(experiment.NoisyOtherCores, 'g', -1, 64) + " cores; marked: lines per request moved). ratio and cost: against the bundle's baseline configuration; cost/req: CPU per request less the baseline's, cost in and out its parts inside the container and in the engine.",
		Tables:  tabular.TableEach(bs, conditionTable)})
	if s, ok := Search.Section(bs); ok {
		out = append(out, s)
	}
	return append(out, report.Section{ID: "runs", Title: "Runs",
		Caption: "Every run and attempt, failed ones and those redone too, with the lines and bytes read back of its console and log directory; " + report.OtherCoresNote + ".",
		Tables:  tabular.TableEach(bs, runTable)})
}

// paramsShown are a bundle's parameters as the report's table of parameters shows
// them: the configurations by name (their settings are a table of their own).
func paramsShown(p *Params) any {
	return struct {
		Params
		Configs []string `json:"configs"`
	}{*p, p.ConfigNames()}
}

// categories are the configurations, each of no step: a plan's conditions without a
// search, and what a report draws, a search's steps as the configuration they search.
func categories(p *Params) []tabular.Cell { return tabular.Product(p.ConfigNames(), []string{""}) }

// drawn is one bundle of the report.
type drawn = tabular.Drawn[*Params, RunRow]

// conds are a bundle's configurations as conditions.csv derives them.
func conds(d drawn) []ConditionRow { return DeriveConditions(d.Runs, *d.Params()) }

// cond is the bundle's configuration named config, nil if it has none.
func cond(d drawn, config string) *ConditionRow {
	for _, c := range conds(d) {
		if c.Config == config {
			return &c
		}
	}
	return nil
}

// runsOf are the bundle's runs of a configuration that count in its figures.
func runsOf(d drawn, config string) []RunRow { return pooledOf(d.Runs, config) }

// baselines names each bundle's baseline configuration, the bundles of one baseline
// together.
func baselines(bs []drawn) string {
	return " (" + strings.Join(tabular.Attributed(bs, func(d drawn) []string { return []string{d.Params().Baseline} }), "; ") + ")"
}

// configTable lists each bundle's configurations: what was set, and which is the
// baseline.
func configTable(bs []drawn) report.Table {
	t := report.Table{Caption: "The logging configurations: environment variables added to the image's, and a command in place of its own.", Header: []string{"bundle", "config", "environment", "command", "baseline"}, Text: 5}
	return tabular.Labelled(bs, t, func(d drawn) (rows [][]string) {
		p := d.Params()
		for _, c := range p.Configs {
			cmd := "the image's"
			if c.Cmd != nil {
				cmd = strings.Join(c.Cmd, " ")
			}
			env := cmp.Or(strings.Join(c.Env, ", "), "the image's")
			rows = append(rows, []string{c.Name, env, cmd, map[bool]string{true: "yes", false: ""}[c.Name == p.Baseline]})
		}
		return rows
	})
}

func conditionTable(d drawn) report.Table {
	t := report.Table{Caption: d.Label, Text: 1, Header: []string{"config", "runs ok (pooled, noisy, marked)", "req/s", "95% interval", "ratio",
		"p50 ms", "p99 ms", "lines/req", "console", "file", "bytes/req", "service cores", "engine cores", "µs/req in + out", "cost/req µs", "cost in", "cost out"}}
	for _, c := range conds(d) {
		name := c.Config
		if c.Baseline {
			name += " (baseline)"
		}
		t.Rows = append(t.Rows, []string{name, fmt.Sprintf("%d/%d (%d, %d, %d)", c.RunsVerified, c.Runs, c.RunsPooled, c.RunsNoisy, c.RunsMarked),
			c.RequestsPerS.Fixed(0), bundle.FixedInterval(c.RequestsPerSCILow, c.RequestsPerSCIHigh), c.RatioToBaseline.Fixed(2),
			c.LatencyP50Ms.Fixed(2), c.LatencyP99Ms.Fixed(2), c.LinesPerRequest.Fixed(2), c.ConsolePerReq.Fixed(2), c.FilePerReq.Fixed(2), c.BytesPerRequest.Fixed(0),
			c.APICores.Fixed(2), c.EngineCores.Fixed(2), c.APIUsPerReq.Fixed(1) + " + " + c.EngineUsPerReq.Fixed(1),
			c.CostPerRequestUs.Signed(1), c.CostAPIUs.Signed(1), c.CostEngineUs.Signed(1)})
	}
	return t
}

func runTable(d drawn) report.Table {
	t := report.Table{Caption: d.Label, Text: 4, Header: []string{"run", "config", "counts", "mark", "round", "attempt", "req/s", "p50 ms", "p99 ms",
		"console lines", "file lines", "lines/req", "µs/req in + out", "other cores"}}
	for _, r := range d.Runs {
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
		t.Rows = append(t.Rows, []string{r.RunID, r.Config, counts, r.Mark, strconv.Itoa(r.Round), strconv.Itoa(r.Attempt), r.RequestsPerS.Fixed(0),
			r.LatencyP50Ms.Fixed(2), r.LatencyP99Ms.Fixed(2), r.ConsoleLines.Fixed(0), r.FileLines.Fixed(0), r.LinesPerRequest.Fixed(3),
			r.APIUsPerReq.Fixed(1) + " + " + r.EngineUsPerReq.Fixed(1), report.Clamped(float64(r.OtherCores), 2)})
	}
	return t
}

// answer is the page's opening: each configuration's requests per second and CPU per
// request against its bundle's baseline configuration, with the test compare makes of
// the change (figure.Compare on the runs' figures) and, beside a change it cannot call,
// the smallest change these runs could have detected.
func answer(bs []drawn) ([]string, int) {
	var out []string
	anyMarked := false
	for _, d := range bs {
		rows, p := d.Figures, d.Params()
		who := ""
		if len(bs) > 1 {
			who = d.Label + ", "
		}
		before := len(out)
		for _, config := range p.ConfigNames() {
			if config == p.Baseline {
				continue
			}
			var said []string
			for _, m := range []struct{ metric, unit, what string }{
				{"requests_per_s", "req/s", "requests per second"}, {"cpu_us_per_request", "µs", "CPU per request"}} {
				b, okB := report.RowOf(rows, m.metric, compare.KV{Key: "config", Value: p.Baseline})
				o, okO := report.RowOf(rows, m.metric, compare.KV{Key: "config", Value: config})
				if !okB || !okO {
					continue
				}
				anyMarked = anyMarked || report.Marked(b, o)
				said = append(said, fmt.Sprintf("%s %s against %s's %s, %s", m.what, report.StatedRow(o, m.unit), p.Baseline, report.StatedRow(b, m.unit), changeText(figure.Compare(compare.Estimate(b), compare.Estimate(o)))))
			}
			if len(said) > 0 {
				out = append(out, who+config+": "+strings.Join(said, "; ")+".")
			}
		}
		if len(out) == before {
			out = append(out, fmt.Sprintf("%sonly the baseline configuration %s has runs that count: there is nothing to set against it.", who, p.Baseline))
		}
	}
	tail := "Each figure is the mean over the runs that count with its 95% interval over runs; a change is Welch's t-test on the two configurations' runs, as compare states it, ~ where it cannot be called."
	if anyMarked {
		tail += " " + report.Untrusted + " marks a figure not to be trusted as it stands (noisy runs)."
	}
	return append(out, tail), 0 // the chart of requests per second
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
