package experiment_test

import (
	"flag"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/experiment"
)

// rates is a ListFlag as an experiment declares one: requests a second, 1 to 1000.
var rates = experiment.ListFlag[float64]{Name: "rates", Usage: "offered loads", What: "rates",
	Parse: func(s string) (float64, error) { return strconv.ParseFloat(s, 64) }, Text: func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) },
	Syntax: "want rates such as 200,1000", In: func(v float64) bool { return v >= 1 && v <= 1000 }, Range: "want 1 to 1000"}

// A ListFlag binds its values in order, repeats kept, writes them back as given, and
// refuses a value that does not parse with its syntax.
func TestListFlagBindsAndWritesBack(t *testing.T) {
	have := []float64{500}
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	rates.Bind(fs, &have)
	if s := fs.Lookup("rates").Value.String(); s != "500" {
		t.Errorf("default %q, want 500", s)
	}
	if err := fs.Parse([]string{"--rates", "200, 1e3,200"}); err != nil {
		t.Fatal(err)
	}
	if want := []float64{200, 1000, 200}; len(have) != 3 || have[0] != want[0] || have[1] != want[1] || have[2] != want[2] {
		t.Errorf("have %v, want %v", have, want)
	}
	if s := fs.Lookup("rates").Value.String(); s != "200,1000,200" {
		t.Errorf("written back %q", s)
	}
	if texts := rates.Texts(have); len(texts) != 3 || texts[0] != "200" || texts[1] != "1000" || texts[2] != "200" {
		t.Errorf("Texts(%v) = %q", have, texts)
	}
	if err := fs.Parse([]string{"--rates", "200,fast"}); err == nil || !strings.Contains(err.Error(), "want rates such as 200,1000") {
		t.Errorf("a value that does not parse: %v", err)
	}
}

// Check refuses, in this order, no value, a value out of range and a value twice.
func TestListFlagCheck(t *testing.T) {
	many := make([]float64, experiment.MaxListValues+1)
	for i := range many {
		many[i] = float64(i + 1)
	}
	for _, tc := range []struct {
		have []float64
		want string
	}{
		{nil, "--rates: want 1 to 64 rates"}, {many, "--rates: want 1 to 64 rates"},
		{[]float64{5, 0, 5}, "--rates 0: want 1 to 1000"}, {[]float64{5, 6, 5}, "--rates: 5 given twice"}, {[]float64{5, 6}, ""},
	} {
		err := rates.Check(tc.have)
		if have := errText(err); have != tc.want {
			t.Errorf("Check(%v) = %q, want %q", tc.have, have, tc.want)
		}
	}
}

// WithinSeconds says the bounds as the duration flags take them.
func TestWithinSeconds(t *testing.T) {
	if err := experiment.WithinSeconds("duration", 1, 1, 3600); err != nil {
		t.Errorf("the least: %v", err)
	}
	if have, want := errText(experiment.WithinSeconds("duration", 0.5, 1, 3600)), "--duration 500ms: want 1s to 1h0m0s"; have != want {
		t.Errorf("have %q, want %q", have, want)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
