package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/logbench/logbench/internal/fifostalltest"
)

func bundletestDefaults() fifostalltest.Options {
	return fifostalltest.Options{Modes: []string{"short1", "json-queue"}}
}

// runAppSplit runs the CLI with stdout and stderr apart.
func runAppSplit(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	app := newApp()
	app.Writer, app.ErrWriter = &out, &errOut
	err = app.Run(experimentAsFirstArgument(append([]string{"logbench"}, args...)))
	return out.String(), errOut.String(), err
}

func TestCompareTwoBundlesAndAnArchive(t *testing.T) {
	pi5 := synthetic(t, "pi5", fifostalltest.Options{Modes: []string{"short1", "json-queue"}, Seed: 1})
	laptop := synthetic(t, "laptop", fifostalltest.Options{Modes: []string{"short1", "json-queue"}, Seed: 2, Scale: 2, Rate: 10})
	if out, err := runApp(t, "archive", laptop); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	stdout, stderr, err := runAppSplit(t, "compare", pi5, laptop+".tar.gz")
	if err != nil {
		t.Fatalf("%v\n%s%s", err, stdout, stderr)
	}
	if !strings.Contains(stderr, "WARNING: bundles differ in parameters.rate_rps: pi5 20, laptop 10") {
		t.Errorf("no warning on stderr:\n%s", stderr)
	}
	for _, want := range []string{"host  ", "p99 latency (ms)", "api/mode/reader", "go/short1/fast", "(too few runs)", "vs base", "laptop vs pi5:"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	// JSON is one document on stdout; the flags may come after the bundles.
	stdout, _, err = runAppSplit(t, "compare", pi5, laptop, "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Rows []struct {
			Metric string   `json:"metric"`
			Value  *float64 `json:"value"`
		} `json:"rows"`
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || len(doc.Warnings) == 0 {
		t.Fatalf("json: %v, %v\n%s", err, doc.Warnings, stdout)
	}
	p99s := 0
	for _, r := range doc.Rows {
		if r.Metric == "p99_ms" && r.Value != nil {
			p99s++
		}
	}
	if p99s != 8 {
		t.Fatalf("json: %d p99 values, want 8 (4 conditions, 2 bundles)", p99s)
	}
}

func TestCompareWithThePublishedFigures(t *testing.T) {
	dir := synthetic(t, "laptop", fifostalltest.Options{Modes: []string{"json-sync"}, Readers: []string{"slow"}})
	stdout, stderr, err := runAppSplit(t, "compare", dir, "--published")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(stdout, "published[api=python]") || !strings.Contains(stdout, "json-sync/slow  3005") || !strings.Contains(stdout, "Raspberry Pi 5") {
		t.Errorf("stdout:\n%s", stdout)
	}
	if !strings.Contains(stderr, "WARNING: parameters.duration_s differs from the published setup: laptop 2, published 8") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

func TestCompareRefusesABundleThatDoesNotVerify(t *testing.T) {
	a := synthetic(t, "a", bundletestDefaults())
	b := synthetic(t, "b", bundletestDefaults())
	os.Remove(filepath.Join(b, "requests.csv"))
	_, err := runApp(t, "compare", a, b)
	if err == nil || !strings.Contains(err.Error(), b+" does not verify") {
		t.Fatalf("err = %v", err)
	}
}

func TestCompareRejectsBadInput(t *testing.T) {
	dir := synthetic(t, "a", bundletestDefaults())
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"compare"}, "two or more"},
		{[]string{"compare", dir}, "--published"},
		{[]string{"compare", dir, dir, "--format", "yaml"}, "--format"},
		{[]string{"compare", dir, "--format"}, "needs an argument"},
		{[]string{"compare", dir, dir, "--match", "colour"}, "--match colour"},
		{[]string{"compare", dir, dir, "--match", "mode,,reader"}, "an empty key"},
		{[]string{"compare", dir, dir, "--match", "mode,mode"}, "mode twice"},
		{[]string{"compare", dir, dir, "--threshold", "-1"}, "--threshold"},
		{[]string{"compare", dir, dir, "--threshold", "100"}, "--threshold"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, err := runApp(t, tc.args...)
			wantUsageError(t, err, tc.want)
		})
	}
}

// archived are bundles of every experiment, as committed under results/.
var archived = map[string]string{
	"fifo-stall": "../../results/2026-11-30-vm2/fifo-py.tar.gz",
	"qps":        "../../results/2026-11-30-vm2/qps-final.tar.gz",
	"line-cost":  "../../results/2026-11-30-vm2/lc-final.tar.gz",
	"log-driver": "../../results/2026-12-02-vm/log-driver.tar.gz",
}

// Every experiment's comparison reads --match, and refuses a key it does not have.
func TestCompareValidatesMatchForEveryExperiment(t *testing.T) {
	for name, path := range archived {
		t.Run(name, func(t *testing.T) {
			_, err := runApp(t, "compare", path, path, "--match", "bogus")
			wantUsageError(t, err, `no condition has "bogus"`)
		})
	}
}

// Every experiment's text fits 120 columns, whatever the keys matched by; --wide may
// be wider.
func TestCompareTextFitsForEveryExperiment(t *testing.T) {
	matches := map[string][]string{"fifo-stall": {"", "mode", "mode,reader"}, "qps": {"", "config"}, "line-cost": {"", "way"}}
	for name, path := range archived {
		for _, m := range matches[name] {
			t.Run(name+" "+m, func(t *testing.T) {
				args := []string{"compare", path, path, "--published"}
				if m != "" {
					args = append(args, "--match", m)
				}
				stdout, stderr, err := runAppSplit(t, args...)
				if err != nil {
					t.Fatalf("%v\n%s", err, stderr)
				}
				for i, line := range strings.Split(stdout, "\n") {
					if n := utf8.RuneCountInString(line); n > 120 {
						t.Errorf("line %d is %d columns wide:\n%s", i+1, n, line)
					}
				}
			})
		}
	}
}

// --threshold is read: a change under it is never counted, whatever its p.
func TestCompareThresholdIsRead(t *testing.T) {
	changed := func(threshold string) int {
		stdout, stderr, err := runAppSplit(t, "compare", archived["fifo-stall"], "../../results/2026-11-30-vm2/fifo-go.tar.gz",
			"--format", "json", "--threshold", threshold)
		if err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		var doc struct {
			Rows []struct {
				Changed   *bool    `json:"changed"`
				ChangePct *float64 `json:"change_pct"`
			} `json:"rows"`
			Threshold float64 `json:"threshold_pct"`
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range doc.Rows {
			if r.Changed != nil && *r.Changed {
				n++
				if doc.Threshold > 0 && r.ChangePct != nil && math.Abs(*r.ChangePct) < doc.Threshold {
					t.Errorf("--threshold %s: a change of %v%% counted", threshold, *r.ChangePct)
				}
			}
		}
		return n
	}
	none, some := changed("0"), changed("20")
	if !(some < none) {
		t.Fatalf("changed: %d without a threshold, %d with 20%%", none, some)
	}
}
