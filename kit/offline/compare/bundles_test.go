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

	"github.com/google/go-cmp/cmp"

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

func TestBundlesGolden(t *testing.T) {
	cmp2 := Bundles(twoHosts(), Options{})
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			if err := cmp2.Write(&buf, format); err != nil {
				t.Fatal(err)
			}
			ext := map[string]string{"text": "txt", "csv": "csv", "json": "json", "markdown": "md"}[format]
			golden(t, "bundles."+ext, buf.Bytes())
		})
	}
	golden(t, "bundles.warnings.txt", []byte(strings.Join(cmp2.Warnings, "\n")+"\n"))
}

func TestPublishedGolden(t *testing.T) {
	pub, err := reference.Load()
	if err != nil {
		t.Fatal(err)
	}
	c := Bundles(twoHosts()[:1], Options{Published: pub})
	var buf bytes.Buffer
	if err := c.Write(&buf, "text"); err != nil {
		t.Fatal(err)
	}
	buf.WriteString("\n" + strings.Join(c.Warnings, "\n") + "\n")
	golden(t, "published.txt", buf.Bytes())
}

func TestTheSameBundlesGiveTheSameTable(t *testing.T) {
	a, b := Bundles(twoHosts(), Options{}), Bundles(twoHosts(), Options{})
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("not deterministic:\n%s", diff)
	}
}

func TestWarningsNameEachDifference(t *testing.T) {
	w := strings.Join(Bundles(twoHosts(), Options{}).Warnings, "\n")
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
	w = strings.Join(Bundles([]Labeled{{"a", pi5}, {"b", tight}}, Options{}).Warnings, "\n")
	if w != "WARNING: bundles differ in parameters.limits.api_cpus: a 0.25, b 0.5" {
		t.Errorf("warnings:\n%s", w)
	}
}

func TestNoiseIsJudgedByTheDifferencesInterval(t *testing.T) {
	same1 := bundletest.New(bundletest.Options{Seed: 1, Modes: []string{"short1"}, Readers: []string{"fast"}, Rounds: 3})
	same2 := bundletest.New(bundletest.Options{Seed: 2, Modes: []string{"short1"}, Readers: []string{"fast"}, Rounds: 3})
	slower := bundletest.New(bundletest.Options{Seed: 3, Modes: []string{"short1"}, Readers: []string{"fast"}, Rounds: 3, Scale: 3})
	rows := Bundles([]Labeled{{"a", same1}, {"b", same2}, {"c", slower}}, Options{}).Conditions.Rows
	noise := func(row []string) string { return row[11] }
	if noise(rows[0]) != "baseline" || noise(rows[1]) != "within noise" || noise(rows[2]) != "beyond noise" {
		t.Fatalf("rows:\n%v", rows)
	}
}

func TestBootstrapP99IsTheNearestRankOfEachResample(t *testing.T) {
	values := make([]float64, 480)
	for i := range values {
		values[i] = float64((i * 7919) % 480)
	}
	have := bootstrapP99(values, 50, rand.New(rand.NewPCG(1, 2)))
	// The same draws, the slow way: build each resample and sort it.
	rng := rand.New(rand.NewPCG(1, 2))
	sortedValues := make([]float64, len(values)) // values is a permutation of 0..479
	for i := range sortedValues {
		sortedValues[i] = float64(i)
	}
	for r := range have {
		resample := make([]float64, len(values))
		for i := range resample {
			resample[i] = sortedValues[rng.IntN(len(values))]
		}
		if want := stats.NearestRank(resample, 99); have[r] != want {
			t.Fatalf("resample %d: have %v, want %v", r, have[r], want)
		}
	}
	lo, hi := interval(have)
	if !(lo <= 475 && hi >= 475) || math.IsNaN(lo) {
		t.Fatalf("the 95%% interval [%v, %v] misses the p99 475", lo, hi)
	}
	if bootstrapP99(nil, 10, rng) != nil {
		t.Fatal("no values, yet resamples")
	}
}
