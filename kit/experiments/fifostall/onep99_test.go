package fifostall_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/experiments/fifostall"

	"github.com/logbench/logbench/internal/fifostalltest"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/figure"
	"github.com/logbench/logbench/results/reference"
)

// TestEveryOutputStatesTheOneP99: for every condition of the archived fifo-py bundle,
// the p99 that verify's line, reproduce's summary, the report's table, compare's JSON
// and conditions.csv's p99_run_mean_ms state is one number, compare.Estimate of the
// condition's p99 row; and the p99 of the pooled requests, wherever it is shown, is
// conditions.csv's p99_ms under that name, never under "p99" alone.
func TestEveryOutputStatesTheOneP99(t *testing.T) {
	res := archived(t, "2026-11-30-vm2/fifo-py.tar.gz")
	if !res.OK() {
		t.Fatalf("does not verify: %v", res.Problems)
	}
	b, tb := fifostalltest.Of(res), res.Own.(*fifostall.TabularBundle)
	rows := fifostall.Figures(tb.Runs, tb.Rows, fifostall.Conditions(tb))
	figs := compare.StatedOf(rows)
	pub, err := reference.Load()
	if err != nil {
		t.Fatal(err)
	}
	summary := fifostall.Published(tb, pub)
	column := func(header []string, name string) int {
		i := slices.Index(header, name)
		if i < 0 {
			t.Fatalf("no column %q in %q", name, header)
		}
		return i
	}
	sumP99, sumPooled := column(summary.Header, "p99_ms"), column(summary.Header, "p99_pooled_ms")
	table := fifostall.ConditionTableOf("fifo-py", tb, rows)
	repP99, repPooled := column(table.Header, "p99 ms"), column(table.Header, "p99 of the pooled requests ms")

	var js bytes.Buffer
	sources := []experiment.Source{{Label: "fifo-py", Result: res}}
	if err := (fifostall.Experiment).Compare(&js, &bytes.Buffer{}, sources, experiment.CompareOptions{Format: "json", Wide: true}); err != nil {
		t.Fatal(err)
	}
	var doc struct{ Rows []compare.JSONRow }
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	jsonValue := func(metric string, c fifostall.ConditionRow) float64 {
		for _, r := range doc.Rows {
			if r.Metric == metric && r.Condition["api"] == c.API && r.Condition["mode"] == c.Mode && r.Condition["reader"] == c.Reader && r.Value != nil {
				return *r.Value
			}
		}
		t.Fatalf("compare's JSON has no %s of %s/%s/%s", metric, c.API, c.Mode, c.Reader)
		return 0
	}

	derived := fifostalltest.Derived(b.Runs, b.Manifest.Parameters)
	if len(derived) != 14 || len(b.Conditions) != 14 {
		t.Fatalf("%d conditions derived, %d read, want 14", len(derived), len(b.Conditions))
	}
	differs := 0
	for i, c := range derived {
		key := fifostall.ConditionKey(c.API, c.Mode, c.Reader)
		p99 := figs.Of(key, fifostall.MetricP99)
		if !p99.HasInterval() || p99.Runs != 3 {
			t.Fatalf("%s: p99 %+v, want an interval over 3 runs", key, p99)
		}
		want, pooled := p99.Stated(), figure.Text(float64(c.P99Ms))
		if want != figure.Text(p99.Value)+" "+p99.IntervalText() {
			t.Fatalf("%s: %q is not the value and its interval", key, want)
		}
		if figure.Text(p99.Value) != pooled {
			differs++
		}

		line := res.Trust[slices.IndexFunc(res.Trust, func(l string) bool { return strings.HasPrefix(l, key+":") })]
		if !strings.Contains(line, "; p99 "+want+" ms over 3 runs;") || !strings.Contains(line, "; p99 of the pooled requests "+pooled+" ms, ") {
			t.Errorf("verify: %q does not state p99 %s and the p99 of the pooled requests %s", line, want, pooled)
		}
		row := summary.Rows[i]
		if got := strings.Replace(row[sumP99], fifostall.NotResolved, "", 1); got != want {
			t.Errorf("reproduce's summary: %s p99_ms %q, want %q", key, got, want)
		}
		if got := strings.Replace(row[sumPooled], fifostall.NotResolved, "", 1); got != pooled {
			t.Errorf("reproduce's summary: %s p99_pooled_ms %q, want %q", key, got, pooled)
		}
		if cells := table.Rows[i]; cells[0] != key || cells[repP99] != want || cells[repPooled] != pooled {
			t.Errorf("report: %s p99 %q, pooled %q; want %q, %q", cells[0], cells[repP99], cells[repPooled], want, pooled)
		}
		if v := jsonValue(fifostall.MetricP99, c); v != p99.Value {
			t.Errorf("compare's JSON: %s p99 %v, the figure is %v", key, v, p99.Value)
		}
		if v := jsonValue(fifostall.MetricP99Pooled, c); v != float64(c.P99Ms) {
			t.Errorf("compare's JSON: %s p99 of the pooled requests %v, conditions.csv's %v", key, v, c.P99Ms)
		}
		if float64(c.P99RunMeanMs) != p99.Value || float64(c.P99RunCILowMs) != p99.Low || float64(c.P99RunCIHighMs) != p99.High {
			t.Errorf("conditions.csv: %s p99_run_mean_ms %v [%v, %v], the figure is %v [%v, %v]",
				key, c.P99RunMeanMs, c.P99RunCILowMs, c.P99RunCIHighMs, p99.Value, p99.Low, p99.High)
		}
	}
	// The two p99s differ in most conditions: had any output shown one under the
	// other's name, the checks above would have seen it.
	if differs < 7 {
		t.Fatalf("the p99 over runs and of the pooled requests differ in only %d of 14 conditions", differs)
	}
}

// TestOneRunStatesAValueAndSaysItHasNoInterval: a bundle of one round states each
// figure without an interval, and says why.
func TestOneRunStatesAValueAndSaysItHasNoInterval(t *testing.T) {
	res := verified(t, fifostalltest.Options{Modes: []string{"short1"}, Readers: []string{"fast"}, Rounds: 1, Duration: time.Second})
	if !res.OK() || len(res.Trust) != 1 {
		t.Fatalf("%v %q", res.Problems, res.Trust)
	}
	if !strings.Contains(res.Trust[0], " ms from one run, no interval;") || strings.Contains(res.Trust[0], "[") {
		t.Errorf("verify: %q", res.Trust[0])
	}
	pub, err := reference.Load()
	if err != nil {
		t.Fatal(err)
	}
	row := fifostall.Published(res.Own.(*fifostall.TabularBundle), pub).Rows[0]
	if note := row[len(row)-1]; !strings.Contains(note, "one run: no intervals") || strings.Contains(strings.Join(row, " "), "[") {
		t.Errorf("reproduce's summary: %q", row)
	}
}
