package report

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/bundle/bundletest"
	"github.com/logbench/logbench/kit/offline/verify"
	"github.com/logbench/logbench/results/reference"
)

// verified saves a synthetic bundle of 7 modes x 2 readers and verifies it, as the
// report command does.
func verified(t *testing.T, o bundletest.Options) *verify.Result {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "pi5")
	if err := bundletest.New(o).Save(dir); err != nil {
		t.Fatal(err)
	}
	files, err := bundle.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return verify.Verify(files)
}

var allModes = []string{"none", "short1", "short10", "json-only", "json-prebuilt-sync", "json-sync", "json-queue"}

func render(t *testing.T, res *verify.Result) string {
	t.Helper()
	pub, err := reference.Load()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, Input{Result: res, Published: pub, Version: "test"}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestTheReportHasEveryPlotAndNeedsNoNetwork(t *testing.T) {
	res := verified(t, bundletest.Options{Modes: allModes, Rounds: 2})
	html := render(t, res)
	// Percentiles and per-run p99 for each reader, one timeline per saturating
	// condition (the three 16 KiB modes with the slow reader), and CPU.
	if n := strings.Count(html, "<svg"); n != 2+2+2+14+3+1 {
		t.Errorf("%d plots, want 24", n)
	}
	for _, want := range []string{
		"<h2>Latency percentiles</h2>", "<h2>p99 per run</h2>", "<h2>Log bytes generated, read and waiting</h2>", "<h2>API CPU</h2>",
		"<h2>Conditions</h2>", "<strong>Verified</strong>", "go/json-sync/slow (2 runs)", "Latency percentiles, slow reader",
		"<th>kernel</th><td>6.12.0-test</td>", "<th>cgroup</th><td>v2 systemd</td>",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	// Self-contained: no script, no stylesheet or image fetched, no URL but the SVG
	// namespaces.
	for _, banned := range []string{"<script", "<link", "<img", "<iframe", "@import", "url(http"} {
		if strings.Contains(html, banned) {
			t.Errorf("the page has %q", banned)
		}
	}
	urls := regexp.MustCompile(`https?://[^"'\s<>)]+`).FindAllString(html, -1)
	for _, u := range urls {
		if u != "http://www.w3.org/2000/svg" && u != "http://www.w3.org/1999/xlink" {
			t.Errorf("the page names %s", u)
		}
	}
}

func TestTheReportShowsProblemsAndEscapesWhatTheBundleSays(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bad")
	b := bundletest.New(bundletest.Options{Modes: []string{"json-queue"}, Rounds: 1, Duration: time.Second})
	if err := b.Save(dir); err != nil {
		t.Fatal(err)
	}
	files, err := bundle.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	files.Extra = append(files.Extra, `<img src=x onerror=alert(1)>`)
	html := render(t, verify.Verify(files))
	if !strings.Contains(html, "Does not verify") || !strings.Contains(html, "&lt;img src=x onerror=alert(1)&gt;: not a bundle file") {
		t.Fatalf("the problem is not shown, escaped:\n%s", html[:min(len(html), 3000)])
	}
	if strings.Contains(html, "<img src=x") {
		t.Fatal("a file name went into the page as HTML")
	}
}

func TestAReportOfNothingSaysSo(t *testing.T) {
	if err := Write(&bytes.Buffer{}, Input{Result: &verify.Result{Name: "x"}}); err == nil {
		t.Fatal("no error for a bundle that could not be read")
	}
	// A bundle without a saturating condition says there is no timeline to show.
	res := verified(t, bundletest.Options{Modes: []string{"short1"}, Readers: []string{"fast"}, Rounds: 1, Duration: time.Second})
	if html := render(t, res); !strings.Contains(html, "No condition here offers more log bytes per second than its reader reads") {
		t.Fatal("no word on the missing timeline")
	}
}

// chromium finds a headless browser, or skips the test (fails it under CI, where a
// skipped test proves nothing: .ci/run installs Debian's chromium).
func chromium(t *testing.T) string {
	t.Helper()
	ci := os.Getenv("CI") == "true"
	if testing.Short() && !ci {
		t.Skip("starts a browser; not in -short mode")
	}
	candidates := []string{os.Getenv("LOGBENCH_CHROMIUM"), "chromium", "chromium-browser", "google-chrome", "headless_shell"}
	for _, c := range candidates {
		if c == "" {
			continue
		}
		if path, err := exec.LookPath(c); err == nil {
			return path
		}
	}
	if ci {
		t.Fatal("the browser test needs chromium (Debian: apt-get install chromium); under CI it must run")
	}
	t.Skip("needs chromium (Debian: apt-get install chromium), or LOGBENCH_CHROMIUM naming a browser")
	return ""
}

func runBrowser(t *testing.T, browser string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
		"--no-first-run", "--user-data-dir=" + t.TempDir()}
	cmd := exec.CommandContext(ctx, browser, append(base, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", browser, err, stderr.String())
	}
	return out
}

// TestTheReportRendersInABrowser opens the page in headless Chromium: the DOM it builds
// has every plot and heading, and the screenshot is a picture, not a blank page.
func TestTheReportRendersInABrowser(t *testing.T) {
	browser := chromium(t)
	res := verified(t, bundletest.Options{Modes: allModes, Rounds: 2})
	dir := t.TempDir()
	path := filepath.Join(dir, "report.html")
	if err := os.WriteFile(path, []byte(render(t, res)), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "file://" + path

	dom := string(runBrowser(t, browser, "--dump-dom", url))
	if n := strings.Count(dom, "<svg"); n != 24 {
		t.Errorf("the browser's DOM has %d svg elements, want 24", n)
	}
	for _, want := range []string{"<h1>logbench report:", "<h2>Latency percentiles</h2>", "<h2>Log bytes generated, read and waiting</h2>", "Latency percentiles, fast reader</text>"} {
		if !strings.Contains(dom, want) {
			t.Errorf("the browser's DOM lacks %q", want)
		}
	}

	// At a wide and a narrow window: nothing wider than the window (the page does not
	// scroll sideways), every plot within the window or inside a container that
	// scrolls, and a screenshot that is a picture.
	for _, width := range []int{1400, 800} {
		t.Run(fmt.Sprintf("%dpx", width), func(t *testing.T) {
			probe := filepath.Join(dir, fmt.Sprintf("probe-%d.html", width))
			page := strings.Replace(render(t, res), "</body>", layoutProbe+"</body>", 1)
			if err := os.WriteFile(probe, []byte(page), 0o644); err != nil {
				t.Fatal(err)
			}
			dom := string(runBrowser(t, browser, fmt.Sprintf("--window-size=%d,2000", width), "--virtual-time-budget=5000", "--dump-dom", "file://"+probe))
			m := regexp.MustCompile(`data-layout="([^"]*)"`).FindStringSubmatch(dom)
			if m == nil {
				t.Fatalf("the probe did not run:\n%.2000s", dom)
			}
			var scrollW, innerW, svgs, outside int
			if _, err := fmt.Sscanf(m[1], "%d %d %d %d", &scrollW, &innerW, &svgs, &outside); err != nil {
				t.Fatalf("probe %q: %v", m[1], err)
			}
			t.Logf("%d px: document %d px wide in a %d px window; %d plots, %d outside", width, scrollW, innerW, svgs, outside)
			if scrollW > innerW {
				t.Errorf("the page is %d px wide in a %d px window: something is clipped or scrolls sideways", scrollW, innerW)
			}
			if svgs != 24 || outside > 0 {
				t.Errorf("%d plots, %d of them beyond the window", svgs, outside)
			}
			shot := filepath.Join(dir, fmt.Sprintf("shot-%d.png", width))
			runBrowser(t, browser, "--screenshot="+shot, fmt.Sprintf("--window-size=%d,2400", width), url)
			f, err := os.Open(shot)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			img, err := png.Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			if img.Bounds().Dx() != width {
				t.Errorf("screenshot %d px wide, want %d", img.Bounds().Dx(), width)
			}
			inked, colours := ink(img)
			if inked < 0.02 || colours < 50 {
				t.Fatalf("the screenshot looks blank: %.1f%% of pixels not white, %d colours", inked*100, colours)
			}
			if keep := os.Getenv("LOGBENCH_KEEP_SCREENSHOT"); keep != "" {
				os.WriteFile(strings.TrimSuffix(keep, ".png")+fmt.Sprintf("-%d.png", width), mustRead(t, shot), 0o644)
			}
		})
	}
}

// layoutProbe is added to a copy of the page in the browser test only (the page itself
// has no script): it writes the document's width, the window's, the number of plots
// and how many reach past the window without a scrolling container around them.
const layoutProbe = `<script>
(function () {
  var svgs = document.querySelectorAll("svg"), outside = 0, w = window.innerWidth;
  svgs.forEach(function (s) {
    var r = s.getBoundingClientRect();
    if (r.right <= w + 1 && r.left >= -1) return;
    for (var e = s.parentElement; e; e = e.parentElement) {
      var o = getComputedStyle(e).overflowX;
      if (o === "auto" || o === "scroll") return;
    }
    outside++;
  });
  document.body.setAttribute("data-layout", document.documentElement.scrollWidth + " " + w + " " + svgs.length + " " + outside);
})();
</script>`

// ink is the share of pixels that are not near white, and how many colours there are.
func ink(img image.Image) (float64, int) {
	b := img.Bounds()
	colours := map[uint32]bool{}
	inked, total := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			total++
			if r < 0xf000 || g < 0xf000 || bl < 0xf000 {
				inked++
			}
			colours[(r>>11)<<10|(g>>11)<<5|bl>>11] = true
		}
	}
	return float64(inked) / float64(total), len(colours)
}

func mustRead(t *testing.T, path string) []byte {
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return body
}
