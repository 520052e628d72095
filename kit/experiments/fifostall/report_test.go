package fifostall_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/experiments/fifostall"

	"github.com/logbench/logbench/internal/fifostalltest"
	"github.com/logbench/logbench/internal/reporttest"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/internal/browsertest"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// verified saves a synthetic bundle and verifies it, as the report command does.
func verified(t *testing.T, o fifostalltest.Options) *verify.Result {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "pi5")
	if err := fifostalltest.Save(fifostalltest.New(o), dir); err != nil {
		t.Fatal(err)
	}
	files, err := bundle.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return fifostall.Experiment.Verify(files)
}

// archived verifies a bundle of results/.
func archived(t *testing.T, path string) *verify.Result {
	t.Helper()
	files, err := bundle.Open(filepath.Join("..", "..", "..", "results", path))
	if err != nil {
		t.Fatal(err)
	}
	res := fifostall.Experiment.Verify(files)
	res.Name = strings.TrimSuffix(filepath.Base(path), ".tar.gz")
	return res
}

var allModes = []string{"none", "short1", "short10", "json-only", "json-prebuilt-sync", "json-sync", "json-queue"}

func TestTheReportHasEveryPlotAndNeedsNoNetwork(t *testing.T) {
	res := verified(t, fifostalltest.Options{Modes: allModes, Rounds: 2})
	html := reporttest.Render(t, fifostall.Experiment, res)
	// The kit's figures (drain, throughput to the last log byte read, API CPU);
	// percentiles, per-run p99 (the answer's chart the slow reader's) and HDR for each
	// reader, one schedule plot per condition, one timeline per saturating condition
	// (the three 16 KiB modes with the slow reader).
	if n := strings.Count(html, "<svg"); n != 3+2+2+2+14+3 {
		t.Errorf("%d plots, want 26", n)
	}
	for _, want := range []string{
		"<h2>Latency percentiles</h2>", "<h2>p99 per run</h2>", "<h2>Log bytes generated, read and waiting</h2>", "<h2>Figures</h2>",
		"<h2>Conditions and the model</h2>", "Verification and trust, bundle by bundle", "<strong>Verified</strong>", "go/json-sync/slow (2 runs)", "Latency percentiles, slow reader",
		"<th>kernel</th><td>6.12.0-test</td>", "<th>cgroup</th><td>v2 systemd</td>", "<th>limits.api_cpus</th>",
		`class="lb-bar"`, `class="lb-legend"`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	// The page opens with the slow reader's p99 per run, drawn once; the kit's figures
	// are the ones fifo-stall's drawings do not draw (no bar of p99 or p50).
	answer, _, _ := strings.Cut(html[strings.Index(html, `<section id="answer">`):], "</section>")
	if !strings.Contains(answer, "p99 per run, slow reader</text>") || strings.Count(html, "p99 per run, slow reader</text>") != 1 {
		t.Error("the answer's chart is not the slow reader's p99 per run, drawn once")
	}
	for _, want := range []string{">drain after the last response</text>", ">throughput to the last log byte read</text>", ">API CPU</text>"} {
		if !strings.Contains(html, want) {
			t.Errorf("the figures lack %q", want)
		}
	}
	for _, banned := range []string{">p99 latency</text>", ">median latency</text>", ">mean latency</text>"} {
		if strings.Contains(html, banned) {
			t.Errorf("the figures draw %q, which fifo-stall's drawings draw better", banned)
		}
	}
	browsertest.SelfContained(t, html)
}

func TestTheReportShowsProblemsAndEscapesWhatTheBundleSays(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bad")
	b := fifostalltest.New(fifostalltest.Options{Modes: []string{"json-queue"}, Rounds: 1, Duration: time.Second})
	if err := fifostalltest.Save(b, dir); err != nil {
		t.Fatal(err)
	}
	files, err := bundle.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	files.Extra = append(files.Extra, `<img src=x onerror=alert(1)>`)
	html := reporttest.Render(t, fifostall.Experiment, fifostall.Experiment.Verify(files))
	if !strings.Contains(html, "Does not verify") || !strings.Contains(html, "&lt;img src=x onerror=alert(1)&gt;: not a bundle file") {
		t.Fatalf("the problem is not shown, escaped:\n%s", html[:min(len(html), 3000)])
	}
	if strings.Contains(html, "<img src=x") {
		t.Fatal("a file name went into the page as HTML")
	}
}

func TestAReportOfNothingSaysSo(t *testing.T) {
	if err := (fifostall.Experiment).Report(&bytes.Buffer{}, []experiment.Source{{Label: "x", Result: &verify.Result{Name: "x"}}}, "test"); err == nil {
		t.Fatal("no error for a bundle that could not be read")
	}
	// A bundle without a saturating condition says there is no timeline to show.
	res := verified(t, fifostalltest.Options{Modes: []string{"short1"}, Readers: []string{"fast"}, Rounds: 1, Duration: time.Second})
	if html := reporttest.Render(t, fifostall.Experiment, res); !strings.Contains(html, "No condition here offers more log bytes per second than its reader reads") {
		t.Fatal("no word on the missing timeline")
	}
}

// Two bundles of different APIs share every plot's axes by mode: one plot per reader,
// not one page per bundle.
func TestTwoBundlesShareTheAxes(t *testing.T) {
	py, gobundle := archived(t, "2026-11-30-vm2/fifo-py.tar.gz"), archived(t, "2026-11-30-vm2/fifo-go.tar.gz")
	if !py.OK() || !gobundle.OK() {
		t.Fatalf("the archived bundles do not verify: %s\n%s", py.Summary(), gobundle.Summary())
	}
	html := reporttest.Render(t, fifostall.Experiment, py, gobundle)
	for _, want := range []string{"<h1>logbench report: fifo-stall: fifo-py, fifo-go</h1>", "Latency percentiles, fast reader", "none/slow: latency by scheduled send",
		"<th>apis</th><td>python</td><td>go</td>", `class="lb-published"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if n := strings.Count(html, "Latency percentiles, fast reader</text>"); n != 1 {
		t.Errorf("%d plots of the fast reader's percentiles, want one for both bundles", n)
	}
	if strings.Contains(html, "python/none/fast: latency") {
		t.Error("a plot of one bundle's condition where both have it")
	}
	if strings.Contains(html, "{APIs:") {
		t.Error("the parameters are a struct dump")
	}
}

// TestTheReportRendersInABrowser opens the pages of one and of two bundles in headless
// Chromium at 1400 and 800 px: nothing wider than the window, every whisker on its
// bar's centre, no legend on the data, no table clipped.
func TestTheReportRendersInABrowser(t *testing.T) {
	browsertest.Chromium(t)
	one := reporttest.Render(t, fifostall.Experiment, verified(t, fifostalltest.Options{Modes: allModes, Rounds: 2}))
	for _, l := range browsertest.Check(t, one) {
		if l.SVGs != 26 || l.Whiskers == 0 || l.Legends < 26 {
			t.Errorf("%d plots, %d whiskers, %d legends", l.SVGs, l.Whiskers, l.Legends)
		}
	}
	browsertest.Screenshot(t, one, 1400)
	two := reporttest.Render(t, fifostall.Experiment, archived(t, "2026-11-30-vm2/fifo-py.tar.gz"), archived(t, "2026-11-30-vm2/fifo-go.tar.gz"))
	for _, l := range browsertest.Check(t, two) {
		if l.Whiskers == 0 || l.Bars == 0 {
			t.Errorf("%d bars, %d whiskers", l.Bars, l.Whiskers)
		}
	}
	browsertest.Screenshot(t, two, 800)
}
