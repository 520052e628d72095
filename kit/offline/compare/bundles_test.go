package compare

import (
	"bytes"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/logbench/logbench/kit/contract/stats"
	"github.com/logbench/logbench/kit/offline/bundle/bundletest"
	"github.com/logbench/logbench/results/reference"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares have with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, have []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, have, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if diff := cmp.Diff(string(want), string(have)); diff != "" {
		t.Errorf("%s (-want +have); go test -update rewrites it if the change is right:\n%s", path, diff)
	}
}

// twoHosts are a "pi5" and a "laptop" whose latencies are 1.6 times the pi5's, with
// another API binary, another duration and one failed run.
func twoHosts() []Labeled {
	pi5 := bundletest.New(bundletest.Options{Seed: 1, Host: "pi5", Arch: "aarch64", CPUs: 4})
	laptop := bundletest.New(bundletest.Options{Seed: 2, Host: "laptop", CPUs: 8, Scale: 1.6, FailRun: 3,
		BinarySHA256: "1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdef"})
	return []Labeled{{"pi5", pi5}, {"laptop", laptop}}
}

func compared(t *testing.T, sources []Labeled, opt BundleOptions) Comparison {
	t.Helper()
	c, err := Bundles(sources, opt)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestBundlesGolden(t *testing.T) {
	cmp2 := compared(t, twoHosts(), BundleOptions{})
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			if err := cmp2.Write(&buf, format, false); err != nil {
				t.Fatal(err)
			}
			ext := map[string]string{"text": "txt", "csv": "csv", "json": "json", "markdown": "md"}[format]
			golden(t, "bundles."+ext, buf.Bytes())
		})
	}
	var wide bytes.Buffer
	if err := cmp2.Write(&wide, "text", true); err != nil {
		t.Fatal(err)
	}
	golden(t, "bundles.wide.txt", wide.Bytes())
	golden(t, "bundles.warnings.txt", []byte(strings.Join(cmp2.Notes.Warnings, "\n")+"\n"))
}

func TestTextFitsInItsWidth(t *testing.T) {
	three := append(twoHosts(), Labeled{"third-host-with-a-long-name", bundletest.New(bundletest.Options{Seed: 3, Scale: 1.2})})
	c := compared(t, three, BundleOptions{})
	var buf bytes.Buffer
	if err := c.Write(&buf, "text", false); err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(buf.String(), "\n") {
		if n := utf8.RuneCountInString(line); n > DefaultWidth {
			t.Errorf("line %d is %d columns wide:\n%s", i+1, n, line)
		}
	}
	if !strings.Contains(buf.String(), "left out to fit; --wide shows them") {
		t.Error("nothing says what was left out to fit")
	}
}

func TestPublishedGolden(t *testing.T) {
	pub, err := reference.Load()
	if err != nil {
		t.Fatal(err)
	}
	c := compared(t, twoHosts()[:1], BundleOptions{Published: pub})
	var buf bytes.Buffer
	if err := c.Write(&buf, "text", false); err != nil {
		t.Fatal(err)
	}
	buf.WriteString("\n" + strings.Join(c.Notes.Warnings, "\n") + "\n")
	golden(t, "published.txt", buf.Bytes())
	// The article's rows are under the API it measured, matched by mode and reader.
	for _, r := range c.Result.Records() {
		if r.Source == PublishedLabel && r.Condition["api"] != pubSetup.API {
			t.Fatalf("a published row under api=%s: %+v", r.Condition["api"], r)
		}
	}
	if got := strings.Join(c.Result.Match, ","); got != "mode,reader" {
		t.Errorf("matched by %s", got)
	}
}

func TestTheSameBundlesGiveTheSameTable(t *testing.T) {
	a, b := compared(t, twoHosts(), BundleOptions{}), compared(t, twoHosts(), BundleOptions{})
	if diff := cmp.Diff(a, b, cmpopts.EquateNaNs()); diff != "" {
		t.Fatalf("not deterministic:\n%s", diff)
	}
}

// TestArgumentOrderDoesNotChangeIntervals compares a, b and b, a: every source's value
// and interval of every condition is the same either way.
func TestArgumentOrderDoesNotChangeIntervals(t *testing.T) {
	hosts := twoHosts()
	ab := compared(t, hosts, BundleOptions{}).Result.Records()
	ba := compared(t, []Labeled{hosts[1], hosts[0]}, BundleOptions{}).Result.Records()
	type key struct{ metric, source, cond string }
	type iv struct{ value, low, high *float64 }
	index := func(rows []JSONRow) map[key]iv {
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

func TestWarningsNameEachDifference(t *testing.T) {
	w := strings.Join(compared(t, twoHosts(), BundleOptions{}).Notes.Warnings, "\n")
	for _, want := range []string{
		"WARNING: laptop: 1 of 12 runs failed",
		"WARNING: bundles differ in images.api.binary_sha256: pi5 e5fb9560e9b5, laptop 1234567890ab",
	} {
		if !strings.Contains(w, want) {
			t.Errorf("no warning %q in:\n%s", want, w)
		}
	}
	// Limits are parameters too.
	pi5 := bundletest.New(bundletest.Options{Seed: 1, Rounds: 1})
	tight := bundletest.New(bundletest.Options{Seed: 1, Rounds: 1})
	tight.Manifest.Parameters.Limits.APICPUs = 0.5
	w = strings.Join(compared(t, []Labeled{{"a", pi5}, {"b", tight}}, BundleOptions{}).Notes.Warnings, "\n")
	if w != "WARNING: bundles differ in parameters.limits.api_cpus: a 0.25, b 0.5" {
		t.Errorf("warnings:\n%s", w)
	}
}

func TestSignificanceRespectsRuns(t *testing.T) {
	opt := func(seed uint64, scale float64) bundletest.Options {
		return bundletest.Options{Seed: seed, Modes: []string{"short1"}, Readers: []string{"fast"}, Rounds: 3, Scale: scale}
	}
	same1, same2, slower := bundletest.New(opt(1, 1)), bundletest.New(opt(2, 1)), bundletest.New(opt(3, 3))
	c := compared(t, []Labeled{{"a", same1}, {"b", same2}, {"c", slower}}, BundleOptions{})
	var p50 []JSONRow
	for _, r := range c.Result.Records() {
		if r.Metric == "p50_ms" {
			p50 = append(p50, r)
		}
	}
	if len(p50) != 3 || p50[0].Significant != nil || p50[0].Ratio != nil {
		t.Fatalf("the baseline has a test or a ratio: %+v", p50)
	}
	if *p50[1].Significant || !*p50[2].Significant {
		t.Fatalf("b %v (p %v), c %v (p %v): want b within noise, c beyond", *p50[1].Significant, *p50[1].P, *p50[2].Significant, *p50[2].P)
	}
}

func TestMatchSetsOneAPIAgainstAnother(t *testing.T) {
	goB := bundletest.New(bundletest.Options{Seed: 1, Rounds: 1})
	py := bundletest.New(bundletest.Options{Seed: 2, Rounds: 1})
	for i := range py.Runs {
		py.Runs[i].Run.API = "python"
	}
	py.Manifest.Parameters.APIs = []string{"python"}
	// By every key, nothing matches: each condition has one side only.
	all := compared(t, []Labeled{{"go", goB}, {"py", py}}, BundleOptions{Match: []string{"api", "mode", "reader"}})
	for _, r := range all.Result.Records() {
		if r.Ratio != nil {
			t.Fatalf("matched across APIs by api: %+v", r)
		}
	}
	// By mode and reader (the default, as each bundle has one API), every condition pairs up.
	for _, m := range [][]string{{"mode", "reader"}, nil} {
		c := compared(t, []Labeled{{"go", goB}, {"py", py}}, BundleOptions{Match: m})
		paired := 0
		for _, r := range c.Result.Records() {
			if r.Metric == "p99_ms" && r.Ratio != nil {
				paired++
			}
		}
		if paired != 6 {
			t.Errorf("--match %v: %d conditions paired, want 6", m, paired)
		}
	}
	if _, err := Bundles([]Labeled{{"go", goB}}, BundleOptions{Match: []string{"colour"}}); err == nil {
		t.Error("no error for a key no condition has")
	}
}

func TestQuantileOfCountsIsTheNearestRank(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		n := 1 + rng.IntN(60)
		sorted := make([]float64, n)
		for i := range sorted {
			sorted[i] = float64(i) + rng.Float64()/2
		}
		counts := make([]int32, n)
		var expanded []float64
		total := 0
		for i := range counts {
			counts[i] = int32(rng.IntN(4))
			total += int(counts[i])
			for range counts[i] {
				expanded = append(expanded, sorted[i])
			}
		}
		for _, q := range []float64{1, 25, 50, 90, 99, 100} {
			have := Quantile(q).Of(sorted, counts, total)
			want := stats.NearestRank(expanded, q)
			if total == 0 {
				if !math.IsNaN(have) {
					t.Fatalf("no values, p%v %v", q, have)
				}
				continue
			}
			if have != want {
				t.Fatalf("p%v of %v: have %v, want %v", q, expanded, have, want)
			}
		}
		if m := (Mean{}).Of(sorted, counts, total); total > 0 && math.Abs(m-stats.Mean(expanded)) > 1e-9 {
			t.Fatalf("mean %v, want %v", m, stats.Mean(expanded))
		}
	}
}

func TestTheBootstrapResamplesRunsFirst(t *testing.T) {
	// Two runs far apart: a resample that draws one run twice has all its values from
	// it, so some resamples' means sit at each run's mean; pooled resampling of the 200
	// requests would never stray that far.
	runs := [][]float64{make([]float64, 100), make([]float64, 100)}
	for i := range 100 {
		runs[0][i], runs[1][i] = 1+float64(i%3)/100, 10+float64(i%3)/100
	}
	cell, boot := evaluate(&Row{Metric: "m", Runs: runs, Stat: Mean{}, Value: math.NaN()}, 400, DefaultSeed)
	if cell.Low > 1.1 || cell.High < 9.9 {
		t.Fatalf("interval [%v, %v]: the runs were not resampled", cell.Low, cell.High)
	}
	if len(boot) != 400 {
		t.Fatalf("%d resamples", len(boot))
	}
}
