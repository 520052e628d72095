package yourapi

import (
	"fmt"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/reporttest"

	"github.com/logbench/logbench/internal/comparetest"
	"github.com/logbench/logbench/kit/internal/browsertest"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

// archived verifies the committed bundle, named label.
func archived(t *testing.T, label string) *verify.Result {
	t.Helper()
	files, err := bundle.Open(stdlibBundle)
	if err != nil {
		t.Fatal(err)
	}
	res := Experiment.Verify(files)
	if !res.OK() {
		t.Fatalf("%s does not verify: %s", stdlibBundle, res.Summary())
	}
	res.Name = label
	return res
}

var (
	svgs     = regexp.MustCompile(`(?s)<svg.*?</svg>`)
	svgTexts = regexp.MustCompile(`<text[^>]*>([^<]*)</text>`)
)

// digest is a page with each plot in place of its drawing: its texts (title, axes,
// ticks, legend) and how many bars, whiskers, legends and data areas it marks. The
// drawings' coordinates are left out: they are floating point, and a golden file of
// them would hold one machine's rounding.
func digest(page string) string {
	return svgs.ReplaceAllStringFunc(page, func(svg string) string {
		var texts []string
		for _, m := range svgTexts.FindAllStringSubmatch(svg, -1) {
			texts = append(texts, html.UnescapeString(m[1]))
		}
		var counts []string
		for _, class := range []string{"lb-bar", "lb-whisker", "lb-legend", "lb-data"} {
			counts = append(counts, fmt.Sprintf("%s %d", class, strings.Count(svg, `class="`+class+`"`)))
		}
		return "<svg>\n  " + strings.Join(counts, ", ") + "\n  " + strings.Join(texts, " | ") + "\n</svg>"
	})
}

// The page is drawn in the kit's style (kit/offline/report), as the other experiments'
// are: its golden file holds every caption, table and plot's texts.
func TestTheReportOfTheArchivedBundle(t *testing.T) {
	page := reporttest.Render(t, Experiment, archived(t, "your-api-stdlib"))
	comparetest.GoldenFile(t, "testdata/report/your-api-stdlib.html", []byte(digest(page)))
	for _, want := range []string{"<h1>logbench report: your-api: your-api-stdlib</h1>", "requests per second</text>", "Ratio to the baseline</text>",
		"console: requests per second</text>", "Latency p99</text>", "CPU per request in the engine (dockerd, containerd, shims)</text>", "log lines per request (counted, not verified)</text>",
		`class="lb-whisker"`, "<th>limits.api_cpus</th>", "<th>configs</th><td>none, console, file</td>", "Log lines are counted, not verified",
		"<th>none (baseline)</th>", "µs/req in &#43; out"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, banned := range []string{"<pre", "us/req", "serif"} {
		if strings.Contains(strings.ReplaceAll(strings.ToLower(page), "sans-serif", ""), banned) {
			t.Errorf("the page has %q", banned)
		}
	}
	browsertest.SelfContained(t, page)
}

// Several bundles share one page and its axes, a colour each.
func TestTheReportDrawsSeveralBundles(t *testing.T) {
	two := reporttest.Render(t, Experiment, archived(t, "stdlib-a"), archived(t, "stdlib-b"))
	if n := strings.Count(two, ">requests per second</text>"); n != 2 { // the answer's chart, and the figures'
		t.Errorf("%d rate plots, want the answer's and the figures', each of both bundles", n)
	}
	// Three configurations, a bar of each bundle for each.
	if n := strings.Count(two, `class="lb-bar" data-s="1"`); n < 3 {
		t.Errorf("%d marks of the second bundle", n)
	}
	for _, want := range []string{"<h1>logbench report: your-api: stdlib-a, stdlib-b</h1>", "<caption>stdlib-b</caption>", "(stdlib-a, stdlib-b: none)",
		"<tr><th>stdlib-b</th><td>console</td>"} {
		if !strings.Contains(two, want) {
			t.Errorf("the page of two lacks %q", want)
		}
	}
	browsertest.SelfContained(t, two)
}

func TestTheReportRendersInABrowser(t *testing.T) {
	browsertest.Chromium(t)
	one, two := reporttest.Render(t, Experiment, archived(t, "stdlib-a")), reporttest.Render(t, Experiment, archived(t, "stdlib-a"), archived(t, "stdlib-b"))
	for _, page := range []string{one, two} {
		for _, l := range browsertest.Check(t, page) {
			if l.Whiskers == 0 || l.Legends != l.SVGs {
				t.Errorf("%d whiskers; %d legends in %d plots", l.Whiskers, l.Legends, l.SVGs)
			}
		}
	}
	browsertest.Screenshot(t, two, 800)
}
