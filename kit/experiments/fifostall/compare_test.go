package fifostall_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/logbench/logbench/kit/experiments/fifostall"
	"github.com/logbench/logbench/results/reference"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/logbench/logbench/internal/comparetest"
	"github.com/logbench/logbench/internal/fifostalltest"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/verify"
)

type labeled struct {
	label  string
	bundle *fifostalltest.Bundle
}

// twoHosts are a "pi5" and a "laptop" whose latencies are 1.6 times the pi5's, with
// another API binary, another duration and one failed run.
func twoHosts() []labeled {
	pi5 := fifostalltest.New(fifostalltest.Options{Seed: 1, Host: "pi5", Arch: "aarch64", CPUs: 4})
	laptop := fifostalltest.New(fifostalltest.Options{Seed: 2, Host: "laptop", CPUs: 8, Scale: 1.6, FailRun: 3,
		BinarySHA256: "1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdef"})
	return []labeled{{"pi5", pi5}, {"laptop", laptop}}
}

type comparison struct {
	res   compare.Result
	notes compare.Notes
}

func (c comparison) write(t *testing.T, format string, wide bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := c.res.Render(&buf, format, c.notes, wide, 0); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// compareSome compares the bundles as compare does: each saved and verified, then set
// side by side as the kit does for fifo-stall (fifostall.Tabular).
func compareSome(sources []labeled, published bool, opt compare.Options) (comparison, error) {
	var ss []experiment.Source
	for _, s := range sources {
		res, err := savedAndVerified(s.bundle)
		if err != nil {
			return comparison{}, err
		}
		ss = append(ss, experiment.Source{Label: s.label, Result: res})
	}
	in, err := experiment.ComparisonInput(ss, published, fifostall.Tabular.Comparison(ss))
	if err != nil {
		return comparison{}, err
	}
	res, notes, err := compare.Run(in, opt)
	return comparison{res, notes}, err
}

func compared(t *testing.T, sources []labeled, published bool, opt compare.Options) comparison {
	t.Helper()
	c, err := compareSome(sources, published, opt)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCompareBundletestGolden(t *testing.T) {
	c := compared(t, twoHosts(), false, compare.Options{})
	for _, format := range compare.Formats {
		ext := map[string]string{"text": "txt", "csv": "csv", "json": "json", "markdown": "md"}[format]
		comparetest.Golden(t, "bundles."+ext, c.write(t, format, false))
	}
	comparetest.Golden(t, "bundles.wide.txt", c.write(t, "text", true))
	comparetest.Golden(t, "bundles.warnings.txt", []byte(strings.Join(c.notes.Warnings, "\n")+"\n"))
}

func TestCompareTextFitsInItsWidth(t *testing.T) {
	three := append(twoHosts(), labeled{"third-host-with-a-long-name", fifostalltest.New(fifostalltest.Options{Seed: 3, Scale: 1.2})})
	for _, match := range [][]string{nil, {"mode"}, {"mode", "reader"}} {
		c := compared(t, three, false, compare.Options{Match: match})
		text := string(c.write(t, "text", false))
		for i, line := range strings.Split(text, "\n") {
			if n := utf8.RuneCountInString(line); n > compare.DefaultWidth {
				t.Errorf("--match %v: line %d is %d columns wide:\n%s", match, i+1, n, line)
			}
		}
		if !strings.Contains(text, "to fit; --wide shows them") {
			t.Errorf("--match %v: nothing says what was left out to fit", match)
		}
	}
}

func TestComparePublishedGolden(t *testing.T) {
	c := compared(t, twoHosts()[:1], true, compare.Options{})
	buf := c.write(t, "text", false)
	buf = append(buf, []byte("\n"+strings.Join(c.notes.Warnings, "\n")+"\n")...)
	comparetest.Golden(t, "published.txt", buf)
	// The article's rows are under the API it measured, matched by mode and reader.
	for _, r := range c.res.Records() {
		if r.Source == compare.PublishedLabel && r.Condition["api"] != reference.MustSetup(fifostall.Name).API {
			t.Fatalf("a published row under api=%s: %+v", r.Condition["api"], r)
		}
	}
	if got := strings.Join(c.res.Match, ","); got != "mode,reader" {
		t.Errorf("matched by %s", got)
	}
}

func TestCompareTheSameBundlesGiveTheSameTable(t *testing.T) {
	a, b := compared(t, twoHosts(), false, compare.Options{}), compared(t, twoHosts(), false, compare.Options{})
	if diff := cmp.Diff(a.res, b.res, cmpopts.EquateNaNs()); diff != "" {
		t.Fatalf("not deterministic:\n%s", diff)
	}
}

// TestCompareArgumentOrderDoesNotChangeIntervals compares a, b and b, a: every
// source's value and interval of every condition is the same either way.
func TestCompareArgumentOrderDoesNotChangeIntervals(t *testing.T) {
	hosts := twoHosts()
	ab := compared(t, hosts, false, compare.Options{}).res.Records()
	ba := compared(t, []labeled{hosts[1], hosts[0]}, false, compare.Options{}).res.Records()
	type key struct{ metric, source, cond string }
	type iv struct{ value, low, high *float64 }
	index := func(rows []compare.JSONRow) map[key]iv {
		m := map[key]iv{}
		for _, r := range rows {
			m[key{r.Metric, r.Source, r.Condition["api"] + "/" + r.Condition["mode"] + "/" + r.Condition["reader"]}] = iv{r.Value, r.Low, r.High}
		}
		return m
	}
	x, y := index(ab), index(ba)
	if len(x) == 0 || len(x) != len(y) {
		t.Fatalf("%d rows against %d", len(x), len(y))
	}
	checked := 0
	for k, v := range x {
		w := y[k]
		if v.low == nil {
			continue
		}
		if *v.value != *w.value || *v.low != *w.low || *v.high != *w.high {
			t.Errorf("%v: [%v, %v] first, [%v, %v] second", k, *v.low, *v.high, *w.low, *w.high)
		}
		checked++
	}
	if checked < 40 {
		t.Fatalf("only %d intervals compared", checked)
	}
	// The change is the mirror image: b against a is the inverse ratio.
	for _, r := range ab {
		if r.Ratio == nil {
			continue
		}
		for _, s := range ba {
			if s.Ratio != nil && s.Metric == r.Metric && s.Source != r.Source && s.Condition["mode"] == r.Condition["mode"] && s.Condition["reader"] == r.Condition["reader"] {
				if d := *r.Ratio * *s.Ratio; math.Abs(d-1) > 1e-9 {
					t.Errorf("%s %v: ratio %v one way, %v the other", r.Metric, r.Condition, *r.Ratio, *s.Ratio)
				}
			}
		}
	}
}

func TestCompareWarningsNameEachDifference(t *testing.T) {
	w := strings.Join(compared(t, twoHosts(), false, compare.Options{}).notes.Warnings, "\n")
	for _, want := range []string{
		"WARNING: laptop: 1 of 12 runs failed",
		"WARNING: bundles differ in images.api.binary_sha256: pi5 \"e5fb9560e9b5\", laptop \"1234567890ab\"",
	} {
		if !strings.Contains(w, want) {
			t.Errorf("no warning %q in:\n%s", want, w)
		}
	}
	// Limits are parameters too.
	pi5 := fifostalltest.New(fifostalltest.Options{Seed: 1, Rounds: 1})
	tight := fifostalltest.New(fifostalltest.Options{Seed: 1, Rounds: 1})
	tight.Manifest.Parameters.Limits.APICPUs = 0.5
	w = strings.Join(compared(t, []labeled{{"a", pi5}, {"b", tight}}, false, compare.Options{}).notes.Warnings, "\n")
	if w != "WARNING: bundles differ in parameters.limits.api_cpus: a 0.25, b 0.5" {
		t.Errorf("warnings:\n%s", w)
	}
}

func TestCompareSignificanceRespectsRuns(t *testing.T) {
	opt := func(seed uint64, scale float64) fifostalltest.Options {
		return fifostalltest.Options{Seed: seed, Modes: []string{"short1"}, Readers: []string{"fast"}, Rounds: 3, Scale: scale}
	}
	same1, same2, slower := fifostalltest.New(opt(1, 1)), fifostalltest.New(opt(2, 1)), fifostalltest.New(opt(3, 3))
	c := compared(t, []labeled{{"a", same1}, {"b", same2}, {"c", slower}}, false, compare.Options{})
	var p50 []compare.JSONRow
	for _, r := range c.res.Records() {
		if r.Metric == "p50_ms" {
			p50 = append(p50, r)
		}
	}
	if len(p50) != 3 || p50[0].Changed != nil || p50[0].Ratio != nil {
		t.Fatalf("the baseline has a test or a ratio: %+v", p50)
	}
	if *p50[1].Changed || !*p50[2].Changed {
		t.Fatalf("b %v (p %v), c %v (p %v): want b within noise, c beyond", *p50[1].Changed, *p50[1].P, *p50[2].Changed, *p50[2].P)
	}
}

func TestCompareMatchSetsOneAPIAgainstAnother(t *testing.T) {
	goB := fifostalltest.New(fifostalltest.Options{Seed: 1, Rounds: 1})
	py := fifostalltest.New(fifostalltest.Options{Seed: 2, Rounds: 1})
	for i := range py.Runs {
		py.Runs[i].Run.API = "python"
	}
	py.Manifest.Parameters.APIs = []string{"python"}
	// By every key, nothing matches: each condition has one side only.
	all := compared(t, []labeled{{"go", goB}, {"py", py}}, false, compare.Options{Match: []string{"api", "mode", "reader"}})
	for _, r := range all.res.Records() {
		if r.Ratio != nil {
			t.Fatalf("matched across APIs by api: %+v", r)
		}
	}
	// By mode and reader (the default, as each bundle has one API), every condition pairs up.
	for _, m := range [][]string{{"mode", "reader"}, nil} {
		c := compared(t, []labeled{{"go", goB}, {"py", py}}, false, compare.Options{Match: m})
		paired := 0
		for _, r := range c.res.Records() {
			if r.Metric == "p99_ms" && r.Ratio != nil {
				paired++
			}
		}
		if paired != 6 {
			t.Errorf("--match %v: %d conditions paired, want 6", m, paired)
		}
	}
	if _, err := compareSome([]labeled{{"go", goB}}, false, compare.Options{Match: []string{"colour"}}); err == nil {
		t.Error("no error for a key no condition has")
	}
}

// One run a side: no p-value, nothing counted as changed, however far apart. The p99 of
// the pooled requests has no runs at all, and no test either.
func TestCompareOneRunASideClaimsNoChange(t *testing.T) {
	a := fifostalltest.New(fifostalltest.Options{Seed: 1, Rounds: 1, Modes: []string{"short1"}})
	b := fifostalltest.New(fifostalltest.Options{Seed: 2, Rounds: 1, Modes: []string{"short1"}, Scale: 3})
	c := compared(t, []labeled{{"a", a}, {"b", b}}, false, compare.Options{})
	for _, r := range c.res.Records() {
		if r.Baseline || !r.Present {
			continue
		}
		want := compare.TestTooFewRuns
		if r.Metric == fifostall.MetricP99Pooled {
			want = compare.TestNone
		}
		if r.Changed != nil || r.P != nil || r.Test != want {
			t.Fatalf("%s %v: changed %v, p %v, test %q", r.Metric, r.Condition, r.Changed, r.P, r.Test)
		}
	}
	text := string(c.write(t, "text", false))
	if !strings.Contains(text, "(too few runs)") || strings.Contains(text, "conditions changed") {
		t.Fatalf("text:\n%s", text)
	}
}

// savedAndVerified is b saved and verified, as compare reads a bundle.
func savedAndVerified(b *fifostalltest.Bundle) (*verify.Result, error) {
	dir, err := os.MkdirTemp("", "fifo-compare")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := fifostalltest.Save(b, filepath.Join(dir, "bundle")); err != nil {
		return nil, err
	}
	files, err := bundle.ReadFolder(filepath.Join(dir, "bundle"))
	if err != nil {
		return nil, err
	}
	return fifostall.Experiment.Verify(files), nil
}
