package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stdlibBundle is the committed your-api bundle.
const stdlibBundle = "../../results/2026-12-01-vm/your-api-stdlib.tar.gz"

// One your-api bundle compares alone: its configurations against its baseline one.
func TestCompareOneYourAPIBundleWithinItself(t *testing.T) {
	stdout, stderr, err := runAppSplit(t, "compare", stdlibBundle)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, want := range []string{"image     logbench-test/stdlib-http:1", "your-api-stdlib[config=console]  your-api-stdlib[config=file]",
		"your-api-stdlib[config=console] vs your-api-stdlib[config=none]"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	stdout, _, err = runAppSplit(t, "compare", "--format", "json", stdlibBundle)
	var doc struct {
		Experiment string `json:"experiment"`
	}
	if err != nil || json.Unmarshal([]byte(stdout), &doc) != nil || doc.Experiment != "your-api" {
		t.Errorf("json: %v, experiment %q", err, doc.Experiment)
	}
	// No article to compare with: one line, exit status 2.
	_, err = runApp(t, "compare", "--published", stdlibBundle)
	wantUsageError(t, err, "--published: your-api has no published figures")
}

// Several your-api bundles share one page, here the same one twice, labelled apart.
func TestReportDrawsTwoYourAPIBundles(t *testing.T) {
	page := filepath.Join(t.TempDir(), "two.html")
	out, err := runApp(t, "report", stdlibBundle, stdlibBundle, "--out", page)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	body, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<h1>logbench report: your-api: your-api-stdlib, your-api-stdlib#2</h1>", "<caption>your-api-stdlib#2</caption>"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
