package linecost

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	lc "github.com/logbench/logbench/kit/incontainer/linecost"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/verify"
)

// The recorded documents (testdata/go.json, testdata/python.json, testdata/node.json)
// are the three programs' own output, every way, 1,000 lines a trial, three trials
// after one warm-up, written on the kit's development VM: Go and Python outside a
// container, Node.js in the Node base image (its Node.js 18) with no limits.
var recordedParams = Params{Languages: Languages, Ways: lc.Ways, Rounds: 1, Lines: 1000, FsyncLines: 1000, Trials: 3, WarmupTrials: 1,
	QueueSize: lc.DefaultQueueSize, QueueFull: lc.Block, RateLinesPerS: 1000, CPUs: 0.25, MemoryBytes: 128 << 20, PidsLimit: 128}

func recorded(t *testing.T, lang string) []byte {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("testdata", lang+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// recordedBundle is a plan's bundle filled with a run of every condition from the
// recorded documents, edit applied to each document first.
func recordedBundle(t *testing.T, edit func(lang string, doc *contract.LineCostDocument)) *Bundle {
	t.Helper()
	return recordedRounds(t, 1, func(lang string, _ int, doc *contract.LineCostDocument) {
		if edit != nil {
			edit(lang, doc)
		}
	})
}

// recordedRounds is recordedBundle over rounds rounds, edit told each run's round.
func recordedRounds(t *testing.T, rounds int, edit func(lang string, round int, doc *contract.LineCostDocument)) *Bundle {
	t.Helper()
	params := recordedParams
	params.Rounds = rounds
	p, b := newPlan(t, params)
	if err := p.Target(experiment.Env{Platform: "linux/amd64"}); err != nil {
		t.Fatal(err)
	}
	b.M.Head().SchemaVersion, b.M.Head().Command = bundle.SchemaVersion, "reproduce"
	b.M.Head().RunsPlanned = len(experiment.Rotate(p.Conditions(), p.Rounds())) // as reproduce plans it
	// Times as the matrix keeps them: created before the first run, the runs one after
	// the other, the bundle saved after the last.
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	b.M.Head().CreatedUTC = at.Add(-time.Minute)
	for round := 1; round <= rounds; round++ {
		for i, cond := range p.Conditions() {
			var doc contract.LineCostDocument
			if err := json.Unmarshal(recorded(t, cond.(tabular.Cell)[0]), &doc); err != nil {
				t.Fatal(err)
			}
			edit(cond.(tabular.Cell)[0], round, &doc)
			result, _ := json.Marshal(doc)
			run := experiment.Run{ID: runID(params, cond, round), Condition: cond, Round: round, Position: i + 1, Started: at,
				Wall: 10 * time.Second, Pod: experiment.PodResult{Result: result, Exits: []contract.Exit{{Role: "linecost"}}}}
			if !b.Measured(run) {
				t.Fatalf("%s: not measured", cond)
			}
			at = at.Add(run.Wall + time.Second)
			_, verified := b.Add(run)
			b.M.Head().RunsCompleted++
			if verified {
				b.M.Head().RunsVerified++
			}
		}
	}
	b.M.Head().Complete = b.M.Head().RunsCompleted == b.M.Head().RunsPlanned
	b.M.Head().FinishedUTC = at
	return b
}

// newPlan is the plan of params, and its bundle.
func newPlan(t *testing.T, params Params) (experiment.Plan, *Bundle) {
	t.Helper()
	plan, err := Experiment.Plan(&params, params.Rounds)
	if err != nil {
		t.Fatal(err)
	}
	return plan, plan.Bundle().(*Bundle)
}

func planOf(t *testing.T, p Params) experiment.Plan {
	plan, _ := newPlan(t, p)
	return plan
}

// check verifies f, and is the bundle as verify read it (nil when it could not be).
func check(f *bundle.Files) (*verify.Result, *Bundle) {
	res := Experiment.Verify(f)
	b, _ := res.Own.(*Bundle)
	return res, b
}

// runID is a run's ID as the kit gives it; in a plan of a kit before the library axis,
// as that kit named its runs ("go-format-r1-…"), which is how its rows name them.
func runID(p Params, cond experiment.Condition, round int) string {
	if c := cond.(tabular.Cell); p.Legacy() {
		cond = tabular.Cell{c[0], "", c[2]}
	}
	return experiment.NewRunID(cond, round)
}

// saved writes b as a bundle folder and reads it back, as verify would.
func saved(t *testing.T, b *Bundle, edit func(files map[string][]byte)) *bundle.Files {
	t.Helper()
	files, err := b.Files()
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(files)
	}
	dir := filepath.Join(t.TempDir(), "bundle")
	if err := bundle.WriteFiles(dir, files); err != nil {
		t.Fatal(err)
	}
	f, err := bundle.ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestRecordedDocumentsGiveAVerifiedBundle(t *testing.T) {
	b := recordedBundle(t, nil)
	for _, r := range b.Runs {
		if !r.Verified {
			t.Errorf("run %s/%s: %s", r.Language, r.Way, r.Failure)
		}
		if r.FSType == "" || r.TimerThreadCPUNs <= 0 || r.LineFormat != lc.LineFormat {
			t.Errorf("run %s/%s: fs %q, timer %v, line %q", r.Language, r.Way, r.FSType, r.TimerThreadCPUNs, r.LineFormat)
		}
	}
	if len(b.Runs) != 21 || len(Trials(b)) != 21*3 {
		t.Fatalf("%d runs, %d trials", len(b.Runs), len(Trials(b)))
	}
	res := Experiment.Verify(saved(t, b, nil))
	if !res.OK() {
		t.Fatalf("%v", res.Problems)
	}
	if res.Counts.Runs != 21 || res.Counts.Verified != 21 || res.Counts.Conditions != 21 || res.Counts.Files != 5 {
		t.Fatalf("counts %+v", res.Counts)
	}
	// Every condition has its figures; the cheapest way of each language has ratio 1.
	for _, c := range Conditions(b) {
		// One run gives a figure and no interval.
		if c.Runs != 1 || c.RunsVerified != 1 || c.Trials != 3 || !(c.NsPerLine > 0) ||
			c.NsPerLineLow.Present() || c.CPUNsPerLineHigh.Present() || !(c.RatioToCheapest >= 1) {
			t.Errorf("%+v", c)
		}
		if want := bundle.Opt(c.RateLinesPerS) * c.CPUNsPerLine / 1e9; c.ShareOfCoreAtRate != want {
			t.Errorf("%s/%s: share %v, want %v", c.Language, c.Way, c.ShareOfCoreAtRate, want)
		}
		if (c.Way == lc.Fsync) != (c.Headline == HeadlineWall) {
			t.Errorf("%s/%s: headline %s", c.Language, c.Way, c.Headline)
		}
		if c.Headline == HeadlineWall && c.NsPerLine != c.WallNsPerLine || c.Headline == HeadlineCPU && c.NsPerLine != c.CPUNsPerLine {
			t.Errorf("%s/%s: headline %v is neither clock's figure", c.Language, c.Way, c.NsPerLine)
		}
	}
	var buf bytes.Buffer
	if err := b.Summary(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"fsync >> unbuffered", "The seed's ratios.", "6.6x", "515.903 us (time_per_line)", "ext4", "\nnode ", "one run", "(one run: no interval)"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, buf.String())
		}
	}
}

// TestVerifyFindsEveryEdit: an edit of a figure or a digest is found even when
// SHA256SUMS is recomputed over it.
func TestVerifyFindsEveryEdit(t *testing.T) {
	b := recordedBundle(t, nil)
	replaceCell := func(files map[string][]byte, name, column string, row int, value string) {
		records, err := csv.NewReader(bytes.NewReader(files[name])).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		col := slices.Index(records[0], column)
		if col < 0 {
			t.Fatalf("%s has no column %s", name, column)
		}
		records[row][col] = value
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		w.WriteAll(records)
		files[name] = buf.Bytes()
	}
	for _, tc := range []struct {
		name string
		edit func(map[string][]byte)
		want string
	}{
		{"a figure", func(f map[string][]byte) { replaceCell(f, ConditionsFile, "ns_per_line", 1, "1") }, "conditions.csv line 2 (conditions go/format): ns_per_line"},
		{"an interval", func(f map[string][]byte) { replaceCell(f, ConditionsFile, "ns_per_line_ci_high", 3, "1e9") }, "ns_per_line_ci_high"},
		{"a file's digest", func(f map[string][]byte) {
			replaceCell(f, TrialsFile, "file_sha256", 13, strings.Repeat("0", 64))
		}, "trials.csv line 14"},
		{"a trial's clock", func(f map[string][]byte) { replaceCell(f, TrialsFile, "thread_cpu_ns", 2, "1") }, "cpu_ns_per_line"},
		{"a run's verdict", func(f map[string][]byte) { replaceCell(f, RunsFile, "failure", 2, "oops") }, "runs.csv line 3"},
		{"the manifest's count", func(f map[string][]byte) {
			f[bundle.ManifestFile] = bytes.Replace(f[bundle.ManifestFile], []byte(`"runs_verified": 21`), []byte(`"runs_verified": 20`), 1)
		}, "runs_verified"},
		{"an extra file", func(f map[string][]byte) { f["notes.txt"] = []byte("x") }, "notes.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Experiment.Verify(saved(t, b, tc.edit))
			if res.OK() {
				t.Fatal("verified")
			}
			var all []string
			for _, p := range res.Problems {
				all = append(all, p.String())
			}
			if !strings.Contains(strings.Join(all, "\n"), tc.want) {
				t.Fatalf("want a problem with %q, have:\n%s", tc.want, strings.Join(all, "\n"))
			}
		})
	}
}

// TestEachWayIsCheckedForWhatItDoes: a trial whose way did not do what it says, or
// whose file is not what was generated, is not verified, and its run is not data.
func TestEachWayIsCheckedForWhatItDoes(t *testing.T) {
	for _, tc := range []struct {
		way  string
		edit func(tr *contract.LineCostTrial)
		want string
	}{
		{lc.DisabledLazy, func(tr *contract.LineCostTrial) { tr.ArgsBuilt = 7 }, "lazy arguments built 7 times"},
		{lc.DisabledEager, func(tr *contract.LineCostTrial) { tr.ArgsBuilt = 0 }, "eager arguments built 0 times"},
		{lc.Unbuffered, func(tr *contract.LineCostTrial) { tr.WriteCalls = 17 }, "not one write a line"},
		{lc.Fsync, func(tr *contract.LineCostTrial) { tr.FsyncCalls = 0 }, "0 fsync calls for 1000 lines"},
		{lc.Buffered, func(tr *contract.LineCostTrial) { tr.WriteCalls = 1000 }, "the buffer does not gather lines"},
		{lc.Queue, func(tr *contract.LineCostTrial) { tr.ThreadWriteSyscalls = 1000 }, "the queue did not take the write off it"},
		{lc.Unbuffered, func(tr *contract.LineCostTrial) { tr.File.Lines--; tr.File.Bytes -= 68 }, "the file holds 999 lines"},
		{lc.Buffered, func(tr *contract.LineCostTrial) { tr.File.SHA256 = strings.Repeat("a", 64) }, "sha256 aaaaaaaaaaaa"},
		{lc.Format, func(tr *contract.LineCostTrial) { tr.Generated = lc.Expected(999) }, "generated 999 lines"},
		{lc.Queue, func(tr *contract.LineCostTrial) { tr.CgroupError = "no cgroup" }, "no cgroup reading"},
	} {
		t.Run(tc.way+" "+tc.want, func(t *testing.T) {
			b := recordedBundle(t, func(lang string, doc *contract.LineCostDocument) {
				for i := range doc.Ways {
					if doc.Ways[i].Way == tc.way && lang == Go {
						tc.edit(&doc.Ways[i].Trials[1])
					}
				}
			})
			for _, r := range b.Runs {
				bad := r.Language == Go && r.Way == tc.way
				if r.Verified == bad {
					t.Errorf("%s/%s verified %v: %s", r.Language, r.Way, r.Verified, r.Failure)
				}
				if bad && r.Failure != "1 of 3 trials not verified" {
					t.Errorf("run failure %q", r.Failure)
				}
			}
			for _, tr := range Trials(b) {
				if tr.Language == Go && tr.Way == tc.way && tr.Trial == 1 {
					if tr.Verified || !strings.Contains(tr.Failure, tc.want) {
						t.Errorf("trial: verified %v, failure %q, want %q", tr.Verified, tr.Failure, tc.want)
					}
				}
			}
			files, _ := b.Files()
			for _, c := range Conditions(b) {
				if c.Language == Go && c.Way == tc.way && (c.RunsVerified != 0 || c.Trials != 0 || c.NsPerLine.Present()) {
					t.Errorf("a condition without a verified run has figures: %+v", c)
				}
			}
			// The failed run stays in the bundle, and the bundle still verifies.
			if res := (Experiment).Verify(saved(t, b, nil)); !res.OK() || len(files) != 5 {
				t.Errorf("%v", res.Problems)
			}
		})
	}
}

func TestDroppedLinesAreAccountedFor(t *testing.T) {
	tr := TrialRow{RunKey: RunKey{Way: lc.Queue}, Lines: 1000, ThreadCPUNs: 1, WallNs: 1, ArgsBuilt: 1000, FileName: "q.log", LinesDropped: 10,
		FileLines: 990, WrittenBytes: 5, FileBytes: 5, WriteCalls: 990, ThreadWriteSysc: -1}
	g := ExpectedOf(lc.LineFormat, 1000)
	tr.GeneratedLines, tr.GeneratedBytes, tr.GeneratedSHA256 = g.Lines, g.Bytes, g.SHA256
	if tr = CheckTrial(tr); !tr.Verified {
		t.Fatal(tr.Failure)
	}
	tr.FileLines = 900
	if tr = CheckTrial(tr); tr.Verified || !strings.Contains(tr.Failure, "900 lines in the file and 10 dropped, of 1000") {
		t.Fatal(tr.Failure)
	}
}

func TestThrottledTrialsAreFlaggedAndCounted(t *testing.T) {
	b := recordedBundle(t, func(lang string, doc *contract.LineCostDocument) {
		for i := range doc.Ways {
			for j := range doc.Ways[i].Trials {
				tr := &doc.Ways[i].Trials[j]
				tr.CgroupAfter.CPUThrottled = tr.CgroupBefore.CPUThrottled + int64(j) // trial 0 is not throttled
			}
		}
	})
	b.Files()
	for _, c := range Conditions(b) {
		if c.ThrottledTrials != 2 || c.ThrottledPeriods != 3 || c.Trials != 3 {
			t.Errorf("%s/%s: %d throttled trials, %d periods", c.Language, c.Way, c.ThrottledTrials, c.ThrottledPeriods)
		}
	}
	for _, tr := range Trials(b) {
		if tr.Throttled != (tr.Trial > 0) || !tr.Verified {
			t.Errorf("trial %d throttled %v verified %v", tr.Trial, tr.Throttled, tr.Verified)
		}
	}
}

// slowerSecondRound makes the second round's runs 20% slower, so that runs differ.
func slowerSecondRound(_ string, round int, doc *contract.LineCostDocument) {
	for i := range doc.Ways {
		for j := range doc.Ways[i].Trials {
			tr := &doc.Ways[i].Trials[j]
			tr.ThreadCPUNanos, tr.WallNanos = tr.ThreadCPUNanos*int64(4+round)/5, tr.WallNanos*int64(4+round)/5
		}
	}
}

// TestFiguresAreStatedOverRuns: conditions.csv's figures and intervals are the
// estimates compare states of the bundle's rows (each run's median, then the mean over
// runs with its t interval), and the summary shows those intervals.
func TestFiguresAreStatedOverRuns(t *testing.T) {
	b := recordedRounds(t, 2, slowerSecondRound)
	if res := (Experiment).Verify(saved(t, b, nil)); !res.OK() {
		t.Fatalf("%v", res.Problems)
	}
	var summary strings.Builder
	if err := b.Summary(&summary); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, r := range Rows(b, nil) {
		name := r.Condition[0].Value + "/" + r.Condition[1].Value + "/" + r.Condition[2].Value
		c := Conditions(b)[slices.IndexFunc(Conditions(b), func(c ConditionRow) bool { return conditionName(c) == name })]
		columns := map[string][3]bundle.Opt{"ns_per_line": {c.NsPerLine, c.NsPerLineLow, c.NsPerLineHigh}, "cpu_ns_per_line": {c.CPUNsPerLine, c.CPUNsPerLineLow, c.CPUNsPerLineHigh}}
		have, ok := columns[r.Metric]
		if !ok {
			continue
		}
		e := compare.Estimate(r)
		if e.Runs != 2 || !e.HasInterval() || float64(have[0]) != e.Value || float64(have[1]) != e.Low || float64(have[2]) != e.High {
			t.Errorf("%s %s: conditions.csv %v, compare %+v", conditionName(c), r.Metric, have, e)
		}
		if !strings.Contains(summary.String(), e.IntervalText()) {
			t.Errorf("%s %s: the summary lacks %s", conditionName(c), r.Metric, e.IntervalText())
		}
		checked++
	}
	if checked != 2*21 || strings.Contains(summary.String(), "one run") {
		t.Fatalf("%d figures checked\n%s", checked, summary.String())
	}
}

// TestAnEarlierKitsBootstrapStillVerifies: a bundle whose manifest has
// bootstrap_resamples verifies by that kit's rule (medians of the pooled trials, a
// bootstrap interval), says so, and is stated over runs; this kit writes no bootstrap.
func TestAnEarlierKitsBootstrapStillVerifies(t *testing.T) {
	b := recordedRounds(t, 2, slowerSecondRound)
	files, err := b.Files()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(files[bundle.ManifestFile], []byte("bootstrap_resamples")) {
		t.Fatalf("this kit writes bootstrap_resamples:\n%s", files[bundle.ManifestFile])
	}
	overRuns := fmt.Sprint(Conditions(b))
	b.Params().Resamples = 500
	res := Experiment.Verify(saved(t, b, nil))
	if !res.OK() {
		t.Fatalf("%v", res.Problems)
	}
	if fmt.Sprint(Figures(*b.Params(), b.Runs, Trials(b), mustPublished())) == overRuns {
		t.Fatal("the earlier kit's rule gives the figures over runs")
	}
	if got, _ := res.Own.(*Bundle); fmt.Sprint(Conditions(got)) != overRuns {
		t.Errorf("an earlier kit's bundle is stated as\n%v\nnot over runs:\n%v", Conditions(got), overRuns)
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0].String(), "an earlier kit's figures per line (bootstrap_resamples 500)") {
		t.Errorf("notes %v", res.Notes)
	}
}

func TestOrderings(t *testing.T) {
	row := func(way string, ns bundle.Opt) ConditionRow {
		return ConditionRow{Language: Go, Way: way, Headline: HeadlineOf(way), NsPerLine: ns, NsPerLineLow: ns * 0.9, NsPerLineHigh: ns * 1.1, CgroupCPUNsPerLine: ns}
	}
	conds := []ConditionRow{row(lc.Format, 1000), row(lc.DisabledEager, 400), row(lc.DisabledLazy, 30), row(lc.Buffered, 1200),
		row(lc.Unbuffered, 3000), row(lc.Fsync, 200000), row(lc.Queue, 1300)}
	got := map[string]Ordering{}
	for _, o := range Orderings(conds) {
		got[o.Claim] = o
	}
	want := map[string]bool{"unbuffered > buffered": true, "buffered > format": true, "the queue moves the cost off the caller": true,
		"eager disabled DEBUG costs most of a written line (> 50%)": false, "fsync >> unbuffered (more than 10x)": true}
	for claim, holds := range want {
		o, ok := got[claim]
		if !ok || !o.Measured || o.Holds != holds {
			t.Errorf("%s: %+v, want holds %v", claim, o, holds)
		}
	}
	if o := got["buffered > format"]; o.Clear {
		t.Errorf("intervals [1080, 1320] and [900, 1100] overlap: %+v", o)
	}
	if !strings.Contains(got["eager disabled DEBUG costs most of a written line (> 50%)"].State(), "DOES NOT HOLD") {
		t.Error(got["eager disabled DEBUG costs most of a written line (> 50%)"].State())
	}
}

// parse runs the experiment's flags as reproduce would.
func parse(t *testing.T, args ...string) (Params, error) {
	t.Helper()
	reps := 3
	if len(args) >= 2 && args[0] == "--reps" {
		reps, _ = strconv.Atoi(args[1])
		args = args[2:]
	}
	p := DefaultParams()
	if err := experiment.FlagSet(Name, p).Parse(args); err != nil {
		t.Fatal(err)
	}
	s := p.settled()
	s.Rounds = reps
	return s, cmp.Or(experiment.CheckRounds(reps), s.Check())
}

func TestFlags(t *testing.T) {
	p, err := parse(t)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Languages, []string{Go, Python, Node}) || !slices.Equal(p.Ways, lc.Ways) || p.Lines != DefaultLines || p.FsyncLines != 1000 ||
		p.CPUs != 0.25 || p.MemoryBytes != 128<<20 || p.RateLinesPerS != 1000 || p.WarmupTrials != 1 || p.Rounds != 3 {
		t.Fatalf("defaults %+v", p)
	}
	if p, err = parse(t, "--cpus", "0", "--line-rate", "50000", "--ways", "fsync,queue", "--languages", "node,python"); err != nil || !slices.Equal(p.Languages, []string{Node, Python}) || p.CPUs != 0 || p.RateLinesPerS != 50000 {
		t.Fatalf("%+v %v", p, err)
	}
	for _, tc := range [][]string{
		{"--ways", "format,shout"}, {"--languages", "rust"}, {"--languages", ","}, {"--lines", "999"}, {"--fsync-lines", "10"},
		{"--trials", "1"}, {"--cpus", "0.001"}, {"--memory", "1MiB"}, {"--queue-full", "wait"}, {"--line-rate", "0"}, {"--volume", "a/b"},
	} {
		_, err := parse(t, tc...)
		var u experiment.UsageError
		if !errors.As(err, &u) || strings.Contains(u.Msg, "\n") {
			t.Errorf("%v: %v, want one line of usage error", tc, err)
		}
	}
}

func TestTargetRefusesAMissingVolume(t *testing.T) {
	p := recordedParams
	p.Volume = "fastdisk"
	asked := ""
	err := planOf(t, p).Target(experiment.Env{VolumeExists: func(name string) (bool, error) { asked = name; return false, nil }})
	var u experiment.UsageError
	if !errors.As(err, &u) || asked != "fastdisk" || !strings.Contains(u.Msg, "no such volume") {
		t.Fatalf("%v (asked %q)", err, asked)
	}
	if err := planOf(t, p).Target(experiment.Env{VolumeExists: func(string) (bool, error) { return true, nil }}); err != nil {
		t.Fatal(err)
	}
}

func TestPod(t *testing.T) {
	p := recordedParams
	p.CPUs, p.Volume = 0, "fastdisk"
	plan, _ := newPlan(t, p)
	spec := plan.Pod(tabular.Cell{Python, "logging", lc.Fsync}, "python-fsync-r1-abc", map[string]string{"api-python": "sha256:py", "api": "sha256:go"})
	if len(spec.Containers) != 1 || spec.Conductor != "linecost" || spec.Volume != "fastdisk" || spec.MountPath != contract.RunDir {
		t.Fatalf("%+v", spec)
	}
	c := spec.Containers[0]
	if c.Image != "sha256:py" || !slices.Equal(c.Entrypoint, []string{"/usr/bin/python3", "/app/logbench_linecost.py"}) || c.NanoCPUs != 0 || c.MemoryBytes != 128<<20 {
		t.Fatalf("%+v", c)
	}
	// The container's command is the program's own flags (cmd/incontainer/linecost).
	fs := flag.NewFlagSet("linecost", flag.ContinueOnError)
	ways, lines, out := fs.String("ways", "", ""), fs.Int64("lines", 0, ""), fs.String("out", "", "")
	library, line := fs.String("library", "", ""), fs.String("line", "", "")
	fs.Int("trials", 0, "")
	fs.Int("warmup", 0, "")
	fs.String("dir", "", "")
	fs.Int("queue-size", 0, "")
	fs.String("queue-full", "", "")
	if err := fs.Parse(c.Cmd); err != nil {
		t.Fatal(err)
	}
	if *ways != lc.Fsync || *lines != 1000 || *library != "logging" || *line != lc.LineTextNoTime || *out != spec.ResultPath || !strings.Contains(spec.ResultPath, "python-fsync-r1-abc") {
		t.Fatalf("%v -> %s", c.Cmd, spec.ResultPath)
	}
	node := plan.Pod(tabular.Cell{Node, "util", lc.Queue}, "x", map[string]string{"api-node": "sha256:node", "api": "sha256:go"}).Containers[0]
	if node.Image != "sha256:node" || !slices.Equal(node.Entrypoint, []string{"/usr/bin/node", "/app/logbench_linecost.js"}) {
		t.Fatalf("%+v", node)
	}
	if !slices.Equal(plan.Images(), []string{"api", "api-python", "api-node"}) {
		t.Fatalf("images %v", plan.Images())
	}
	if go1 := plan.Pod(tabular.Cell{Go, "slog", lc.Format}, "x", map[string]string{"api": "sha256:go"}).Containers[0]; go1.Entrypoint[0] != "/linecost" || go1.Image != "sha256:go" {
		t.Fatalf("%+v", go1)
	}
}

func TestCompareAndReport(t *testing.T) {
	b := recordedBundle(t, nil)
	files := saved(t, b, nil)
	res := Experiment.Verify(files)
	var out, warn bytes.Buffer
	err := Experiment.Compare(&out, &warn, []experiment.Source{{Label: "a", Result: res}, {Label: "b", Result: res}},
		experiment.CompareOptions{Published: true, Format: "text"})
	if err != nil {
		t.Fatal(err)
	}
	// One row of fsync: the published figure, a and b side by side.
	if n := strings.Count(out.String(), "\ngo/slog/fsync "); n != 1 || !strings.Contains(out.String(), "published  a") {
		t.Fatalf("%d fsync rows:\n%s", n, out.String())
	}
	var page bytes.Buffer
	if err := (Experiment).Report(&page, []experiment.Source{{Label: res.Name, Result: res}}, "test"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg", "Verified", "fsync &gt;&gt; unbuffered", "published"} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(page.String(), "<script") || strings.Contains(page.String(), "http://") && !strings.Contains(page.String(), "http://www.w3.org") {
		t.Error("the report is not self-contained")
	}
}

// TestNodesQueueCannotBeJudged: Node's CPU clock is the whole process's, so whether its
// queue moves the cost off the caller is said to be beyond its clocks, not to fail.
func TestNodesQueueCannotBeJudged(t *testing.T) {
	conds := []ConditionRow{
		{Language: Node, Way: "unbuffered", NsPerLine: 3280, NsPerLineLow: 2390, NsPerLineHigh: 3530},
		{Language: Node, Way: "queue", NsPerLine: 3740, NsPerLineLow: 3440, NsPerLineHigh: 3990},
		{Language: Go, Way: "unbuffered", NsPerLine: 2630, NsPerLineLow: 2300, NsPerLineHigh: 2900},
		{Language: Go, Way: "queue", NsPerLine: 1650, NsPerLineLow: 1350, NsPerLineHigh: 1710},
	}
	var node, goQueue Ordering
	for _, o := range Orderings(conds) {
		if strings.HasPrefix(o.Claim, "the queue") {
			if o.Language == Node {
				node = o
			} else {
				goQueue = o
			}
		}
	}
	if !node.Unjudged || !strings.Contains(node.State(), "cannot be judged") {
		t.Errorf("node: %+v", node)
	}
	if goQueue.Unjudged || !goQueue.Holds {
		t.Errorf("go: %+v", goQueue)
	}
}
