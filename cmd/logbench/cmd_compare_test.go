package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/offline/bundle/bundletest"
)

func bundletestDefaults() bundletest.Options {
	return bundletest.Options{Modes: []string{"short1", "json-queue"}}
}

// runAppSplit runs the CLI with stdout and stderr apart.
func runAppSplit(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	app := newApp()
	app.Writer, app.ErrWriter = &out, &errOut
	err = app.Run(append([]string{"logbench"}, args...))
	return out.String(), errOut.String(), err
}

func TestCompareTwoBundlesAndAnArchive(t *testing.T) {
	pi5 := synthetic(t, "pi5", bundletest.Options{Modes: []string{"short1", "json-queue"}, Seed: 1})
	laptop := synthetic(t, "laptop", bundletest.Options{Modes: []string{"short1", "json-queue"}, Seed: 2, Scale: 2, Rate: 10})
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
	for _, want := range []string{"host  ", "p99 latency (ms)", "api/mode/reader", "go/short1/fast", "95% CI", "vs base", "laptop vs pi5:"} {
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
	dir := synthetic(t, "laptop", bundletest.Options{Modes: []string{"json-sync"}, Readers: []string{"slow"}})
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
		{[]string{"compare", dir, "--published", "--resamples", "5"}, "--resamples"},
		{[]string{"compare", dir, "--format"}, "needs an argument"},
		{[]string{"compare", dir, dir, "--match", "colour"}, "--match colour"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, err := runApp(t, tc.args...)
			wantUsageError(t, err, tc.want)
		})
	}
}
