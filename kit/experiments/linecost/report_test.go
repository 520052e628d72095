package linecost

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/reporttest"
	"github.com/logbench/logbench/kit/internal/browsertest"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

func archived(t *testing.T, path, label string) *verify.Result {
	t.Helper()
	files, err := bundle.Open(filepath.Join("..", "..", "..", "results", path))
	if err != nil {
		t.Fatal(err)
	}
	res := Experiment.Verify(files)
	if !res.OK() {
		t.Fatalf("%s does not verify: %s", path, res.Summary())
	}
	res.Name = label
	return res
}

// The page has, per language, every way's headline with its interval on a log axis
// beside the seed's figure, CPU against wall time, and the seed's findings; several
// bundles share those axes.
func TestTheReportDrawsWhatLineCostReadersNeed(t *testing.T) {
	a, b := archived(t, "2026-11-30-vm2/lc-final.tar.gz", "lc-a"), archived(t, "2026-11-30-vm2/lc-final.tar.gz", "lc-b")
	one, two := reporttest.Render(t, Experiment, a), reporttest.Render(t, Experiment, a, b)
	for _, page := range []string{one, two} {
		for _, want := range []string{"go: time per line</text>", "python: time per line</text>", "ns per line (log scale)</text>",
			"go: CPU against wall time per line</text>", `class="lb-published"`, `class="lb-whisker"`, "<th>lines_per_trial</th>",
			"DOES NOT HOLD", "unbuffered / buffered", "trials were throttled by the CPU limit"} {
			if !strings.Contains(page, want) {
				t.Errorf("the page lacks %q", want)
			}
		}
		if strings.Contains(page, "<pre") {
			t.Error("a table drawn as text")
		}
		browsertest.SelfContained(t, page)
	}
	if n := strings.Count(two, "go: time per line</text>"); n != 1 {
		t.Errorf("%d plots of Go's time per line, want one for both bundles", n)
	}
	// lc-b's 14 conditions in the per-language charts, and in each of the kit's charts
	// of a figure (the headline, CPU and wall time per line) and the answer's.
	if n := strings.Count(two, `class="lb-bar" data-s="1"`); n != 14+4*14 {
		t.Errorf("%d marks of the second series, want %d", n, 14+4*14)
	}
}

func TestTheReportRendersInABrowser(t *testing.T) {
	browsertest.Chromium(t)
	a := archived(t, "2026-11-30-vm2/lc-final.tar.gz", "lc-a")
	one, two := reporttest.Render(t, Experiment, a), reporttest.Render(t, Experiment, a, archived(t, "2026-11-30-vm2/lc-final.tar.gz", "lc-b"))
	for _, page := range []string{one, two} {
		for _, l := range browsertest.Check(t, page) {
			if l.Whiskers == 0 || l.Legends != l.SVGs {
				t.Errorf("%d whiskers; %d legends in %d plots", l.Whiskers, l.Legends, l.SVGs)
			}
		}
	}
	browsertest.Screenshot(t, two, 1400)
}
