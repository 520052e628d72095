package experiments

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/figure"
)

// One archived bundle of each experiment, the newest of its kind.
var sameIntervalBundles = []string{
	"../../results/2026-11-30-vm2/fifo-py.tar.gz",
	"../../results/2026-12-02-vm/qps-warm20.tar.gz",
	"../../results/2026-11-30-vm2/lc-final.tar.gz",
	"../../results/2026-12-01-vm/your-api-stdlib.tar.gz",
	"../../results/2026-12-02-vm/log-driver.tar.gz",
}

// intervalText finds every interval a page or a summary states: "[1630, 10248]".
var intervalText = regexp.MustCompile(`\[(-?[0-9][0-9.e+-]*|-), (-?[0-9][0-9.e+-]*|-)\]`)

// valueBeforeInterval finds a value stated just before an interval, as the kit writes
// a figure: "2.25 [1.43, 3.08]", "~2.43?  [-0.0504, 4.91]" (a mark before or after it).
var valueBeforeInterval = regexp.MustCompile(`(?:^|[\s>(])~?(-?[0-9][0-9.e+-]*)\??[ \t]+(` + intervalText.String() + `)`)

// TestOneFigureHasOneIntervalEverywhere: for every experiment, a figure's interval is
// the one figure.Of gives over its runs, whichever command shows it. compare's JSON
// holds exactly the estimate of every figure; every interval verify's summary, compare's
// text and the report state is the interval of one of the bundle's figures, written
// by the one formatter, and the value stated just before it is that figure's, so no
// command can show a figure with an interval or a value of its own.
func TestOneFigureHasOneIntervalEverywhere(t *testing.T) {
	for _, path := range sameIntervalBundles {
		t.Run(filepath.Base(path), func(t *testing.T) {
			files, err := bundle.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			exp, err := Of(files)
			if err != nil {
				t.Fatal(err)
			}
			res := exp.Verify(files)
			if !res.OK() {
				t.Fatalf("does not verify: %v", res.Problems)
			}
			rows, err := exp.Figures(res)
			if err != nil {
				t.Fatal(err)
			}
			stated := map[string]bool{}
			// valuesOf are the values stated with each interval: a figure's value must be
			// stated beside its interval, never another number.
			valuesOf := map[string]map[string]bool{}
			estimates := map[string]figure.Estimate{}
			withInterval := 0
			for _, r := range rows {
				e := compare.Estimate(r)
				estimates[figureKey(r.Metric, r.Condition)] = e
				if e.HasInterval() {
					stated[e.IntervalText()] = true
					if valuesOf[e.IntervalText()] == nil {
						valuesOf[e.IntervalText()] = map[string]bool{}
					}
					valuesOf[e.IntervalText()][figure.Text(e.Value)] = true
					withInterval++
				}
			}
			if withInterval == 0 {
				t.Fatal("no figure of the bundle has an interval")
			}

			// compare's JSON: every figure of the bundle, with its estimate's interval.
			sources := []experiment.Source{{Label: "a", Result: res}, {Label: "b", Result: res}}
			var js, text bytes.Buffer
			if err := exp.Compare(&js, &bytes.Buffer{}, sources, experiment.CompareOptions{Format: "json", Wide: true}); err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Rows []struct {
					Metric    string            `json:"metric"`
					Condition map[string]string `json:"condition"`
					Source    string            `json:"source"`
					Value     *float64          `json:"value"`
					Low       *float64          `json:"low"`
					High      *float64          `json:"high"`
				} `json:"rows"`
			}
			if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			checked := 0
			for _, r := range doc.Rows {
				if r.Source != "a" {
					continue
				}
				e, ok := estimates[jsonKey(r.Metric, r.Condition, rows)]
				if !ok {
					continue
				}
				checked++
				if !sameNumber(r.Low, e.Low) || !sameNumber(r.High, e.High) || !sameNumber(r.Value, e.Value) {
					t.Errorf("compare --format json: %s %v: %v [%v, %v], the figure is %v [%v, %v]",
						r.Metric, r.Condition, deref(r.Value), deref(r.Low), deref(r.High), e.Value, e.Low, e.High)
				}
			}
			if checked == 0 {
				t.Fatal("compare's JSON holds none of the bundle's figures")
			}

			// Every interval any other command states is one of the figures'.
			if err := exp.Compare(&text, &bytes.Buffer{}, sources, experiment.CompareOptions{Format: "text", Wide: true}); err != nil {
				t.Fatal(err)
			}
			var page bytes.Buffer
			if err := exp.Report(&page, sources[:1], "test"); err != nil {
				t.Fatal(err)
			}
			valuesChecked := 0
			for name, out := range map[string]string{"verify": res.Summary(), "compare": text.String(), "report": page.String()} {
				for _, m := range intervalText.FindAllString(out, -1) {
					if !stated[m] {
						t.Errorf("%s states the interval %s, which is no figure's of the bundle (the figures': %d intervals)", name, m, len(stated))
					}
				}
				for _, m := range valueBeforeInterval.FindAllStringSubmatch(out, -1) {
					value, interval := m[1], m[2]
					valuesChecked++
					if stated[interval] && !valuesOf[interval][value] {
						t.Errorf("%s states %s %s, but the figure of that interval is %v", name, value, interval, keys(valuesOf[interval]))
					}
				}
			}
			if valuesChecked == 0 {
				t.Error("no output states a value beside an interval: the values went unchecked")
			}
			// The page opens with its answer, whose figures are the bundle's: it states
			// some with their intervals, each one a figure's (checked with the page above).
			answer, _, _ := strings.Cut(page.String()[strings.Index(page.String(), `<section id="answer">`)+1:], "</section>")
			if !strings.Contains(page.String(), `<section id="answer">`) || len(valueBeforeInterval.FindAllString(answer, -1)) == 0 {
				t.Errorf("the report's answer states no figure with its interval:\n%s", answer)
			}
		})
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func figureKey(metric string, cond []compare.KV) string {
	var b strings.Builder
	b.WriteString(metric)
	for _, kv := range cond {
		fmt.Fprintf(&b, "|%s=%s", kv.Key, kv.Value)
	}
	return b.String()
}

// jsonKey is figureKey of a JSON row, its condition in the order the bundle's rows give
// their keys.
func jsonKey(metric string, cond map[string]string, rows []compare.Row) string {
	for _, r := range rows {
		if r.Metric != metric || len(r.Condition) != len(cond) {
			continue
		}
		match := true
		for _, kv := range r.Condition {
			if cond[kv.Key] != kv.Value {
				match = false
				break
			}
		}
		if match {
			return figureKey(metric, r.Condition)
		}
	}
	return ""
}

func sameNumber(have *float64, want float64) bool {
	if have == nil {
		return math.IsNaN(want)
	}
	return *have == want || math.Abs(*have-want) <= 1e-9*math.Max(math.Abs(*have), math.Abs(want))
}

func deref(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}
