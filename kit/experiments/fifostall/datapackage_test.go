package fifostall_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/logbench/logbench/internal/fifostalltest"
	"github.com/logbench/logbench/kit/experiments/fifostall"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// TestEveryColumnIsDescribed: a column added to a row type appears in datapackage.json
// by itself, and this test asks for its meaning.
func TestEveryColumnIsDescribed(t *testing.T) {
	if u := bundle.Undocumented(fifostall.Tabular.DataPackage()); len(u) > 0 {
		t.Fatalf("columns without a description (a doc tag on its row type): %s", strings.Join(u, ", "))
	}
}

// TestSaveThenLoadRoundTrips: what Save writes reads back as the same runs, and a
// flipped byte is caught by its checksum.
func TestSaveThenLoadRoundTrips(t *testing.T) {
	b := fifostalltest.New(fifostalltest.Options{Seed: 2, Modes: []string{"json-sync"}, Rounds: 1})
	dir := filepath.Join(t.TempDir(), "bundle")
	if err := fifostalltest.Save(b, dir); err != nil {
		t.Fatal(err)
	}
	loaded, err := fifostalltest.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(b.Runs, loaded.Runs, cmp.Comparer(func(a, b bundle.Opt) bool { return a == b || a != a && b != b })); diff != "" {
		t.Fatalf("round trip (-saved +loaded):\n%s", diff)
	}
	path := filepath.Join(dir, fifostall.RunsFile)
	body, _ := os.ReadFile(path)
	body[len(body)-2] ^= 1
	os.WriteFile(path, body, 0o644)
	if _, err := fifostalltest.Load(dir); err == nil || !strings.Contains(err.Error(), fifostall.RunsFile) {
		t.Fatalf("want a checksum error naming %s, have %v", fifostall.RunsFile, err)
	}
}

// TestTheBundleLoadsThroughItsDataPackage saves a bundle, then reads every CSV file as
// its datapackage.json alone describes it (names, order, types, missing values), and
// checks the values against the kit's own reading of the same files.
func TestTheBundleLoadsThroughItsDataPackage(t *testing.T) {
	b := fifostalltest.New(fifostalltest.Options{Seed: 4, Modes: []string{"none", "json-sync"}, FailRun: 2})
	dir := filepath.Join(t.TempDir(), "b")
	if err := fifostalltest.Save(b, dir); err != nil {
		t.Fatal(err)
	}
	loaded, err := fifostalltest.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile(filepath.Join(dir, bundle.DataPackageFile))
	if err != nil {
		t.Fatal(err)
	}
	// A Data Package as the specification has it: a JSON object with resources, each
	// with a path; the tabular ones with a Table Schema.
	var generic map[string]any
	if err := json.Unmarshal(body, &generic); err != nil {
		t.Fatal(err)
	}
	if generic["profile"] != "tabular-data-package" || len(generic["resources"].([]any)) != 8 { // the manifest, five tables, probes.csv, pods.csv
		t.Fatalf("not the package expected: %v", generic["profile"])
	}
	pkg, err := bundle.ParseDataPackage(body)
	if err != nil {
		t.Fatal(err)
	}
	tables := map[string][]map[string]any{}
	for _, name := range fifostalltest.DataFiles {
		r, ok := pkg.Resource(name)
		if !ok {
			t.Fatalf("no resource for %s", name)
		}
		if name == bundle.ManifestFile {
			if r.Format != "json" || !strings.Contains(r.Description, "0 = unbounded") {
				t.Errorf("manifest resource: %+v", r)
			}
			continue
		}
		data, _ := os.ReadFile(filepath.Join(dir, name))
		rows, errs := r.ReadTable(data, 0)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", name, errs)
		}
		for _, f := range r.Schema.Fields {
			if f.Description == "" {
				t.Errorf("%s: %s undescribed", name, f.Name)
			}
		}
		tables[name] = rows
	}
	// Rows and typed values agree with the kit's reading.
	var requests, timeline int
	for _, run := range loaded.Runs {
		requests += len(run.Requests)
		timeline += len(run.Timeline)
	}
	if len(tables[fifostall.RunsFile]) != len(loaded.Runs) || len(tables[fifostall.RequestsFile]) != requests ||
		len(tables[fifostall.TimelineFile]) != timeline || len(tables[fifostall.ConditionsFile]) != len(loaded.Conditions) {
		t.Fatalf("row counts differ")
	}
	for i, row := range tables[fifostall.RunsFile] {
		run := loaded.Runs[i].Run
		if row["run_id"] != run.RunID || row["verified"] != run.Verified || row["requests"] != int64(run.Requests) || row["drain_s"] != run.DrainS {
			t.Fatalf("run %d: %v against %+v", i, row, run)
		}
		// An absent figure is a missing value, not a sentinel.
		p99, present := row["p99_ms"]
		if math.IsNaN(float64(run.P99Ms)) != (p99 == nil) || !present {
			t.Fatalf("run %s: p99_ms %v against %v", run.RunID, p99, run.P99Ms)
		}
	}
	for i, row := range tables[fifostall.ContainersFile] {
		if _, isInt := row["cgroup_version"].(int64); !isInt {
			t.Fatalf("containers row %d: cgroup_version %T, want an integer", i, row["cgroup_version"])
		}
	}
	for i, row := range tables[fifostall.ConditionsFile] {
		c := loaded.Conditions[i]
		if row["api"] != c.API || row["mode"] != c.Mode || row["runs_verified"] != int64(c.RunsVerified) {
			t.Fatalf("condition %d: %v", i, row)
		}
		if v, _ := row["predicted_drain_s"].(float64); !math.IsNaN(float64(c.PredictedDrainS)) && v != float64(c.PredictedDrainS) {
			t.Fatalf("condition %d: predicted_drain_s %v, want %v", i, row["predicted_drain_s"], c.PredictedDrainS)
		}
	}
}

// TestTheReaderRefusesWhatTheSchemaDoesNot: a wrong header, a wrong type, a required
// value missing, a value outside its enum.
func TestTheReaderRefusesWhatTheSchemaDoesNot(t *testing.T) {
	pkg := fifostall.Tabular.DataPackage()
	r, _ := pkg.Resource(fifostall.TimelineFile)
	for body, want := range map[string]string{
		"run_id,series,bytes,offset_s\n":               "header",
		"run_id,series,offset_s,bytes\nr,read,x,1\n":   "not a number",
		"run_id,series,offset_s,bytes\nr,read,1,\n":    "required",
		"run_id,series,offset_s,bytes\nr,sent,1,2\n":   "not one of generated, read",
		"run_id,series,offset_s,bytes\nr,read,1,2.5\n": "not an integer",
	} {
		_, errs := r.ReadTable([]byte(body), 0)
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), want) {
			t.Errorf("%q: %v, want %q", body, errs, want)
		}
	}
	if _, errs := r.ReadTable([]byte("run_id,series,offset_s,bytes\nr,read,1,2\n"), 0); len(errs) > 0 {
		t.Errorf("a good row refused: %v", errs)
	}
	if _, err := bundle.ParseDataPackage([]byte(`{"profile":"tabular-data-package","resources":[{"name":"x","path":"x.csv","schema":{"fields":[{"name":"a","type":"geopoint"}]}}]}`)); err == nil {
		t.Error("a type this reader does not know was taken")
	}
	if !slices.Contains(fifostalltest.Names(), bundle.DataPackageFile) {
		t.Error("datapackage.json is not a bundle file")
	}
}
