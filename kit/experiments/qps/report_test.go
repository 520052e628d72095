package qps

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/reporttest"
	"github.com/logbench/logbench/kit/internal/browsertest"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// archived verifies a bundle of results/.
func archived(t *testing.T, path string) *verify.Result {
	t.Helper()
	files, err := bundle.Open(filepath.Join("..", "..", "..", "results", path))
	if err != nil {
		t.Fatal(err)
	}
	res := Experiment.Verify(files)
	if !res.OK() {
		t.Fatalf("%s does not verify: %s", path, res.Summary())
	}
	res.Name = strings.TrimSuffix(filepath.Base(path), ".tar.gz")
	return res
}

// The page has what a reader of the qps experiment needs: the rates with their
// intervals beside the published ones, the ratios that are the fidelity check, each
// run's seconds, latency, CPU per request and wrk's verdict; parameters as a table.
func TestTheReportDrawsWhatQPSReadersNeed(t *testing.T) {
	final, wrk := archived(t, "2026-11-30-vm2/qps-final.tar.gz"), archived(t, "2026-11-30-vm2/qps-wrk.tar.gz")
	one := reporttest.Render(t, Experiment, final)
	for _, want := range []string{
		"<h1>logbench report: qps: qps-final</h1>", ">requests per second</text>", "requests per second over console+file&#39;s, same API and round</text>",
		"console+file: requests per second</text>", "none: requests per second</text>", "Latency p99</text>", "Latency max</text>",
		"API CPU per request</text>", "engine CPU per request (dockerd, containerd, shims)</text>", "No bundle here ran wrk",
		"<th>limits.api_cpus</th>", `class="lb-published"`, `class="lb-whisker"`, "express",
	} {
		if !strings.Contains(one, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, banned := range []string{"{APIs:", "<pre", "LogOpts:map", "median host speed (speed probe)</text>"} { // no speed probe: no chart of it
		if strings.Contains(one, banned) {
			t.Errorf("the page has %q", banned)
		}
	}
	browsertest.SelfContained(t, one)

	// Two bundles on the same axes: one rate plot (the answer's, and among the
	// figures), a colour each; wrk's disagreement named.
	two := reporttest.Render(t, Experiment, final, wrk)
	if n := strings.Count(two, ">requests per second</text>"); n != 2 {
		t.Errorf("%d rate plots, want one for both bundles, opening the page and among the figures", n)
	}
	for _, want := range []string{"<h1>logbench report: qps: qps-final, qps-wrk</h1>", "NOT CONFIRMED: qps-wrk, node/none", "The kit&#39;s rate over wrk&#39;s</text>",
		`<th>qps-wrk</th><td>node/none</td>`, "qps-final, qps-wrk: the published API is Nest.js"} {
		if !strings.Contains(two, want) {
			t.Errorf("the page of two lacks %q", want)
		}
	}
}

func TestTheReportRendersInABrowser(t *testing.T) {
	browsertest.Chromium(t)
	final, wrk := archived(t, "2026-11-30-vm2/qps-final.tar.gz"), archived(t, "2026-11-30-vm2/qps-wrk.tar.gz")
	// qps-go-none ran no logging only: no ratio to console+file to draw, and no empty
	// panel for it.
	goNone := reporttest.Render(t, Experiment, archived(t, "2026-12-02-vm/qps-go-none.tar.gz"))
	if strings.Contains(goNone, "over console+file&#39;s, same API and round</text>") || !strings.Contains(goNone, "No bundle here has a figure of requests per second over console&#43;file&#39;s") {
		t.Error("a ratio panel without console+file runs")
	}
	for _, page := range []string{reporttest.Render(t, Experiment, final), reporttest.Render(t, Experiment, final, wrk), goNone} {
		for _, l := range browsertest.Check(t, page) {
			if l.Whiskers == 0 || l.Legends != l.SVGs {
				t.Errorf("%d whiskers; %d legends in %d plots", l.Whiskers, l.Legends, l.SVGs)
			}
		}
	}
	browsertest.Screenshot(t, reporttest.Render(t, Experiment, final, wrk), 800)
}

// A bundle of the Go API beside one of the Node.js API: the kit's figures set them side
// by side by configuration, as qps's own drawings do, rather than each API's conditions
// in categories of their own, every one with a single bar.
func TestBundlesOfOneAPIEachShareTheFiguresAxes(t *testing.T) {
	page := reporttest.Render(t, Experiment, archived(t, "2026-12-02-vm/qps-warm20.tar.gz"), archived(t, "2026-12-02-vm/qps-go-none.tar.gz"))
	for _, banned := range []string{">node/none</text>", ">go/none</text>"} {
		if strings.Contains(page, banned) {
			t.Errorf("a category %s: the bundles' conditions are not side by side", banned)
		}
	}
	if !strings.Contains(page, ">none</text>") {
		t.Error("no category none for both bundles")
	}
}
