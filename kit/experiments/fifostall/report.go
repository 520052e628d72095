package fifostall

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/experiment/tabular"

	"github.com/docker/go-units"

	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/figure"
	"github.com/logbench/logbench/kit/offline/report"
	"github.com/logbench/logbench/results/reference"
)

// articleFigures are the article's figures, embedded in the kit (a test reads every
// one, so they load).
var articleFigures = func() reference.Figures {
	pub, err := reference.Load()
	if err != nil {
		panic(err)
	}
	return pub
}()

// charted are the figures the kit's figures section draws, with the article's beside
// them: those compare shows without --wide that fifo-stall's own drawings do not
// (its p50 and p99 are drawn run by run, by percentile and by scheduled send).
var charted = []string{MetricDrain, MetricRPSToLogsRead, MetricAPICPU}

// drawn is one bundle as the kit draws it (its label, colour and figures, as compare
// and verify state them) and as fifo-stall's drawings read it: its manifest, its
// conditions, and each run's timeline by run_id.
type drawn struct {
	TabularDrawn
	m        *Manifest
	conds    []condition
	timeline map[string][]TimelineRow
}

// condition is one cell of the matrix with what the plots need.
type condition struct {
	ConditionRow // recomputed from the runs
	// figs are its bundle's figures as compare states them (Figures), which
	// fig reads: what every plot and table shows under a figure's name.
	figs   compare.Stated
	runs   []RunRow    // the verified runs
	runLat [][]float64 // their requests' latencies, a slice a run
	lat    []float64   // those pooled
	reqs   map[string][]RequestRow
	pubP99 float64 // the article's p99 of its pooled requests
}

func (c condition) label(multiAPI bool) string {
	if multiAPI {
		return c.API + "/" + c.Mode
	}
	return c.Mode
}

func (c condition) key() string { return ConditionKey(c.API, c.Mode, c.Reader) }

// fig is the condition's figure of metric, as compare states it.
func (c condition) fig(metric string) figure.Estimate { return c.figs.Of(c.key(), metric) }

// page is a report's bundles as fifo-stall's drawings read them, and their common axes.
type page struct {
	ds      []TabularDrawn
	bs      []drawn // their Own
	readers []string
	// cats are api/mode or mode, the x axis of every plot by condition: bundles of one
	// API each are set side by side by mode, whatever their APIs (a Python bundle beside
	// a Go one); a bundle of several APIs needs api/mode (multiAPI).
	cats     []string
	multiAPI bool
	// head is the reader of the answer's chart: the slow one, where a bundle has it.
	head string
}

// drawnOf is a bundle of a report as the drawings need it, made once for every part of
// the report (Own.Drawn): its conditions with their runs and figures.
func drawnOf(d TabularDrawn) any {
	return drawn{TabularDrawn: d, m: ManifestOf(d.Bundle), conds: conditions(d.Bundle, d.Figures),
		timeline: tabular.ByRun(tabular.Of[TimelineRow](d.Rows, TimelineFile))}
}

func pageOf(ds []TabularDrawn) page {
	p := page{ds: ds}
	for _, d := range ds {
		p.bs = append(p.bs, d.Own.(drawn))
	}
	var apis, modes []string
	for _, d := range p.bs {
		ps := d.m.Parameters
		apis = report.Union(apis, ps.APIs)
		modes = report.Union(modes, report.InOrder(ps.Modes, report.Distinct(d.conds, func(c condition) string { return c.Mode })))
		p.readers = report.Union(p.readers, report.InOrder(ps.Readers, report.Distinct(d.conds, func(c condition) string { return c.Reader })))
		p.multiAPI = p.multiAPI || len(ps.APIs) > 1
	}
	for _, api := range apis {
		for _, m := range modes {
			if has(p.bs, func(c condition) bool { return c.API == api && c.Mode == m }) {
				p.cats = report.Union(p.cats, []string{(condition{ConditionRow: ConditionRow{API: api, Mode: m}}).label(p.multiAPI)})
			}
		}
	}
	if len(p.readers) > 0 {
		p.head = p.readers[0]
	}
	if slices.Contains(p.readers, SlowReader) {
		p.head = SlowReader
	}
	return p
}

// answerChart is each condition's p99 with its interval, its runs' and the article's,
// behind the reader of the answer.
func (p page) answerChart() report.Figure {
	return runPlots(p.bs, p.cats, []string{p.head}, p.multiAPI)[0] // a chart a reader
}

// drawings are the report's sections beyond the answer and the figures the kit draws:
// the latencies run by run, by percentile and by scheduled send, the log bytes behind a
// saturated reader, the conditions beside the model, the calibration and the runs.
func (p page) drawings() []report.Section {
	bs, cats, readers, multiAPI := p.bs, p.cats, p.readers, p.multiAPI
	out := []report.Section{{ID: "percentiles", Title: "Latency percentiles",
		Caption: "Each run's p50, p90, p99 and largest latency, from the scheduled send to the end of the response, then the mean over the condition's verified runs, as compare states p50 and p99 (their intervals are in the table of conditions; log scale): a colour per bundle, a shape per percentile. Each reader has its own scale.",
		Figures: percentilePlots(bs, cats, readers, multiAPI)}}
	out = append(out, report.Section{ID: "p99-runs", Title: "p99 per run",
		Caption: "Each condition's p99 as compare states it: the mean of its runs' p99s (square) with its 95% Student-t interval over runs (whisker; none from one run, and one that reaches 0 runs off the bottom); each run's p99 (rings); and the p99 of the pooled requests (cross), the figure the resolution rule tests and the article states. A colour per bundle" + publishedNote(bs) + ". The " + p.head + " reader's is the chart at the top.",
		Figures: runPlots(bs, cats, slices.DeleteFunc(slices.Clone(readers), func(r string) bool { return r == p.head }), multiAPI)})
	out = append(out, report.Section{ID: "hdr", Title: "Latency by percentile",
		Caption: "Every pooled request's latency at its percentile, on a log scale of 1/(1-q) as HdrHistogram draws it: the tail has room, and the line's 99% is the p99 of the pooled requests. A colour per condition" + dashNote(bs) + ".",
		Figures: hdrPlots(bs, readers, multiAPI)})
	out = append(out, report.Section{ID: "schedule", Title: "Latency by scheduled send",
		Caption: scheduleCaption(bs),
		Figures: schedulePlots(bs, multiAPI)})
	tl := report.Section{ID: "timeline", Title: "Log bytes generated, read and waiting",
		Caption: "The conditions where the offered log volume exceeds the reader's bound: bytes the API generated, bytes the reader had read, and the backlog between them (KiB) since the first scheduled send, each run a line. The dashed grey line is the reader's bound." + timelineNote(bs)}
	tl.Figures = timelinePlots(bs, multiAPI)
	if len(tl.Figures) == 0 {
		tl.Empty = "No condition here offers more log bytes per second than its reader reads (the slow reader with a 16 KiB mode does)."
	}
	out = append(out, tl)
	out = append(out, report.Section{ID: "conditions", Title: "Conditions and the model",
		Caption: "Every figure recomputed from the runs; failed runs are counted, never used. p50, p99, drain, throughputs, backlog and API CPU are as compare states them: each run's figure, then the mean over the condition's verified runs with its 95% Student-t interval over runs (none from one run). " +
			"The p99 of the pooled requests pools every verified run's requests, as the article states its p99 (the published column): the figure the resolution rule tests against " + fmt.Sprint(ResolutionFactor) + " x the largest send-lag p99, without an interval. Max is the largest latency of any request. " +
			"The model's p99, drain and backlog are this kit's prediction for a run from the reader's bound.",
		Tables: tabular.TableEach(p.ds, conditionTable)})
	out = append(out, report.Section{ID: "calibration", Title: "Calibration",
		Caption: "The instrument measured on this engine inside the same limits just before the runs: every latency carries the send lag.",
		Tables:  []report.Table{calibrationTable(bs)}})
	return append(out, report.Section{ID: "runs", Title: "Runs: trust and host noise",
		Caption: "Every run, failed and redone ones too: whether it is data, whether its send lag kept within the bound, and how busy the host was.",
		Tables:  tabular.TableEach(p.ds, runTable)})
}

// has says whether any bundle has a condition like f.
func has(bs []drawn, f func(condition) bool) bool {
	for _, d := range bs {
		if slices.ContainsFunc(d.conds, f) {
			return true
		}
	}
	return false
}

func publishedNote(bs []drawn) string {
	if !has(bs, func(c condition) bool { return c.pubP99 > 0 }) {
		return ""
	}
	return "; the black stroke is the article's p99 of its pooled requests, where it published one (" + reference.Source + ")"
}

func dashNote(bs []drawn) string {
	if len(bs) < 2 {
		return ""
	}
	return "; a line style per bundle (solid: " + bs[0].Label + ")"
}

func scheduleCaption(bs []drawn) string {
	if len(bs) < 2 {
		return "Each request at the time it was scheduled, a colour per run: a stall is a ramp, a run unlike the others its own colour."
	}
	return "Each request at the time it was scheduled, a colour per bundle (every run of a bundle in it): a stall is a ramp."
}

func timelineNote(bs []drawn) string {
	if len(bs) < 2 {
		return ""
	}
	return " A colour per bundle; generated solid, read dashed, backlog dotted."
}

// conditions are the bundle's conditions, as derived from its runs, each with its
// figures (rows: Figures) and its requests and runs gathered.
func conditions(b *TabularBundle, rows []compare.Row) []condition {
	figs := compare.StatedOf(rows)
	reqs := tabular.ByRun(tabular.Of[RequestRow](b.Rows, RequestsFile))
	var out []condition
	for _, r := range Conditions(b) {
		c := condition{ConditionRow: r, figs: figs, runs: r.Verified(b.Runs), reqs: reqs, pubP99: math.NaN()}
		c.runLat = Latencies(c.runs, reqs)
		c.lat = slices.Concat(c.runLat...)
		// The article measured one API: its figures stand beside that API's conditions only.
		if r.API == pubSetup.API {
			if v, ok := articleFigures.Lookup(r.Mode, r.Reader, "p99_pooled"); ok {
				c.pubP99 = v
			}
		}
		out = append(out, c)
	}
	// Modes in the manifest's order, which is the article's.
	modes := report.InOrder(b.Params().Modes, report.Distinct(out, func(c condition) string { return c.Mode }))
	slices.SortStableFunc(out, func(a, b condition) int { return slices.Index(modes, a.Mode) - slices.Index(modes, b.Mode) })
	return out
}

// conditionTable is a bundle's conditions.
func conditionTable(d TabularDrawn) report.Table {
	t := report.Table{Caption: d.Label, Text: 1, Header: []string{"condition", "runs verified", "lag-trusted", "noisy host", "requests", "errors",
		"p50 ms", "p99 ms", "model p99 ms", "runs' p99 ms", "p99 of the pooled requests ms", "pooled p99 resolved", "published p99 of the pooled requests ms",
		"max ms", "drain s", "model drain s", "req/s to last response", "req/s to logs read", "largest backlog KiB", "model backlog KiB", "API CPU cores"}}
	for _, c := range d.Own.(drawn).conds {
		est := func(metric string) string { return c.fig(metric).Stated() }
		t.Rows = append(t.Rows, []string{
			c.key(), fmt.Sprintf("%d/%d", c.RunsVerified, c.Runs), fmt.Sprintf("%d/%d", c.RunsTrusted, c.RunsVerified),
			strconv.Itoa(c.RunsNoisy), strconv.Itoa(c.Requests), strconv.Itoa(c.Errors),
			est(MetricP50), est(MetricP99), figure.Text(float64(c.PredictedP99Ms)), span(float64(c.P99RunMinMs), float64(c.P99RunMaxMs)),
			figure.Text(float64(c.P99Ms)), yes(c.P99Resolved), figure.Text(c.pubP99),
			figure.Text(float64(c.MaxMs)), est(MetricDrain), figure.Text(float64(c.PredictedDrainS)),
			est(MetricRPSToLastResponse), est(MetricRPSToLogsRead),
			est(MetricBacklog), figure.Text(float64(c.PredictedBacklogMaxBytes) / 1024), est(MetricAPICPU),
		})
	}
	return t
}

// calibrationTable sets the bundles' calibrations side by side.
func calibrationTable(bs []drawn) report.Table {
	var labels []string
	var facts [][][2]string
	for _, d := range bs {
		rows := calibrationRows(d.m.Calibration)
		if rows == nil {
			rows = [][2]string{{"calibration", "not calibrated: the instrument's send lag and capacity on this engine are unknown"}}
		}
		labels, facts = append(labels, d.Label), append(facts, rows)
	}
	return report.FactsTable(labels, facts)
}

// runTable is a bundle's runs.
func runTable(d TabularDrawn) report.Table {
	t := report.Table{Caption: d.Label, Text: 2, Header: []string{"run", "condition", "round", "attempt", "verified", "p99 ms", "send-lag p99 ms", "send lag trusted", "host CPU median %", "host steal %", "CPU pressure %", "noisy host", "bytes read"}}
	for _, r := range d.Bundle.Runs {
		t.Rows = append(t.Rows, []string{r.RunID, r.API + "/" + r.Mode + "/" + r.Reader, strconv.Itoa(r.Round), strconv.Itoa(r.Attempt),
			yes(r.Verified) + superseded(r.Superseded), figure.Text(float64(r.P99Ms)), figure.Text(float64(r.SendLagP99Ms)), yes(r.SendLagTrusted),
			r.HostCPUMedianPct.Fixed(1), r.HostStealPct.Fixed(1), r.HostCPUPressurePct.Fixed(1), yes(r.HostNoisy),
			units.BytesSize(float64(r.BytesRead))})
	}
	return t
}

// The logging modes the answer sets side by side, behind the slow reader: a synchronous
// log (json-sync, and json-prebuilt-sync, which writes a line built before the
// request), no logging, and a queue between the handler and the pipe.
var (
	syncModes = []string{"json-sync", "json-prebuilt-sync"}
	noneMode  = "none"
	queueMode = "json-queue"
)

// answer is the page's opening: per bundle and API, the p99 of a synchronous log
// behind the slow reader against no logging behind the same reader, and a queue's, each
// as compare states it.
func answer(bs []drawn) []string {
	var out []string
	var marks []string
	for _, d := range bs {
		bound := d.m.Parameters.ReaderBounds[SlowReader]
		reader := SlowReader
		if bound == 0 {
			reader = FastReader
		}
		for _, api := range d.m.Parameters.APIs {
			p99 := func(mode string) (string, bool) {
				r, ok := report.RowOf(d.Figures, MetricP99, compare.KV{Key: "api", Value: api}, compare.KV{Key: "mode", Value: mode}, compare.KV{Key: "reader", Value: reader})
				if !ok {
					return "", false
				}
				marks = report.Union(marks, r.Marks)
				return report.StatedRow(r, "ms"), true
			}
			who := api
			if len(bs) > 1 {
				who = d.Label + ", " + api
			}
			where := "a reader bounded to " + units.BytesSize(float64(bound)) + "/s"
			if bound == 0 {
				where = "an unbounded reader (this bundle has no slow one)"
			}
			var syncs []string
			for _, m := range syncModes {
				if v, ok := p99(m); ok {
					syncs = append(syncs, v+" ("+m+")")
				}
			}
			none, hasNone := p99(noneMode)
			if len(syncs) == 0 && !hasNone {
				continue
			}
			var s string
			switch {
			case len(syncs) == 0:
				s = fmt.Sprintf("%s: this bundle has no synchronous log behind %s; with no logging the p99 is %s", who, where, none)
			default:
				s = fmt.Sprintf("%s: behind %s, a synchronous log takes the p99 to %s", who, where, strings.Join(syncs, " and "))
				if hasNone {
					s += ", against " + none + " with no logging"
				}
			}
			if q, ok := p99(queueMode); ok {
				s += "; a queue in front of the pipe (" + queueMode + ") keeps it at " + q
			}
			out = append(out, s+".")
		}
	}
	tail := "Each p99 is the mean of the runs' p99s with its 95% interval over runs, from the scheduled send to the end of the response."
	if len(marks) > 0 {
		tail += fmt.Sprintf(" %s marks a figure not to be trusted as it stands (%s).", report.Untrusted, strings.Join(marks, "; "))
	}
	return append(out, tail)
}
