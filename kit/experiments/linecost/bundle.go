package linecost

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/logbench/logbench/kit/experiment/tabular"
	lc "github.com/logbench/logbench/kit/incontainer/linecost"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/figure"
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
	fmt.Fprintln(w)
	for _, o := range Orderings(ByLibrary(Conditions(b))) {
		fmt.Fprintln(w, o)
	}
	fmt.Fprintln(w)
	for _, r := range Ratios(ByLibrary(Conditions(b)), mustPublished()) {
		fmt.Fprintln(w, r)
	}
	if f := fsFacts(b); f != "" {
		fmt.Fprintf(w, "\nlog files on %s\n", f)
	}
	fmt.Fprintf(w, "published: %s\n", Source)
	return nil
}

// fsFacts names the file system(s) the runs wrote to.
func fsFacts(b *Bundle) string {
	var seen []string
	for _, r := range b.Runs {
		if r.FSType == "" {
			continue
		}
		s := fmt.Sprintf("%s (%s, %s; volume %s)", r.FSType, r.FSSource, r.MountOptions, volumeKind(b.Params().Volume))
		if !slices.Contains(seen, s) {
			seen = append(seen, s)
		}
	}
	return strings.Join(seen, "; ")
}

func volumeKind(v string) string {
	if v == "" {
		return "a fresh one per run"
	}
	return v
}

// WriteTable writes the bundle's conditions as fixed-width tables, one per language:
// each library's ways, the headline and the calling thread's CPU per line as
// compare.Estimate states them, with their 95% intervals, and the share of a core at the
// plan's rate; a way a library cannot do is marked not offered.
func WriteTable(w io.Writer, b *Bundle) {
	p, figures, conds := b.Params(), compare.StatedOf(Rows(b, nil)), Conditions(b)
	limit := "no CPU limit"
	if p.CPUs > 0 {
		limit = fmt.Sprintf("%g CPU", p.CPUs)
	}
	line := "text-notime (the kit's line before lines had a time stamp)"
	if !p.Legacy() {
		line = p.Line
	}
	fmt.Fprintf(w, "per line, ns: the mean over runs of each run's median over its trials [95%% interval over runs]; headline = thread CPU time, wall time for fsync; %s, %s memory; line %s\n",
		limit, bytesSize(p.MemoryBytes), line)
	var langs []string
	for _, c := range conds {
		if !slices.Contains(langs, c.Language) {
			langs = append(langs, c.Language)
		}
	}
	for _, lang := range langs {
		fmt.Fprintf(w, "\n%s\n", lang)
		fmt.Fprintf(w, "%-9s %-11s %-15s %5s %-4s %9s %19s %9s %19s %9s %9s %9s %11s %9s %s\n",
			"library", "line", "way", "runs", "head", "per line", "95% interval", "cpu", "cpu 95% interval", fmt.Sprintf("core@%g/s", p.RateLinesPerS),
			"x cheap", "wall", "all threads", "thr.trl", "published")
		for _, c := range conds {
			if c.Language != lang {
				continue
			}
			lib, _ := LibraryOfRun(lang, c.Library)
			shape := c.Line
			if shape == "" {
				shape = lc.LineTextNoTime
			}
			if c.NotOffered != "" {
				fmt.Fprintf(w, "%-9s %-11s %-15s %s: %s\n", lib.ID, shape, c.Way, lc.NotOfferedMark, c.NotOffered)
				continue
			}
			pub := "-"
			if c.PublishedFigure != "" {
				pub = c.PublishedFigure
			}
			head, cpu := figures.Of(conditionName(c), "ns_per_line"), figures.Of(conditionName(c), "cpu_ns_per_line")
			fmt.Fprintf(w, "%-9s %-11s %-15s %2d/%-2d %-4s %9s %19s %9s %19s %9s %9s %9s %11s %9s %s\n",
				lib.ID, shape, c.Way, c.RunsVerified, c.Runs, c.Headline, figure.Text(head.Value), compare.IntervalCell(head),
				figure.Text(cpu.Value), compare.IntervalCell(cpu), pct(c.ShareOfCoreAtRate), ratio(c.RatioToCheapest),
				figure.Text(figures.Of(conditionName(c), "wall_ns_per_line").Value), figure.Text(float64(c.CgroupCPUNsPerLine)),
				fmt.Sprintf("%d/%d", c.ThrottledTrials, c.Trials), pub)
		}
	}
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
		if c.Library != "" {
			c.Language += "/" + c.Library
		}
		out = append(out, c)
	}
	return out
}

// Ns formats nanoseconds with a unit that keeps three figures.
func Ns[F ~float64](f F) string {
	v := float64(f)
	switch {
	case math.IsNaN(v):
		return "-"
	case v >= 1e6:
		return fmt.Sprintf("%.3g ms", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.3g us", v/1e3)
	}
	return fmt.Sprintf("%.3g ns", v)
}

func ratio[F ~float64](f F) string {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return fmt.Sprintf("%.3gx", v)
}

func pct[F ~float64](f F) string {
	v := float64(f)
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf("%.3g%%", v*100)
}

func bytesSize(n int64) string {
	if n == 0 {
		return "no"
	}
	return fmt.Sprintf("%d MiB", n>>20)
}
