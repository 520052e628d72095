// Package report writes a bundle as one self-contained HTML page: its verification, the
// host it was measured on, and plots of every condition (latency percentiles, per-run
// p99 ranges, log bytes generated and read over time, CPU). The plots are SVG drawn by
// gonum/plot and inlined, so the page needs no network and no script.
package report

import (
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/docker/go-units"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
	"github.com/logbench/logbench/results/reference"
)

// Input is what a report is made of.
type Input struct {
	// Result is the bundle's verification; its Bundle must be set (a bundle whose files
	// could not be read has nothing to plot).
	Result *verify.Result
	// Published, when set, puts the article's p99s beside the measured ones.
	Published reference.Figures
	// Version names the kit that writes the report.
	Version string
}

// publishedAPI is the API the article measured.
var publishedAPI = reference.MustSetup("fifo-stall").API

// maxProblems bounds the verification problems the page lists.
const maxProblems = 50

// Write writes the report page to w.
func Write(w io.Writer, in Input) error {
	if in.Result == nil || in.Result.Bundle == nil {
		return errors.New("report: the bundle could not be read far enough to plot")
	}
	p, err := build(in)
	if err != nil {
		return err
	}
	return page.Execute(w, document{Title: p.Name, Version: in.Version, Bundles: []*pageData{p}})
}

// Labeled is one bundle of a page of several, with the name it goes by.
type Labeled struct {
	Label string
	Input Input
}

// WriteMany writes several bundles on one page: their hosts side by side, then each
// bundle's verification, plots and tables.
func WriteMany(w io.Writer, bundles []Labeled, version string) error {
	d := document{Version: version}
	var names []string
	for i, b := range bundles {
		if b.Input.Result == nil || b.Input.Result.Bundle == nil {
			return errors.New("report: " + b.Label + " could not be read far enough to plot")
		}
		p, err := build(b.Input)
		if err != nil {
			return err
		}
		p.Name, p.Prefix = b.Label, fmt.Sprintf("b%d-", i+1)
		d.Bundles = append(d.Bundles, p)
		names = append(names, b.Label)
	}
	d.Title = strings.Join(names, ", ")
	if len(d.Bundles) > 0 {
		for i, f := range d.Bundles[0].Facts {
			row := []string{f[0]}
			for _, p := range d.Bundles {
				v := ""
				if i < len(p.Facts) {
					v = p.Facts[i][1]
				}
				row = append(row, v)
			}
			d.Hosts = append(d.Hosts, row)
		}
	}
	return page.Execute(w, d)
}

// document is the page: one bundle, or several side by side.
type document struct {
	Title, Version string
	Hosts          [][]string
	Bundles        []*pageData
}

// condition is one cell of the matrix with what the plots need.
type condition struct {
	api, mode, reader string
	row               bundle.ConditionRow // recomputed from the runs
	lat               []float64           // pooled latencies of the verified runs
	runs              []bundle.Rows       // the verified runs
	pubP99            float64
}

func (c condition) label(multiAPI bool) string {
	if multiAPI {
		return c.api + "/" + c.mode
	}
	return c.mode
}

// pageData is what the template shows.
type pageData struct {
	Name, Version, Command, Created, Finished, KitVersion string
	Prefix                                                string // of the page's ids, for a page of several bundles
	OK                                                    bool
	Summary                                               string
	Problems, Notes                                       []string
	MoreProblems                                          int
	Facts                                                 [][2]string
	Setup                                                 [][2]string
	Images                                                [][]string
	Conditions                                            [][]string
	ConditionHeader                                       []string
	Calibration                                           [][2]string
	RunHeader                                             []string
	Runs                                                  [][]string
	Sections                                              []section
}

type section struct {
	ID, Title, Caption string
	Plots              []figure
	Empty              string // said when there is nothing to plot
}

type figure struct {
	Title string
	SVG   template.HTML
	Err   string
}

func build(in Input) (*pageData, error) {
	res := in.Result
	b := res.Bundle
	m := b.Manifest
	d := &pageData{
		Name: res.Name, Version: in.Version, Command: m.Command, KitVersion: m.KitVersion,
		Created: m.CreatedUTC.UTC().Format("2006-01-02 15:04:05 UTC"), Finished: m.FinishedUTC.UTC().Format("2006-01-02 15:04:05 UTC"),
		OK: res.OK(), Summary: res.Summary(),
	}
	for i, p := range res.Problems {
		if i == maxProblems {
			d.MoreProblems = len(res.Problems) - i
			break
		}
		d.Problems = append(d.Problems, p.String())
	}
	for _, n := range res.Notes {
		d.Notes = append(d.Notes, n.String())
	}
	e := m.Engine
	d.Facts = [][2]string{
		{"host", e.Host}, {"architecture", e.Architecture + " (" + e.Platform + ")"}, {"CPUs", strconv.Itoa(e.CPUs)},
		{"memory", units.BytesSize(float64(e.MemoryBytes))}, {"kernel", e.Kernel}, {"OS", e.OS},
		{"Docker Engine", e.EngineVersion + " (API " + e.APIVersion + ")"}, {"cgroup", "v" + e.CgroupVersion + " " + e.CgroupDriver},
		{"storage driver", e.StorageDriver}, {"kit host", m.KitHost.OS + "/" + m.KitHost.Arch + ", " + m.KitHost.GoVersion},
	}
	pm := m.Parameters
	var bounds []string
	for _, r := range sortedKeys(pm.ReaderBounds) {
		bound := "unbounded"
		if v := pm.ReaderBounds[r]; v > 0 {
			bound = units.BytesSize(float64(v)) + "/s"
		}
		bounds = append(bounds, r+": "+bound)
	}
	l := pm.Limits
	d.Setup = [][2]string{
		{"matrix", fmt.Sprintf("%s x %s x %s, %d rounds; %d of %d runs done, %d verified",
			strings.Join(pm.APIs, ","), strings.Join(pm.Modes, ","), strings.Join(pm.Readers, ","), pm.Rounds, m.RunsCompleted, m.RunsPlanned, m.RunsVerified)},
		{"load", fmt.Sprintf("%g req/s for %g s, open loop, %d warm-up", pm.RateRPS, pm.DurationS, pm.WarmupRequests)},
		{"readers", strings.Join(bounds, "; ") + fmt.Sprintf("; %d-byte reads", pm.ReadBytes)},
		{"queue", fmt.Sprintf("%d records", pm.QueueCapacity)},
		{"limits", fmt.Sprintf("api %g CPU, %s; reader %g CPU, %s; loadgen %g CPU, %s; %d pids",
			l.APICPUs, units.BytesSize(float64(l.APIMemoryBytes)), l.ReaderCPUs, units.BytesSize(float64(l.ReaderMemoryBytes)),
			l.LoadgenCPUs, units.BytesSize(float64(l.LoadgenMemoryBytes)), l.PidsLimit)},
		{"stop conditions", fmt.Sprintf("%g s per run, %s of log", pm.MaxRunTimeS, units.BytesSize(float64(pm.MaxLogBytes)))},
	}
	for _, img := range m.Images {
		sum := img.BinarySHA256
		if len(sum) > 16 {
			sum = sum[:16] + "…"
		}
		d.Images = append(d.Images, []string{img.Role, img.Tag, img.Architecture, units.BytesSize(float64(img.SizeBytes)), sum, img.Runtime})
	}

	conds := conditions(b, in.Published)
	multiAPI := len(pm.APIs) > 1
	d.ConditionHeader = []string{"condition", "runs verified", "lag-trusted", "noisy host", "requests", "errors", "p50 ms", "p99 ms", "p99 resolved",
		"model p99 ms", "published p99 ms", "per-run p99 ms", "max ms", "drain s", "model drain s", "req/s to last response", "req/s to logs read",
		"max backlog KiB", "model backlog KiB", "API CPU cores"}
	for _, c := range conds {
		r := c.row
		resolved := "no"
		if r.P99Resolved {
			resolved = "yes"
		}
		d.Conditions = append(d.Conditions, []string{
			c.api + "/" + c.mode + "/" + c.reader, fmt.Sprintf("%d/%d", r.RunsVerified, r.Runs), fmt.Sprintf("%d/%d", r.RunsTrusted, r.RunsVerified),
			strconv.Itoa(r.RunsNoisy), strconv.Itoa(r.Requests), strconv.Itoa(r.Errors),
			ms(float64(r.P50Ms)), ms(float64(r.P99Ms)), resolved, ms(float64(r.PredictedP99Ms)), ms(c.pubP99),
			figRange(float64(r.P99RunMinMs), float64(r.P99RunMaxMs)), ms(float64(r.MaxMs)),
			fixed(float64(r.DrainS), 3), fixed(float64(r.PredictedDrainS), 3), fixed(float64(r.RPSToLastResponse), 2), fixed(float64(r.RPSToLogsRead), 2),
			fixed(float64(r.BacklogMaxBytes)/1024, 1), fixed(float64(r.PredictedBacklogMaxBytes)/1024, 1), fixed(float64(r.APICPUCores), 4),
		})
	}
	d.Calibration = calibrationRows(m.Calibration)
	d.RunHeader = []string{"run", "condition", "round", "attempt", "verified", "p99 ms", "send-lag p99 ms", "send lag trusted", "host CPU median %", "host steal %", "CPU pressure %", "noisy host", "bytes read"}
	for _, run := range b.Runs {
		r := run.Run
		d.Runs = append(d.Runs, []string{r.RunID, r.API + "/" + r.Mode + "/" + r.Reader, strconv.Itoa(r.Round), strconv.Itoa(r.Attempt),
			yes(r.Verified) + superseded(r.Superseded), ms(float64(r.P99Ms)), ms(float64(r.SendLagP99Ms)), yes(r.SendLagTrusted),
			fixed(float64(r.HostCPUMedianPct), 1), fixed(float64(r.HostStealPct), 1), fixed(float64(r.HostCPUPressurePct), 1), yes(r.HostNoisy),
			units.BytesSize(float64(r.BytesRead))})
	}
	readers := orderBy(pm.Readers, conds, func(c condition) string { return c.reader })

	d.Sections = append(d.Sections, section{ID: "percentiles", Title: "Latency percentiles",
		Caption: "Pooled over each condition's verified runs, from the scheduled send to the end of the response (log scale); a point per condition and percentile. Each reader has its own scale.",
		Plots:   percentilePlots(conds, readers, multiAPI)})
	d.Sections = append(d.Sections, section{ID: "hdr", Title: "Latency by percentile",
		Caption: "Every pooled request's latency at its percentile, on a log scale of 1/(1-q) as HdrHistogram draws it: the tail has room. A line per condition.",
		Plots:   hdrPlots(conds, readers, multiAPI)})
	d.Sections = append(d.Sections, section{ID: "p99-runs", Title: "p99 per run",
		Caption: "Each run's p99 (dots) and their range (bar), as the article reports it; the diamond is the pooled p99" + publishedNote(in.Published, pm.APIs) + ".",
		Plots:   runPlots(conds, readers, multiAPI)})
	d.Sections = append(d.Sections, section{ID: "schedule", Title: "Latency by scheduled send",
		Caption: "Each request at the time it was scheduled, a colour per run: a stall is a ramp, a run unlike the others its own colour.",
		Plots:   schedulePlots(conds)})
	tl := section{ID: "timeline", Title: "Log bytes generated, read and waiting",
		Caption: "The conditions where the offered log volume exceeds the reader's bound: bytes the API generated, bytes the reader had read, and the backlog between them (KiB) since the first scheduled send, each run a line. The dashed grey line is the reader's bound."}
	tl.Plots = timelinePlots(conds, pm.DurationS)
	if len(tl.Plots) == 0 {
		tl.Empty = "No condition here offers more log bytes per second than its reader reads (the slow reader with a 16 KiB mode does)."
	}
	d.Sections = append(d.Sections, tl)
	d.Sections = append(d.Sections, section{ID: "cpu", Title: "API CPU",
		Caption: "Mean cores the API's cgroup used, from the reset after warm-up to the last response, over the verified runs.",
		Plots:   cpuPlots(conds, readers, multiAPI)})
	return d, nil
}

func publishedNote(pub reference.Figures, apis []string) string {
	if pub == nil || !slices.Contains(apis, publishedAPI) {
		return ""
	}
	return "; the triangle is the article's pooled p99, where it published one"
}

// conditions recomputes the conditions and gathers each one's requests and runs.
func conditions(b *bundle.Bundle, pub reference.Figures) []condition {
	rows := bundle.DeriveConditions(b.Runs, b.Manifest.Parameters)
	out := make([]condition, 0, len(rows))
	for _, r := range rows {
		c := condition{api: r.API, mode: r.Mode, reader: r.Reader, row: r, pubP99: math.NaN()}
		for _, run := range b.Runs {
			if run.Run.Verified && !run.Run.Superseded && run.Run.API == r.API && run.Run.Mode == r.Mode && run.Run.Reader == r.Reader {
				c.runs = append(c.runs, run)
				for _, q := range run.Requests {
					c.lat = append(c.lat, q.LatencyMs)
				}
			}
		}
		// The article measured one API: its figures stand beside that API's conditions only.
		if pub != nil && r.API == publishedAPI {
			if v, ok := pub.Lookup(r.Mode, r.Reader, "p99_pooled"); ok {
				c.pubP99 = v
			}
		}
		out = append(out, c)
	}
	// Modes in the manifest's order, which is the article's.
	modes := orderBy(b.Manifest.Parameters.Modes, out, func(c condition) string { return c.mode })
	slices.SortStableFunc(out, func(a, b condition) int { return slices.Index(modes, a.mode) - slices.Index(modes, b.mode) })
	return out
}

// orderBy lists the values of key in the order of want, then any others as they come.
func orderBy(want []string, conds []condition, key func(condition) string) []string {
	var out []string
	have := map[string]bool{}
	for _, c := range conds {
		have[key(c)] = true
	}
	for _, w := range want {
		if have[w] && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	for _, c := range conds {
		if k := key(c); !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// Sizes of the plots, in points: two fit side by side on a wide page.
const (
	plotW = 7 * vg.Inch
	plotH = 4.2 * vg.Inch
)

func (diamond) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineWidth(vg.Points(1))
	c.SetColor(sty.Color)
	r := sty.Radius
	var path vg.Path
	path.Move(vg.Point{X: pt.X, Y: pt.Y + r})
	path.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	path.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	path.Line(vg.Point{X: pt.X - r, Y: pt.Y})
	path.Close()
	c.Fill(path)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
