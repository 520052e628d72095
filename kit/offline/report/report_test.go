package report

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/internal/browsertest"
)

type limits struct {
	APICPUs     float64 `json:"api_cpus"`
	MemoryBytes int64   `json:"memory_bytes"`
}

type params struct {
	APIs    []string          `json:"apis"`
	Rate    float64           `json:"rate_rps"`
	Wrk     bool              `json:"wrk"`
	LogOpts map[string]string `json:"log_opts"`
	Limits  limits            `json:"limits"`
	Command string            `json:"command"`
}

func TestParametersAreATableOfTheManifestsJSON(t *testing.T) {
	a := params{APIs: []string{"node"}, Rate: 11.79, Wrk: true, Limits: limits{APICPUs: 1, MemoryBytes: 512 << 20}}
	b := params{APIs: []string{"node", "go"}, Rate: 11.79, LogOpts: map[string]string{"mode": "non-blocking"}, Limits: limits{APICPUs: 1, MemoryBytes: 512 << 20}, Command: "<b>x</b>"}
	tab, err := ParamsTable([]string{"A", "B"}, []any{a, b})
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	differs := map[string]bool{}
	for i, r := range tab.Rows {
		rows[r[0]] = r[1:]
		differs[r[0]] = tab.Differs[i]
	}
	for key, want := range map[string][]string{
		"apis": {"node", "node, go"}, "rate_rps": {"11.79", "11.79"}, "wrk": {"yes", "no"}, "log_opts": {"—", "—"},
		"log_opts.mode": {"—", "non-blocking"}, "limits.api_cpus": {"1", "1"}, "limits.memory_bytes": {"536870912 (512MiB)", "536870912 (512MiB)"},
	} {
		if got := rows[key]; strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s: %q, want %q", key, got, want)
		}
	}
	if !differs["apis"] || differs["rate_rps"] {
		t.Errorf("differs: %v", differs)
	}
	// On the page: a table, escaped, never a struct dump.
	var buf bytes.Buffer
	if err := Write(&buf, Page{Experiment: "toy", Bundles: []Status{{Label: "<i>A</i>", OK: true}}, Sections: []Section{{ID: "p", Title: "Parameters", Tables: []Table{tab}}}}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, want := range []string{"<th>limits.api_cpus</th>", "&lt;b&gt;x&lt;/b&gt;", "&lt;i&gt;A&lt;/i&gt;", `<tr class="differs"><th>apis</th>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, banned := range []string{"{APIs:", "<pre", "<b>x", "<i>A"} {
		if strings.Contains(page, banned) {
			t.Errorf("the page has %q", banned)
		}
	}
}

// toyBars are two bundles' bars with intervals and a published figure, on a linear and
// a log axis.
func toyBars() []Figure {
	g := func() *Grouped {
		return &Grouped{
			Series: []Series{
				{Name: "a bundle with a long name", Colour: Colour(0), Values: []Value{{2186, 1123, 3248}, {2831, 1607, 4056}, {5939, 1630, 10248}}},
				{Name: "b", Colour: Colour(1), Values: []Value{Absent, {3000, 2900, 3100}, {5956, 5200, 6700}}},
			},
			Published: []float64{1100, NaN, 4500},
		}
	}
	return []Figure{Bars("req/s", "req/s", []string{"console+file", "console", "none"}, g(), false), Bars("log", "ms", []string{"x", "y", "z"}, g(), true)}
}

// Every whisker is drawn on its bar's centre line, in the SVG's own numbers.
func TestWhiskersStandOnTheirBarsCentres(t *testing.T) {
	pathX := regexp.MustCompile(`[ML]([0-9.]+),`)
	for _, f := range toyBars() {
		svg := string(f.SVG)
		if f.Err != "" {
			t.Fatal(f.Err)
		}
		bars := map[string]float64{}
		for _, m := range regexp.MustCompile(`<path class="lb-bar" data-s="(\d+)" data-c="(\d+)" d="([^"]*)"`).FindAllStringSubmatch(svg, -1) {
			lo, hi := 1e9, -1e9
			for _, x := range pathX.FindAllStringSubmatch(m[3], -1) {
				v, _ := strconv.ParseFloat(x[1], 64)
				lo, hi = min(lo, v), max(hi, v)
			}
			bars[m[1]+"/"+m[2]] = (lo + hi) / 2
		}
		whiskers := regexp.MustCompile(`<path class="lb-whisker" data-s="(\d+)" data-c="(\d+)" d="([^"]*)"`).FindAllStringSubmatch(svg, -1)
		if len(bars) != 5 || len(whiskers) != 5 {
			t.Fatalf("%s: %d bars, %d whiskers, want 5 and 5", f.Title, len(bars), len(whiskers))
		}
		for _, m := range whiskers {
			lo, hi := 1e9, -1e9
			for _, x := range pathX.FindAllStringSubmatch(m[3], -1) {
				v, _ := strconv.ParseFloat(x[1], 64)
				lo, hi = min(lo, v), max(hi, v)
			}
			if c := (lo + hi) / 2; c-bars[m[1]+"/"+m[2]] > 0.01 || bars[m[1]+"/"+m[2]]-c > 0.01 {
				t.Errorf("%s: whisker %s/%s at %.3f, its bar at %.3f", f.Title, m[1], m[2], c, bars[m[1]+"/"+m[2]])
			}
		}
		if strings.Count(svg, `class="lb-published"`) != 2 || strings.Count(svg, `class="lb-legend"`) != 1 || strings.Count(svg, `class="lb-data"`) != 1 {
			t.Errorf("%s: the published marks, legend or data area are not marked", f.Title)
		}
		if strings.Contains(svg, "@@lb:") || strings.Contains(svg, "#-8000") {
			t.Errorf("%s: a tag or a broken colour is left in the SVG", f.Title)
		}
	}
}

func toyPage(t *testing.T, figs []Figure) string {
	t.Helper()
	var buf bytes.Buffer
	wide := Table{Caption: "wide", Header: []string{"condition"}, Text: 1}
	row := []string{"node/console+file"}
	for i := range 20 {
		wide.Header = append(wide.Header, "column "+strconv.Itoa(i))
		row = append(row, "12345.678")
	}
	wide.Rows = [][]string{row}
	err := Write(&buf, Page{Experiment: "toy", Version: "test", Bundles: []Status{{Label: "a", Colour: "#0072b2", OK: true, Summary: "OK"}},
		Sections: []Section{{ID: "s", Title: "Bars", Figures: figs, Tables: []Table{wide}}}})
	if err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// The browser checks find what they are for: a page drawn right passes, and a whisker
// moved off its bar and a legend moved onto the data are caught.
func TestTheBrowserChecksCatchWhatTheyLookFor(t *testing.T) {
	browser := browsertest.Chromium(t)
	good := toyPage(t, toyBars())
	browsertest.SelfContained(t, good)
	for _, l := range browsertest.Check(t, good) {
		if l.SVGs != 2 || l.Whiskers != 10 || l.Legends != 2 || l.Tables != 1 {
			t.Errorf("%+v", l)
		}
	}
	// Break the drawing: shift the first whisker, and lay the legend over the data.
	bad := regexp.MustCompile(`(<path class="lb-whisker" data-s="0" data-c="0" d="M)([0-9.]+)`).ReplaceAllStringFunc(good, func(m string) string {
		return m[:strings.LastIndex(m, "M")+1] + "20"
	})
	bad = strings.Replace(bad, `<path class="lb-legend" d="M`, `<path class="lb-legend" d="M100,100L200,100L200,150L100,150Z M`, 1)
	l := browsertest.Measure(t, browser, bad, 800)
	if len(l.OffCentre) == 0 || len(l.Overlaps) == 0 {
		t.Errorf("the broken page passes: %+v", l)
	}
	if len(l.TextOverlaps)+len(l.TextOutside)+len(l.LongTicks)+len(l.EmptyPanels) > 0 {
		t.Errorf("the page drawn right has text or panel faults: %+v", l)
	}
	// Break the texts and a panel: a tick written with a double's every digit, a
	// legend's name moved onto another's, a title moved out of its plot, and a chart
	// with nothing on its data.
	empty := NewChart("nothing", "x (s)", "y (ms)")
	empty.P.X.Min, empty.P.X.Max, empty.P.Y.Min, empty.P.Y.Max = 0, 1, 0, 1
	broken := toyPage(t, append(toyBars(), empty.Render()))
	broken = strings.Replace(broken, ">2000</text>", ">0.7000000000000001</text>", 1)
	if a := regexp.MustCompile(`<text (x="[0-9.]+" y="-?[0-9.]+")[^>]*>a bundle with a long name</text>`).FindStringSubmatch(broken); a != nil {
		broken = regexp.MustCompile(`<text x="[0-9.]+" y="-?[0-9.]+"([^>]*>b</text>)`).ReplaceAllString(broken, `<text `+a[1]+`$1`)
	}
	broken = strings.Replace(broken, `>published</text>`, ` dx="-60" dy="-6">published</text>`, 1)
	broken = strings.Replace(broken, `>req/s</text>`, ` dy="-400">req/s</text>`, 1)
	l = browsertest.Measure(t, browser, broken, 1400)
	if len(l.LongTicks) == 0 || len(l.TextOverlaps) == 0 || len(l.TextOutside) == 0 || len(l.EmptyPanels) != 1 {
		t.Errorf("the broken texts pass: long ticks %q, overlaps %q, outside %q, empty %q", l.LongTicks, l.TextOverlaps, l.TextOutside, l.EmptyPanels)
	}
	// A table that does not fit a narrow window scrolls in its own box; one that cannot
	// is clipped.
	clipped := strings.Replace(good, "<table>", `<table style="width: 300px; table-layout: fixed; white-space: nowrap">`, 1)
	clipped = strings.Replace(clipped, "</style>", "td { overflow: hidden; }</style>", 1)
	if l := browsertest.Measure(t, browser, clipped, 800); len(l.Clipped) == 0 {
		t.Errorf("a clipped table passes: %+v", l)
	}
}
