package linecost

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	lc "github.com/logbench/logbench/kit/incontainer/linecost"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/figure"
	"github.com/logbench/logbench/kit/offline/report"
)

// The bundle's files.
const (
	RunsFile       = "runs.csv"
	TrialsFile     = "trials.csv"
	ConditionsFile = "conditions.csv"
)

// Trials are the bundle's trials (trials.csv), in the order of their runs.
func Trials(b *Bundle) []TrialRow { return tabular.Of[TrialRow](b.Rows, TrialsFile) }

// Conditions are the bundle's conditions as this kit states them, over runs (an earlier
// kit's conditions.csv, which verify holds to that kit's rule, is stated so too).
func Conditions(b *Bundle) []ConditionRow {
	p := *b.Params()
	p.Resamples = 0
	return Figures(p, b.Runs, Trials(b), mustPublished())
}

// Summary is the table beside the published figures, the seed's orderings checked,
// and what each way costs a service at the plan's rate.
func summary(b *Bundle, w io.Writer) error {
	WriteTable(w, b)
	for _, t := range findings(Conditions(b)) {
		fmt.Fprintln(w)
		t.WriteText(w)
	}
	if f := fsFacts(b); f != "" {
		fmt.Fprintf(w, "\nlog files on %s\n", f)
	}
	fmt.Fprintf(w, "published: %s\n", Source)
	return nil
}

// fsFacts names the file system(s) the runs wrote to.
func fsFacts(b *Bundle) string {
	facts := report.Distinct(b.Runs, func(r RunRow) string {
		if r.FSType == "" {
			return ""
		}
		return fmt.Sprintf("%s (%s, %s; volume %s)", r.FSType, r.FSSource, r.MountOptions, cmp.Or(b.Params().Volume, "a fresh one per run"))
	})
	return strings.Join(slices.DeleteFunc(facts, func(s string) bool { return s == "" }), "; ")
}

// WriteTable writes the bundle's conditions (conditionTable) as aligned text, under
// what each figure is and the plan's limits and line, then why a library does not offer
// each way it marks.
func WriteTable(w io.Writer, b *Bundle) {
	p := b.Params()
	limit := "no CPU limit"
	if p.CPUs > 0 {
		limit = fmt.Sprintf("%g CPU", p.CPUs)
	}
	line := "text-notime (the kit's line before lines had a time stamp)"
	if !p.Legacy() {
		line = p.Line
	}
	fmt.Fprintf(w, "per line, ns: the mean over runs of each run's median over its trials [95%% interval over runs]; headline = thread CPU time, wall time for fsync; %s, %s memory; line %s\n",
		limit, experiment.Bytes(&p.MemoryBytes), line)
	t, notOffered := conditionTable(b, "")
	t.WriteText(w)
	for _, n := range notOffered {
		fmt.Fprintln(w, n)
	}
}

// conditionTable is the bundle's conditions as the summary writes them and the report
// draws them: each library's ways, the headline and the calling thread's CPU per line
// as compare states them with their 95% intervals, the other clocks, the share of a
// core at the plan's rate and the seed's figure; a way a library cannot do is marked,
// and notOffered say why.
func conditionTable(b *Bundle, caption string) (t report.Table, notOffered []string) {
	figures := compare.StatedOf(Rows(b, nil))
	t = report.Table{Caption: caption, Text: 3, Header: []string{"condition", "line", "headline", "runs ok", "trials", "per line (ns)", "95% interval", "× cheapest",
		"CPU per line (ns)", "CPU 95% interval", "wall per line (ns)", "container CPU per line (ns)", "cores busy", "throttled trials",
		"share of a core at " + strconv.FormatFloat(b.Params().RateLinesPerS, 'g', -1, 64) + " lines/s", "published"}}
	for _, c := range Conditions(b) {
		name, shape := conditionName(c), cmp.Or(c.Line, lc.LineTextNoTime)
		if c.NotOffered != "" {
			t.Rows = append(t.Rows, append([]string{name, shape, lc.NotOfferedMark}, slices.Repeat([]string{"-"}, len(t.Header)-3)...))
			notOffered = append(notOffered, fmt.Sprintf("%s: %s: %s", name, lc.NotOfferedMark, c.NotOffered))
			continue
		}
		head, cpu := figures.Of(name, "ns_per_line"), figures.Of(name, "cpu_ns_per_line")
		t.Rows = append(t.Rows, []string{name, shape, c.Headline, fmt.Sprintf("%d/%d", c.RunsVerified, c.Runs), strconv.Itoa(c.Trials),
			figure.Text(head.Value), compare.IntervalCell(head), ratio(c.RatioToCheapest), figure.Text(cpu.Value), compare.IntervalCell(cpu),
			figure.Text(figures.Of(name, "wall_ns_per_line").Value), figure.Text(float64(c.CgroupCPUNsPerLine)), figure.Text(float64(c.CPUCores)),
			fmt.Sprintf("%d/%d", c.ThrottledTrials, c.Trials), pct(c.ShareOfCoreAtRate), cmp.Or(c.PublishedFigure, "-")})
	}
	return t, notOffered
}

// ByLibrary labels each condition's language with its library ("go/zap") when the
// bundle has a library axis, so that the seed's orderings and ratios are checked within
// one library, never across two.
func ByLibrary(conds []ConditionRow) []ConditionRow {
	out := make([]ConditionRow, 0, len(conds))
	for _, c := range conds {
		if c.NotOffered != "" {
			continue
		}
		c.Language = libraryLabel(c)
		out = append(out, c)
	}
	return out
}

// libraryLabel is a condition's language with its library ("go/zap") when the bundle has
// a library axis, its language alone when it has none.
func libraryLabel(c ConditionRow) string {
	if c.Library == "" {
		return c.Language
	}
	return c.Language + "/" + c.Library
}

// Ns formats nanoseconds with a unit that keeps three figures.
func Ns[F ~float64](f F) string {
	v, unit := float64(f), " ns"
	if v >= 1e6 {
		v, unit = v/1e6, " ms"
	} else if v >= 1e3 {
		v, unit = v/1e3, " us"
	}
	return threeFigures(v, unit)
}

func ratio[F ~float64](f F) string {
	if math.IsInf(float64(f), 0) {
		return "-"
	}
	return threeFigures(float64(f), "x")
}

func pct[F ~float64](f F) string { return threeFigures(float64(f)*100, "%") }

// threeFigures is v to three significant figures followed by unit; "-" for NaN.
func threeFigures(v float64, unit string) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf("%.3g", v) + unit
}
