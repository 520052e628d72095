package linecost

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	lc "github.com/logbench/logbench/kit/incontainer/linecost"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/figure"
)

// The bundle's files.
const (
	RunsFile       = "runs.csv"
	TrialsFile     = "trials.csv"
	ConditionsFile = "conditions.csv"
)

// DataFiles are the bundle's files but SHA256SUMS, in archive order.
var DataFiles = []string{bundle.ManifestFile, RunsFile, TrialsFile, ConditionsFile}

// Manifest is manifest.json: what every bundle says, and this experiment's parameters.
type Manifest struct {
	bundle.Common
	Parameters Params `json:"parameters"`
}

// Bundle is a line-cost bundle as a matrix fills it, or as verify reads it.
type Bundle struct {
	Manifest Manifest
	Runs     []RunRow
	Trials   []TrialRow
	// Conditions are derived by Files; in a verified bundle, as this kit states them: its
	// conditions.csv, or an earlier kit's derived again over runs (verify's note says so).
	Conditions []ConditionRow
}

var _ experiment.Bundle = (*Bundle)(nil)

func (b *Bundle) Common() *bundle.Common { return &b.Manifest.Common }

// Measured: the program wrote its document.
func (b *Bundle) Measured(run experiment.Run) bool {
	var doc contract.LineCostDocument
	return run.Pod.Result != nil && json.Unmarshal(run.Pod.Result, &doc) == nil && len(doc.Ways) > 0
}

// Add derives a run's rows from the program's document.
func (b *Bundle) Add(run experiment.Run) (string, bool) {
	p := b.Manifest.Parameters
	c := run.Condition.(Cond)
	r := RunRow{RunID: run.ID, Language: c.Language, Way: c.Way, Round: run.Round, Position: run.Position,
		StartedUTC: run.Started.UTC().Format(time.RFC3339Nano), WallS: run.Wall.Seconds(), Volume: b.Manifest.Parameters.Volume,
		Exits: exits(run.Pod.Exits)}
	if r.Volume == "" {
		r.Volume = "logbench-" + run.ID
	}
	if !p.Legacy() {
		r.LibraryID = c.Library
	}
	var doc *contract.LineCostDocument
	failure := run.Failure
	if run.Pod.Result != nil {
		doc = new(contract.LineCostDocument)
		if err := json.Unmarshal(run.Pod.Result, doc); err != nil {
			doc, failure = nil, experiment.JoinFailures(failure, "unreadable document: "+err.Error())
		}
	}
	r, trials := Derive(p, r, doc, failure)
	b.Runs = append(b.Runs, r)
	b.Trials = append(b.Trials, trials...)
	state := "verified"
	if !r.Verified {
		state = "FAILED: " + r.Failure
	}
	var cpu, wall []float64
	for _, t := range trials {
		cpu, wall = append(cpu, float64(t.CPUNsPerLine)), append(wall, float64(t.WallNsPerLine))
	}
	return fmt.Sprintf("%-30s cpu %s/line  wall %s/line  throttled %d/%d trials  %s",
		run.Condition.String(), Ns(Median(cpu)), Ns(Median(wall)), r.TrialsThrottle, len(trials), state), r.Verified
}

func exits(xs []contract.Exit) string {
	var parts []string
	for _, x := range xs {
		s := fmt.Sprintf("%s:%d", x.Role, x.ExitCode)
		if x.OOMKilled {
			s += ":oom"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func (b *Bundle) Has(cond experiment.Condition, round int) bool {
	for _, r := range b.Runs {
		lib, _ := LibraryOfRun(r.Language, r.LibraryID)
		if experiment.Key(Cond{r.Language, lib.ID, r.Way}, r.Round) == experiment.Key(cond, round) {
			return true
		}
	}
	return false
}

// Files are the bundle's files but SHA256SUMS, conditions.csv derived afresh, and
// datapackage.json describing them.
func (b *Bundle) Files() (map[string][]byte, error) {
	pub, err := LoadPublished()
	if err != nil {
		return nil, err
	}
	b.Conditions = Figures(b.Manifest.Parameters, b.Runs, b.Trials, pub)
	return bundle.Encode(b.Manifest, map[string]any{RunsFile: &b.Runs, TrialsFile: &b.Trials, ConditionsFile: &b.Conditions}, DataPackage())
}

// Summary is the table beside the published figures, the seed's orderings checked,
// and what each way costs a service at the plan's rate.
func (b *Bundle) Summary(w io.Writer) error {
	if b.Conditions == nil {
		if _, err := b.Files(); err != nil {
			return err
		}
	}
	WriteTable(w, b)
	fmt.Fprintln(w)
	for _, o := range Orderings(ByLibrary(b.Conditions)) {
		fmt.Fprintln(w, o)
	}
	if pub, err := LoadPublished(); err == nil {
		fmt.Fprintln(w)
		for _, r := range Ratios(ByLibrary(b.Conditions), pub) {
			fmt.Fprintln(w, r)
		}
	}
	if f := b.fsFacts(); f != "" {
		fmt.Fprintf(w, "\nlog files on %s\n", f)
	}
	fmt.Fprintf(w, "published: %s\n", Source)
	return nil
}

// fsFacts names the file system(s) the runs wrote to.
func (b *Bundle) fsFacts() string {
	var seen []string
	for _, r := range b.Runs {
		if r.FSType == "" {
			continue
		}
		s := fmt.Sprintf("%s (%s, %s; volume %s)", r.FSType, r.FSSource, r.MountOptions, volumeKind(b.Manifest.Parameters.Volume))
		if !contains(seen, s) {
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
	p, figures := b.Manifest.Parameters, statedOf(b)
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
	for _, c := range b.Conditions {
		if !contains(langs, c.Language) {
			langs = append(langs, c.Language)
		}
	}
	for _, lang := range langs {
		fmt.Fprintf(w, "\n%s\n", lang)
		fmt.Fprintf(w, "%-9s %-11s %-15s %5s %-4s %9s %19s %9s %19s %9s %9s %9s %11s %9s %s\n",
			"library", "line", "way", "runs", "head", "per line", "95% interval", "cpu", "cpu 95% interval", fmt.Sprintf("core@%g/s", p.RateLinesPerS),
			"x cheap", "wall", "all threads", "thr.trl", "published")
		for _, c := range b.Conditions {
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
			head, cpu := figures.of(c, "ns_per_line"), figures.of(c, "cpu_ns_per_line")
			fmt.Fprintf(w, "%-9s %-11s %-15s %2d/%-2d %-4s %9s %19s %9s %19s %9s %9s %9s %11s %9s %s\n",
				lib.ID, shape, c.Way, c.RunsVerified, c.Runs, c.Headline, figure.Text(head.Value), intervalText(head),
				figure.Text(cpu.Value), intervalText(cpu), pct(c.ShareOfCoreAtRate), ratio(c.RatioToCheapest),
				figure.Text(figures.of(c, "wall_ns_per_line").Value), figure.Text(float64(c.CgroupCPUNsPerLine)),
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
