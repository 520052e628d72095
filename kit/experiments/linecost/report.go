package linecost

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/figure"
	"github.com/logbench/logbench/kit/offline/report"
)

// Report draws several bundles on one page, on the same axes: a colour per bundle.
func (Experiment) Report(w io.Writer, sources []experiment.Source, version string) error {
	return writeReport(w, sources, version)
}

// drawn is one bundle as the drawings need it.
type drawn struct {
	label   string
	colour  color.RGBA
	b       *Bundle
	figures stated
}

func (d drawn) cond(lang, way string) *ConditionRow {
	for i, c := range d.b.Conditions {
		if c.Language == lang && c.Way == way {
			return &d.b.Conditions[i]
		}
	}
	return nil
}

func writeReport(w io.Writer, sources []experiment.Source, version string) error {
	pub, err := LoadPublished()
	if err != nil {
		return err
	}
	var bs []drawn
	var page report.Bundles
	var langs, ways []string
	for _, s := range sources {
		b, err := bundleOf(s.Result)
		if err != nil {
			return err
		}
		bs = append(bs, drawn{label: s.Label, colour: page.Add(s.Label, s.Result, &b.Manifest.Common, b.Manifest.Parameters), b: b, figures: statedOf(b)})
		for _, c := range b.Conditions {
			if !slices.Contains(langs, c.Language) {
				langs = append(langs, c.Language)
			}
			if !slices.Contains(ways, c.Way) {
				ways = append(ways, c.Way)
			}
		}
	}
	disk := report.Table{Caption: "Where the log files were written.", Header: []string{"bundle", "file system"}, Text: 2}
	for _, d := range bs {
		disk.Rows = append(disk.Rows, []string{d.label, d.b.fsFacts()})
	}

	p, err := page.Page(Name, version,
		"What one log line costs the calling thread, way by way (formatting, a disabled level, buffered and unbuffered writes, fsync, a queue), in Go, Python and Node.js. Published: "+Source,
		nil, disk)
	if err != nil {
		return err
	}

	var heads []report.Figure
	for _, lang := range langs {
		g := &report.Grouped{Points: true, Published: make([]float64, len(ways))}
		for i, way := range ways {
			g.Published[i] = math.NaN()
			if f, ok := pub.PerLine(way); ok {
				g.Published[i] = f.Ns
			}
		}
		for _, d := range bs {
			g.Series = append(g.Series, report.Series{Name: d.label, Colour: d.colour, Values: d.perLine(lang, ways)})
		}
		heads = append(heads, report.Bars(lang+": time per line", "ns per line (log scale)", ways, g, true))
	}
	p.Open("What does one log line cost to format, to write and to fsync?", answer(bs), headline(bs, langs, ways, pub))
	p.Sections = append(p.Sections, report.Section{ID: "headline", Title: "Time per line",
		Caption: "Each way's headline per line: the mean over runs of each run's median over its trials (square) with its 95% interval over runs (whisker; none from one run), on a log scale; the calling thread's CPU time, wall time for fsync, which waits on the disk. The dashed black strokes are the seed's figures (wall-clock, on a virtual machine), the same for every language.",
		Figures: heads})

	var cw []report.Figure
	for _, lang := range langs {
		cw = append(cw, cpuWallPlot(bs, lang, ways))
	}
	p.Sections = append(p.Sections, report.Section{ID: "cpu-wall", Title: "CPU time against wall time",
		Caption: "Each way's CPU time per line against its wall time per line (log scales). On the diagonal the thread did nothing but run; above it, CPU time on other threads counted in; below it, waiting: on the disk (fsync), or on a CPU limit that throttled the container.",
		Figures: cw, Warnings: throttled(bs)})

	p.Sections = append(p.Sections, report.Section{ID: "findings", Title: "The seed's findings",
		Caption: "The fidelity checks are the seed's orderings and ratios, not its absolute nanoseconds.",
		Tables:  []report.Table{orderingTable(bs), ratioTable(bs, pub)}})
	p.Sections = append(p.Sections, report.Section{ID: "conditions", Title: "Conditions",
		Caption: "Every figure recomputed from the trials of verified runs: each run's median over its trials, then the mean over runs, in ns; the interval the headline's 95% Student-t interval over runs (none from one run).",
		Tables:  conditionTables(bs)})
	p.Sections = append(p.Sections, page.Images())
	return report.Write(w, p)
}

// cpuWallPlot sets each way's CPU time per line against its wall time, a colour per
// bundle and a shape per way, both named in the legend: names written beside the points
// would crowd where ways cost about the same.
// perLine is the time per line of lang's ways in the bundle, each with its interval;
// absent where the way did not run or has no figure.
func (d drawn) perLine(lang string, ways []string) []report.Value {
	out := make([]report.Value, len(ways))
	for i, way := range ways {
		out[i] = report.Absent
		if c := d.cond(lang, way); c != nil {
			if e := d.figures.of(*c, "ns_per_line"); e.Value > 0 {
				out[i] = report.Value{V: e.Value, Lo: e.Low, Hi: e.High}
			}
		}
	}
	return out
}

func cpuWallPlot(bs []drawn, lang string, ways []string) report.Figure {
	title := lang + ": CPU against wall time per line"
	ch := report.NewChart(title, "wall ns per line (log scale)", "CPU ns per line (log scale)")
	lo, hi := math.Inf(1), 0.0
	for _, d := range bs {
		for _, way := range ways {
			if c := d.cond(lang, way); c != nil && c.CPUNsPerLine > 0 && c.WallNsPerLine > 0 {
				w, u := float64(c.WallNsPerLine), float64(c.CPUNsPerLine)
				lo, hi = min(lo, w, u), max(hi, w, u)
			}
		}
	}
	if math.IsInf(lo, 1) {
		return report.Failed(title, fmt.Errorf("no way of %s has both clocks", lang))
	}
	shown := map[string]bool{}
	for _, d := range bs {
		for k, way := range ways {
			c := d.cond(lang, way)
			if c == nil || !(c.CPUNsPerLine > 0) || !(c.WallNsPerLine > 0) {
				continue
			}
			pts, err := report.Points(plotter.XYs{{X: float64(c.WallNsPerLine), Y: float64(c.CPUNsPerLine)}}, d.colour, wayShape(k), 4)
			if err != nil {
				return report.Failed(title, err)
			}
			ch.Add(pts)
			shown[way] = true
		}
		if len(bs) > 1 {
			ch.AddLegend(d.label, report.Swatch{Colour: d.colour})
		}
	}
	for k, way := range ways {
		if shown[way] {
			if pts, err := report.Points(plotter.XYs{{}}, report.Grey, wayShape(k), 4); err == nil {
				ch.AddLegend(way, pts)
			}
		}
	}
	lo, hi = lo/2, hi*3
	if diag, err := report.Line(plotter.XYs{{X: lo, Y: lo}, {X: hi, Y: hi}}, report.Grey, 1, true); err == nil {
		ch.Add(diag)
		ch.AddLegend("CPU = wall", diag)
	}
	for _, a := range []*plot.Axis{&ch.P.X, &ch.P.Y} {
		a.Scale = plot.LogScale{}
		a.Tick.Marker = report.LogTicks{}
		a.Min, a.Max = lo, hi
	}
	return ch.Render()
}

// wayShape is the k-th way's mark.
func wayShape(k int) draw.GlyphDrawer { return report.Shapes[k%len(report.Shapes)] }

// throttled says where a CPU limit stretched trials' wall time.
func throttled(bs []drawn) []string {
	var out []string
	for _, d := range bs {
		n, of := 0, 0
		for _, c := range d.b.Conditions {
			n += c.ThrottledTrials
			of += c.Trials
		}
		if n > 0 {
			out = append(out, fmt.Sprintf("%s: %d of %d trials were throttled by the CPU limit (%g CPU): their wall time includes waiting for the quota, so the headline of every CPU-bound way is the thread's CPU time.",
				d.label, n, of, d.b.Manifest.Parameters.CPUs))
		}
	}
	return out
}

func orderingTable(bs []drawn) report.Table {
	t := report.Table{Caption: "The seed's orderings.", Header: []string{"bundle", "language", "claim", "verdict", "evidence"}, Text: 5}
	for _, d := range bs {
		for _, o := range Orderings(d.b.Conditions) {
			t.Rows = append(t.Rows, []string{d.label, o.Language, o.Claim, o.State(), o.Evidence})
		}
	}
	return t
}

func ratioTable(bs []drawn, pub Published) report.Table {
	t := report.Table{Caption: "The seed's ratios.", Header: []string{"bundle", "language", "ratio", "measured", "published"}, Text: 3}
	for _, d := range bs {
		for _, r := range Ratios(d.b.Conditions, pub) {
			t.Rows = append(t.Rows, []string{d.label, r.Language, r.Name, r.Measured, r.Published})
		}
	}
	return t
}

func conditionTables(bs []drawn) []report.Table {
	var out []report.Table
	for _, d := range bs {
		t := report.Table{Caption: d.label, Text: 2, Header: []string{"condition", "headline", "runs ok", "trials", "per line (ns)", "95% interval", "× cheapest", "CPU per line (ns)", "wall per line (ns)", "container CPU per line (ns)",
			"cores busy", "throttled trials", "share of a core at " + rate(d.b.Manifest.Parameters.RateLinesPerS), "published"}}
		for _, c := range d.b.Conditions {
			pubFig := "—"
			if c.PublishedFigure != "" {
				pubFig = c.PublishedFigure
			}
			head := d.figures.of(c, "ns_per_line")
			t.Rows = append(t.Rows, []string{conditionName(c), c.Headline, fmt.Sprintf("%d/%d", c.RunsVerified, c.Runs), strconv.Itoa(c.Trials),
				figure.Text(head.Value), intervalText(head), ratio(c.RatioToCheapest),
				figure.Text(d.figures.of(c, "cpu_ns_per_line").Value), figure.Text(d.figures.of(c, "wall_ns_per_line").Value), figure.Text(float64(c.CgroupCPUNsPerLine)),
				fixed(float64(c.CPUCores), 2), fmt.Sprintf("%d/%d", c.ThrottledTrials, c.Trials), fixed(float64(c.ShareOfCoreAtRate)*100, 3) + "%", pubFig})
		}
		out = append(out, t)
	}
	return out
}

func rate(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) + " lines/s" }

func fixed(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

// headline is the answer's chart: every language's time per line, way by way, with its
// interval, on one log axis beside the seed's figures; a colour per language (per
// bundle and language with several bundles).
func headline(bs []drawn, langs, ways []string, pub Published) report.Figure {
	g := &report.Grouped{Points: true, Published: make([]float64, len(ways))}
	for i, way := range ways {
		g.Published[i] = math.NaN()
		if f, ok := pub.PerLine(way); ok {
			g.Published[i] = f.Ns
		}
	}
	for _, d := range bs {
		for _, lang := range langs {
			name := lang
			if len(bs) > 1 {
				name = d.label + " " + lang
			}
			g.Series = append(g.Series, report.Series{Name: name, Colour: report.Colour(len(g.Series)), Values: d.perLine(lang, ways)})
		}
	}
	return report.Bars("Time per line, every language", "ns per line (log scale)", ways, g, true)
}

// answerWays are the ways the answer states, in its order, and how it says each.
var answerWays = []struct{ way, what string }{
	{"format", "formatting a line costs"}, {"buffered", "writing it buffered"}, {"unbuffered", "unbuffered"}, {"fsync", "and with an fsync each"},
}

// answer is the page's opening: per bundle, language and library, what one line costs
// to format, to write buffered and unbuffered, and to fsync, each as compare states it.
func answer(bs []drawn) []string {
	var out []string
	for _, d := range bs {
		var keys []string
		for _, c := range d.b.Conditions {
			if k := c.Language + "/" + c.Library; !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			var parts []string
			var lib string
			for _, w := range answerWays {
				for _, c := range d.b.Conditions {
					if c.Language+"/"+c.Library != k || c.Way != w.way || c.NotOffered != "" {
						continue
					}
					l, _ := LibraryOfRun(c.Language, c.Library)
					lib = c.Language + " (" + l.Name + ")"
					parts = append(parts, w.what+" "+report.Stated(d.figures.of(c, "ns_per_line"), "ns"))
				}
			}
			if len(parts) == 0 {
				continue
			}
			if len(bs) > 1 {
				lib = d.label + ", " + lib
			}
			out = append(out, lib+": "+strings.Join(parts, ", ")+".")
		}
	}
	return append(out, "Each figure is the mean over runs of each run's median over its trials, with its 95% interval over runs: the calling thread's CPU time, and for fsync the wall time, which waits on the disk.")
}
