// Package browsertest opens a report's page in headless Chromium for the tests of
// kit/offline/report and of every experiment's report, and measures what a reader would
// see: whether the page scrolls sideways, whether each whisker stands on its bar's
// centre, whether a legend lies on the data, whether a table is clipped.
package browsertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Chromium finds a headless browser, or skips the test in one line naming it (fails it
// under CI=true, where a skipped test proves nothing). -short skips it, under CI too:
// the unit tier is a choice, and the full tier runs it.
func Chromium(t *testing.T) string {
	t.Helper()
	ci := os.Getenv("CI") == "true"
	if testing.Short() {
		t.Skip("starts a browser; not in -short mode")
	}
	for _, c := range []string{os.Getenv("LOGBENCH_CHROMIUM"), "chromium", "chromium-browser", "google-chrome", "headless_shell"} {
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

// Run runs the browser headless with args and returns its standard output.
func Run(t *testing.T, browser string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
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

// Layout is what the probe measured of a page at one window width.
type Layout struct {
	ScrollWidth, InnerWidth int
	// SVGs counts the plots; Outside those that reach past the window with no
	// scrolling container around them.
	SVGs, Outside int
	// Bars and Whiskers count the marked bars and whiskers; OffCentre lists each
	// whisker further than half a pixel from its bar's centre line.
	Bars, Whiskers int
	OffCentre      []string
	// Legends counts the legends; Overlaps lists each one that lies on its plot's data
	// area or reaches out of its plot.
	Legends  int
	Overlaps []string
	// Tables counts the tables; Clipped lists each one with a cell whose content does
	// not fit it, or that reaches past the window with no scrolling container around
	// it. Pre counts <pre> blocks (tables drawn as text).
	Tables  int
	Clipped []string
	Pre     int
	// Texts counts the plots' texts (titles, axes' labels, ticks, legends);
	// TextOverlaps lists each two whose boxes (rotated as drawn) overlap, TextOutside each
	// one that reaches out of its plot, LongTicks each number longer than
	// MaxTickLabel characters.
	Texts        int
	TextOverlaps []string
	TextOutside  []string
	LongTicks    []string
	// Panels counts the plots with a data area; EmptyPanels lists each with no mark
	// drawn on it.
	Panels      int
	EmptyPanels []string
}

// MaxTickLabel is the longest a number on a plot may be written (report.MaxTickLabel).
const MaxTickLabel = 8

// probe is added to a copy of the page (the page itself has no script). It reads the
// layout the browser made, after it made it: no timing enters it.
var probe = `<script>
(function () {
  var w = window.innerWidth, out = {ScrollWidth: document.documentElement.scrollWidth, InnerWidth: w,
    SVGs: 0, Outside: 0, Bars: 0, Whiskers: 0, OffCentre: [], Legends: 0, Overlaps: [], Tables: 0, Clipped: [], Pre: document.querySelectorAll("pre").length,
    Texts: 0, TextOverlaps: [], TextOutside: [], LongTicks: [], Panels: 0, EmptyPanels: []};
  // corners is a text's box as drawn: its own box, trimmed of the font's leading
  // (a tenth of its height above and below), through the transforms that place and
  // rotate it, in the window's pixels.
  function corners(s, t) {
    var b = t.getBBox(), m = t.getScreenCTM(), trim = b.height * 0.1;
    return [[b.x, b.y + trim], [b.x + b.width, b.y + trim], [b.x + b.width, b.y + b.height - trim], [b.x, b.y + b.height - trim]].map(function (c) {
      var p = s.createSVGPoint(); p.x = c[0]; p.y = c[1]; p = p.matrixTransform(m); return [p.x, p.y];
    });
  }
  // apart says two convex quadrilaterals do not overlap by more than half a pixel:
  // some edge's normal separates them (the separating axis theorem).
  function apart(a, b) {
    var polys = [a, b];
    for (var k = 0; k < 2; k++) {
      var q = polys[k];
      for (var i = 0; i < 4; i++) {
        var p1 = q[i], p2 = q[(i + 1) % 4], nx = p2[1] - p1[1], ny = p1[0] - p2[0], len = Math.hypot(nx, ny);
        if (len === 0) continue;
        nx /= len; ny /= len;
        var amin = Infinity, amax = -Infinity, bmin = Infinity, bmax = -Infinity;
        a.forEach(function (p) { var d = p[0] * nx + p[1] * ny; amin = Math.min(amin, d); amax = Math.max(amax, d); });
        b.forEach(function (p) { var d = p[0] * nx + p[1] * ny; bmin = Math.min(bmin, d); bmax = Math.max(bmax, d); });
        if (amax <= bmin + 0.5 || bmax <= amin + 0.5) return true;
      }
    }
    return false;
  }
  var number = /^[-\u2212+]?[0-9][0-9.,]*(e[-+]?[0-9]+)?[kMG%]?$/;
  function scrolls(e) {
    for (e = e.parentElement; e; e = e.parentElement) {
      var o = getComputedStyle(e).overflowX;
      if (o === "auto" || o === "scroll") return e.getBoundingClientRect().right <= w + 1;
    }
    return false;
  }
  function title(s) { var t = s.querySelector("text"); return t ? t.textContent : "?"; }
  document.querySelectorAll("svg").forEach(function (s, i) {
    out.SVGs++;
    var r = s.getBoundingClientRect();
    if ((r.right > w + 1 || r.left < -1) && !scrolls(s)) out.Outside++;
    var bars = {};
    s.querySelectorAll(".lb-bar").forEach(function (b) {
      out.Bars++;
      var br = b.getBoundingClientRect();
      bars[b.dataset.s + "/" + b.dataset.c] = (br.left + br.right) / 2;
    });
    s.querySelectorAll(".lb-whisker").forEach(function (k) {
      out.Whiskers++;
      var kr = k.getBoundingClientRect(), x = (kr.left + kr.right) / 2, b = bars[k.dataset.s + "/" + k.dataset.c];
      if (b === undefined || Math.abs(b - x) > 0.5) out.OffCentre.push(title(s) + ": whisker " + k.dataset.s + "/" + k.dataset.c + " at " + x.toFixed(2) + ", bar at " + b);
    });
    var texts = [];
    s.querySelectorAll("text").forEach(function (t) {
      var txt = t.textContent.trim();
      if (txt === "") return;
      out.Texts++;
      var c = corners(s, t);
      texts.push({txt: txt, c: c});
      if (c.some(function (p) { return p[0] < r.left - 1 || p[0] > r.right + 1 || p[1] < r.top - 1 || p[1] > r.bottom + 1; })) out.TextOutside.push(title(s) + ": " + JSON.stringify(txt) + " reaches out of its plot");
      if (number.test(txt) && txt.length > ` + strconv.Itoa(MaxTickLabel) + `) out.LongTicks.push(title(s) + ": " + JSON.stringify(txt));
    });
    for (var i = 0; i < texts.length; i++) for (var j = i + 1; j < texts.length; j++) {
      if (!apart(texts[i].c, texts[j].c)) out.TextOverlaps.push(title(s) + ": " + JSON.stringify(texts[i].txt) + " on " + JSON.stringify(texts[j].txt));
    }
    var data = s.querySelector(".lb-data");
    if (data) {
      // The marks are what is drawn on the data area after it (the plotters) and before
      // the legend; the grid comes before it.
      out.Panels++;
      var d = data.getBoundingClientRect(), after = false, marks = 0;
      s.querySelectorAll("path, text").forEach(function (e) {
        if (e === data) { after = true; return; }
        if (!after || e.classList.contains("lb-legend")) { if (after) after = null; return; }
        if (after === null) return;
        var b = e.getBoundingClientRect();
        if ((b.width > 0 || b.height > 0) && b.left < d.right && d.left < b.right && b.top < d.bottom && d.top < b.bottom) marks++;
      });
      if (marks === 0) out.EmptyPanels.push(title(s) + ": nothing drawn on its data");
    }
    s.querySelectorAll(".lb-legend").forEach(function (l) {
      out.Legends++;
      var lr = l.getBoundingClientRect();
      if (lr.left < r.left - 1 || lr.right > r.right + 1 || lr.top < r.top - 1 || lr.bottom > r.bottom + 1) out.Overlaps.push(title(s) + ": legend out of its plot");
      if (data) {
        var d = data.getBoundingClientRect();
        if (lr.left < d.right && d.left < lr.right && lr.top < d.bottom && d.top < lr.bottom) out.Overlaps.push(title(s) + ": legend on the data");
      }
    });
  });
  document.querySelectorAll("table").forEach(function (t, i) {
    out.Tables++;
    var name = (t.querySelector("caption") || t.querySelector("th") || {textContent: "table " + i}).textContent;
    var tr = t.getBoundingClientRect();
    if ((tr.right > w + 1 || tr.left < -1) && !scrolls(t)) { out.Clipped.push(name + ": past the window"); return; }
    t.querySelectorAll("td, th").forEach(function (c) {
      if (c.scrollWidth > c.clientWidth + 1) out.Clipped.push(name + ": a cell clips " + c.textContent.slice(0, 40));
    });
  });
  document.body.setAttribute("data-layout", JSON.stringify(out));
})();
</script>`

// Measure opens page (an HTML document) at a window width and measures it.
func Measure(t *testing.T, browser, page string, width int) Layout {
	t.Helper()
	path := filepath.Join(t.TempDir(), fmt.Sprintf("probe-%d.html", width))
	if err := os.WriteFile(path, []byte(strings.Replace(page, "</body>", probe+"</body>", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	dom := string(Run(t, browser, fmt.Sprintf("--window-size=%d,2000", width), "--virtual-time-budget=5000", "--dump-dom", "file://"+path))
	m := regexp.MustCompile(`data-layout="([^"]*)"`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the probe did not run:\n%.2000s", dom)
	}
	var l Layout
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &l); err != nil {
		t.Fatalf("probe %q: %v", m[1], err)
	}
	return l
}

// Check measures page at 1400 and 800 px and fails the test for what a reader would
// see wrong: a page wider than the window, a plot past it, a whisker off its bar's
// centre, a legend on the data, a clipped table, a table drawn as text, two texts of a
// plot on each other or one out of its plot, a number longer than MaxTickLabel, a plot
// with nothing drawn on its data. It returns the
// layouts for further checks.
func Check(t *testing.T, page string) []Layout {
	t.Helper()
	browser := Chromium(t)
	var out []Layout
	for _, width := range []int{1400, 800} {
		l := Measure(t, browser, page, width)
		t.Logf("%d px: document %d px wide in a %d px window; %d plots (%d outside), %d bars, %d whiskers, %d legends, %d texts, %d panels, %d tables",
			width, l.ScrollWidth, l.InnerWidth, l.SVGs, l.Outside, l.Bars, l.Whiskers, l.Legends, l.Texts, l.Panels, l.Tables)
		if l.ScrollWidth > l.InnerWidth {
			t.Errorf("%d px: the page is %d px wide: something scrolls sideways", width, l.ScrollWidth)
		}
		if l.Outside > 0 {
			t.Errorf("%d px: %d plots reach past the window", width, l.Outside)
		}
		for _, s := range l.OffCentre {
			t.Errorf("%d px: %s", width, s)
		}
		for _, s := range l.Overlaps {
			t.Errorf("%d px: %s", width, s)
		}
		for _, s := range l.Clipped {
			t.Errorf("%d px: table clipped: %s", width, s)
		}
		if l.Pre > 0 {
			t.Errorf("%d px: %d <pre> blocks: tables are tables", width, l.Pre)
		}
		for _, s := range l.TextOverlaps {
			t.Errorf("%d px: texts overlap: %s", width, s)
		}
		for _, s := range l.TextOutside {
			t.Errorf("%d px: %s", width, s)
		}
		for _, s := range l.LongTicks {
			t.Errorf("%d px: a number longer than %d characters: %s", width, MaxTickLabel, s)
		}
		for _, s := range l.EmptyPanels {
			t.Errorf("%d px: an empty panel: %s", width, s)
		}
		out = append(out, l)
	}
	return out
}

// Screenshot takes a picture of the page at a width and fails the test if it is
// blank; with LOGBENCH_KEEP_SCREENSHOT=PREFIX it is kept as PREFIX-WIDTH.png.
func Screenshot(t *testing.T, page string, width int) {
	t.Helper()
	browser := Chromium(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "page.html")
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(dir, "shot.png")
	Run(t, browser, "--screenshot="+shot, fmt.Sprintf("--window-size=%d,2400", width), "file://"+path)
	body, err := os.ReadFile(shot)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != width {
		t.Errorf("screenshot %d px wide, want %d", img.Bounds().Dx(), width)
	}
	if inked, colours := ink(img); inked < 0.02 || colours < 50 {
		t.Fatalf("the screenshot looks blank: %.1f%% of pixels not white, %d colours", inked*100, colours)
	}
	if keep := os.Getenv("LOGBENCH_KEEP_SCREENSHOT"); keep != "" {
		os.WriteFile(fmt.Sprintf("%s-%d.png", strings.TrimSuffix(keep, ".png"), width), body, 0o644)
	}
}

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

// SelfContained fails the test if the page fetches anything or runs a script: every
// URL in it is an SVG namespace.
func SelfContained(t *testing.T, page string) {
	t.Helper()
	for _, banned := range []string{"<script", "<link", "<img", "<iframe", "@import", "url(http"} {
		if strings.Contains(page, banned) {
			t.Errorf("the page has %q", banned)
		}
	}
	for _, u := range regexp.MustCompile(`https?://[^"'\s<>)]+`).FindAllString(page, -1) {
		if u != "http://www.w3.org/2000/svg" && u != "http://www.w3.org/1999/xlink" {
			t.Errorf("the page names %s", u)
		}
	}
}
