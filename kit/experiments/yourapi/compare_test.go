package yourapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/comparetest"
	"github.com/logbench/logbench/kit/experiment"
)

const stdlibBundle = "../../../results/2026-12-01-vm/your-api-stdlib.tar.gz"

// One bundle alone is compared within itself, in every format: each configuration a
// column, set against the baseline configuration the manifest names.
func TestCompareOneArchivedBundleWithinItself(t *testing.T) {
	stdlib := comparetest.Archived(t, Experiment, "your-api-stdlib", stdlibBundle)
	warn := comparetest.EveryFormat(t, Experiment, "stdlib", []experiment.Source{stdlib}, false)
	comparetest.Golden(t, "archived-stdlib.warnings.txt", warn)

	var text bytes.Buffer
	if err := (Experiment).Compare(&text, &bytes.Buffer{}, []experiment.Source{stdlib}, experiment.CompareOptions{Format: "text", Wide: true}); err != nil {
		t.Fatal(err)
	}
	comparetest.Golden(t, "archived-stdlib.wide.txt", text.Bytes())
	for _, want := range []string{"your-api-stdlib[config=none]", "your-api-stdlib[config=console] vs your-api-stdlib[config=none]",
		"-42.1% (p=", "your-api-stdlib alone: each configuration is a column of its own"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the comparison lacks %q:\n%s", want, text.String())
		}
	}
}

// The JSON names the experiment, its one source, and each row's configuration; the
// baseline column is the baseline configuration's.
func TestCompareJSONNamesTheExperimentAndTheConfigurations(t *testing.T) {
	stdlib := comparetest.Archived(t, Experiment, "your-api-stdlib", stdlibBundle)
	var out bytes.Buffer
	if err := (Experiment).Compare(&out, &bytes.Buffer{}, []experiment.Source{stdlib}, experiment.CompareOptions{Format: "json"}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Experiment string   `json:"experiment"`
		Sources    []string `json:"sources"`
		Rows       []struct {
			Metric    string            `json:"metric"`
			Condition map[string]string `json:"condition"`
			Baseline  bool              `json:"baseline"`
			Ratio     *float64          `json:"ratio"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Experiment != Name || len(doc.Sources) != 1 || doc.Sources[0] != "your-api-stdlib" {
		t.Errorf("experiment %q, sources %q", doc.Experiment, doc.Sources)
	}
	ratios := map[string]float64{}
	for _, r := range doc.Rows {
		if r.Baseline != (r.Condition["config"] == "none") {
			t.Errorf("%s of %v: baseline %v", r.Metric, r.Condition, r.Baseline)
		}
		if r.Metric == "requests_per_s" && r.Ratio != nil {
			ratios[r.Condition["config"]] = *r.Ratio
		}
	}
	// The bundle's own ratios to its baseline (conditions.csv): 0.579 and 0.687.
	if len(ratios) != 2 || ratios["console"] < 0.578 || ratios["console"] > 0.580 || ratios["file"] < 0.686 || ratios["file"] > 0.688 {
		t.Errorf("ratios to the baseline %v", ratios)
	}
}

// There is nothing published to compare with: one line, a usage error.
func TestComparePublishedIsAUsageError(t *testing.T) {
	stdlib := comparetest.Archived(t, Experiment, "your-api-stdlib", stdlibBundle)
	var out bytes.Buffer
	err := Experiment.Compare(&out, &bytes.Buffer{}, []experiment.Source{stdlib}, experiment.CompareOptions{Published: true, Format: "text"})
	var u experiment.UsageError
	if !errors.As(err, &u) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "baseline configuration") || out.Len() != 0 {
		t.Errorf("%v (%T), wrote %d bytes", err, err, out.Len())
	}
}

// Two bundles are set side by side configuration by configuration, as before: the same
// bundle twice changes nothing.
func TestCompareTwoBundlesConfigurationByConfiguration(t *testing.T) {
	a := comparetest.Archived(t, Experiment, "a", stdlibBundle)
	b := a
	b.Label = "b"
	var out bytes.Buffer
	if err := (Experiment).Compare(&out, &bytes.Buffer{}, []experiment.Source{a, b}, experiment.CompareOptions{Format: "text"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"config   a", "b vs a: 0 of 3 conditions changed", "\nconsole  7810?"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the comparison lacks %q:\n%s", want, out.String())
		}
	}
}
