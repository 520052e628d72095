package fifostall

import (
	"fmt"
	"slices"

	"github.com/docker/go-units"
	"gonum.org/v1/plot/plotter"

	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/figure"
	"github.com/logbench/logbench/kit/offline/report"
)

// The drawings of fifo-stall's page. Several bundles share each plot's axes: a colour
// per bundle (the page's legend of bundles), a shape or a line style per series.

// find is the condition of a bundle at category cat (api/mode or mode) and reader.
func (d drawn) find(cat, reader string, multiAPI bool) (condition, bool) {
	for _, c := range d.conds {
		if c.Reader == reader && c.label(multiAPI) == cat {
			return c, true
		}
	}
	return condition{}, false
}

// latencyRange is the smallest and largest positive latency figure the plots of reader
// show, over every bundle, so that they share one scale: from the lowest p50 or run's
// p99 to the largest latency, interval or published p99. An interval's low end below it
// runs off the bottom (whisker).
func latencyRange(bs []drawn, reader string) (lo, hi float64) {
	e := report.NewExtent()
	for _, d := range bs {
		for _, c := range d.conds {
			if c.Reader != reader {
				continue
			}
			e.Low(c.fig(MetricP50).Value)
			for _, r := range c.runs {
				e.Low(float64(r.P99Ms))
			}
			for _, v := range c.lat {
				e.High(v)
			}
			e.High(c.pubP99)
			e.High(c.fig(MetricP99).High)
		}
	}
	return e.Or(0.1, 10)
}

// bundles are the bundles' names and colours, as the kit's drawings take them.
func bundles(bs []drawn) []report.Series {
	out := make([]report.Series, len(bs))
	for j, d := range bs {
		out[j] = report.Series{Name: d.Label, Colour: d.Colour}
	}
	return out
}

// percentiles are the latency percentiles drawn by condition: p50 and p99 are the
// figures compare states; p90 and the largest latency are taken the same way, each
// run's, then the mean over runs.
var percentiles = []struct {
	report.PointSeries
	pct float64
}{{report.PointSeries{Name: "p50", Colour: report.Blue}, 50}, {report.PointSeries{Name: "p90", Colour: report.Green}, 90},
	{report.PointSeries{Name: "p99", Colour: report.Orange}, 99}, {report.PointSeries{Name: "max", Colour: report.Red}, 100}}

func percentilePlots(bs []drawn, cats, readers []string, multiAPI bool) []report.Figure {
	var out []report.Figure
	var series []report.PointSeries
	for _, s := range percentiles {
		series = append(series, s.PointSeries)
	}
	for _, reader := range readers {
		// Each reader its own range: the slow reader's seconds would flatten the fast
		// reader's milliseconds.
		lo, hi := latencyRange(bs, reader)
		out = append(out, report.CategoryPoints(fmt.Sprintf("Latency percentiles, %s reader", reader), "latency (ms, log scale)", cats, bundles(bs), series, lo, hi,
			func(k, i, j int) (float64, bool) {
				c, ok := bs[j].find(cats[i], reader, multiAPI)
				if !ok {
					return 0, false
				}
				return c.overRuns(percentiles[k].pct).Value, true
			})...)
	}
	return out
}

// overRuns is the condition's latency percentile pct as compare states a figure: each
// run's, then the mean over runs; p50 and p99 are its Figures rows themselves.
func (c condition) overRuns(pct float64) figure.Estimate {
	switch pct {
	case 50:
		return c.fig(MetricP50)
	case 99:
		return c.fig(MetricP99)
	}
	return compare.Estimate(compare.Measured(nil, "", "ms", compare.Quantile(pct), c.runLat))
}

// runPlots draw each condition's p99 as compare states it (the mean of its runs' p99s,
// with its interval as a whisker), every run's p99 as a ring, the p99 of the pooled
// requests as a cross, and the article's p99 of its pooled requests.
func runPlots(bs []drawn, cats, readers []string, multiAPI bool) []report.Figure {
	var out []report.Figure
	names := report.RunsNames{Estimate: "p99, mean over runs, 95% interval", Run: "each run's p99",
		Pooled: "p99 of the pooled requests", Published: "published p99 of the pooled requests"}
	for _, reader := range readers {
		lo, hi := latencyRange(bs, reader)
		out = append(out, report.RunsPlot(fmt.Sprintf("p99 per run, %s reader", reader), "p99 latency (ms, log scale)", cats, bundles(bs), names, lo, hi,
			func(i, j int) (report.RunsCell, bool) {
				c, ok := bs[j].find(cats[i], reader, multiAPI)
				if !ok {
					return report.RunsCell{}, false
				}
				s := report.RunsCell{Estimate: c.fig(MetricP99), Pooled: float64(c.P99Ms), Published: c.pubP99}
				for _, r := range c.runs {
					s.Runs = append(s.Runs, float64(r.P99Ms))
				}
				return s, true
			}))
	}
	return out
}

// hdrPlots draw each condition's pooled latencies by percentile (report.ByPercentile),
// a plot per reader: a colour per condition, a line style per bundle.
func hdrPlots(bs []drawn, readers []string, multiAPI bool) []report.Figure {
	var out []report.Figure
	var labels []string
	for _, d := range bs {
		labels = append(labels, d.Label)
	}
	for _, reader := range readers {
		var lines []report.PercentileLine
		for j, d := range bs {
			ofReader := slices.DeleteFunc(slices.Clone(d.conds), func(c condition) bool { return c.Reader != reader })
			for i, c := range ofReader {
				lines = append(lines, report.PercentileLine{Name: c.label(multiAPI), Bundle: j, Condition: i, Ms: c.lat})
			}
		}
		if f, ok := report.ByPercentile(fmt.Sprintf("Latency by percentile, %s reader", reader), lines, labels); ok {
			out = append(out, f)
		}
	}
	return out
}

// keys are every bundle's conditions, in the first bundle's order, then the others':
// one of each mode and reader, or of each API, mode and reader when a bundle has several
// APIs (label).
func keys(bs []drawn, multiAPI bool) []condition {
	var out []condition
	for _, d := range bs {
		for _, c := range d.conds {
			if !slices.ContainsFunc(out, func(k condition) bool { return k.Reader == c.Reader && k.label(multiAPI) == c.label(multiAPI) }) {
				out = append(out, c)
			}
		}
	}
	return out
}

// titleOf names a plot of one condition: with its API when one bundle is drawn.
func titleOf(bs []drawn, c condition, multiAPI bool) string {
	if len(bs) == 1 {
		return c.key()
	}
	return c.label(multiAPI) + "/" + c.Reader
}

// schedulePlots draw each request's latency at its scheduled send (report.BySchedule),
// a plot per condition.
func schedulePlots(bs []drawn, multiAPI bool) []report.Figure {
	var out []report.Figure
	for _, k := range keys(bs, multiAPI) {
		title := ""
		traces := make([]report.Traces, len(bs))
		for j, d := range bs {
			traces[j] = report.Traces{Label: d.Label, Colour: d.Colour}
			c, ok := d.find(k.label(multiAPI), k.Reader, multiAPI)
			if !ok {
				continue
			}
			if title == "" {
				title = titleOf(bs, c, multiAPI) + ": latency by scheduled send"
			}
			for _, run := range c.runs {
				t := report.Trace{Name: fmt.Sprintf("run %d (%s)", run.Round, run.RunID)}
				for _, q := range c.reqs[run.RunID] {
					t.XYs = append(t.XYs, plotter.XY{X: q.ScheduledOffsetS, Y: q.LatencyMs})
				}
				traces[j].Runs = append(traces[j].Runs, t)
			}
		}
		if f, ok := report.BySchedule(title, traces); ok {
			out = append(out, f)
		}
	}
	return out
}

// saturates says whether the condition offers more log bytes per second than its
// reader reads.
func saturates(c condition) bool {
	return c.ReaderBoundBytesPerS > 0 && c.OfferedBytesPerS > c.ReaderBoundBytesPerS && len(c.runs) > 0
}

// timelinePlots draw, for each condition that saturates its reader, the log bytes
// generated and read and the backlog between them over time, a line per run.
func timelinePlots(bs []drawn, multiAPI bool) []report.Figure {
	var out []report.Figure
	for _, k := range keys(bs, multiAPI) {
		tl := report.Cumulative{XLabel: "s since the first scheduled send", YLabel: "logged (KiB)", EndName: "end of the load",
			Series: []report.PointSeries{{Name: "generated", Colour: report.Blue}, {Name: "read", Colour: report.Orange}, {Name: "backlog", Colour: report.Green}}}
		runs := make([][][]plotter.XYs, len(bs))
		for j, d := range bs {
			c, ok := d.find(k.label(multiAPI), k.Reader, multiAPI)
			if !ok || !saturates(c) {
				continue
			}
			if tl.Title == "" {
				tl.Title = titleOf(bs, c, multiAPI)
				if len(bs) == 1 {
					tl.Title = fmt.Sprintf("%s (%d runs)", tl.Title, len(c.runs))
				}
				tl.Bound, tl.End = c.ReaderBoundBytesPerS/1024, d.m.Parameters.DurationS
				tl.BoundName = fmt.Sprintf("reader bound %s/s", units.BytesSize(tl.Bound*1024))
			}
			for _, run := range c.runs {
				var gen, read plotter.XYs
				for _, t := range d.timeline[run.RunID] {
					xy := plotter.XY{X: t.OffsetS, Y: float64(t.Bytes) / 1024}
					switch t.Series {
					case "generated":
						gen = append(gen, xy)
					case "read":
						read = append(read, xy)
					}
				}
				runs[j] = append(runs[j], []plotter.XYs{gen, read, backlog(d.timeline[run.RunID])})
			}
		}
		if tl.Title != "" {
			out = append(out, tl.Plot(bundles(bs), runs))
		}
	}
	return out
}
