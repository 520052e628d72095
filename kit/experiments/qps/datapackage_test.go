package qps

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiment/tabular"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// TestEveryColumnIsDescribed: a column added to a row type appears in datapackage.json
// by itself, and this test asks for its unit and meaning; a meaning left for a column
// that is gone is caught too.
func TestEveryColumnIsDescribed(t *testing.T) {
	pkg := Experiment.DataPackage()
	if u := bundle.Undocumented(pkg); len(u) > 0 {
		t.Errorf("columns without a description (or a number without a unit) in the row types' tags (kit/experiments/qps/schema.go): %s", strings.Join(u, ", "))
	}
	// The descriptions that quote the kit's constants quote them as they are.
	for col, quoted := range map[string]float64{"host_noisy": experiment.NoisyOtherCores, "wrk_agreement": WrkTolerance, "generator_saturated": contract.SaturationShare, "runs_wrk_agreeing": WrkTolerance} {
		found := false
		for _, r := range pkg.Resources {
			for _, f := range schemaFields(r) {
				if f.Name == col && !found {
					found = true
					if !strings.Contains(f.Description, " "+strconv.FormatFloat(quoted, 'g', -1, 64)) {
						t.Errorf("%s: %q does not quote %g", col, f.Description, quoted)
					}
				}
			}
		}
		if !found {
			t.Errorf("no column %s", col)
		}
	}
}

func schemaFields(r bundle.Resource) []bundle.SchemaField {
	if r.Schema == nil {
		return nil
	}
	return r.Schema.Fields
}

// seriesOf are a bundle's rows of series.csv.
func seriesOf(b *Bundle) []SeriesRow { return tabular.Of[SeriesRow](b.Rows, SeriesFile) }

// filled is a bundle with a run of each kind: verified with both logs, verified
// without, and one whose console log came back short (not data), so that missing
// values and failures are in the files.
func filled(t *testing.T) (*Bundle, *bundle.Files) {
	return fill(t, testParams(ConsoleFile, NoLog),
		fakeRun{config: ConsoleFile, warm: 5, lines: 300, series: []int64{100, 100, 100}}.run("cf1", 1),
		fakeRun{config: ConsoleFile, warm: 5, lines: 300, series: []int64{100, 100, 100}, stdout: lines(10, 0)}.run("cf2", 2),
		fakeRun{config: NoLog, series: []int64{400, 400, 400}}.run("n1", 1))
}

// TestTheBundleLoadsThroughItsDataPackage reads every CSV file as datapackage.json
// alone describes it (names, order, types, missing values) and checks the typed values
// against the bundle's own rows.
func TestTheBundleLoadsThroughItsDataPackage(t *testing.T) {
	b, files := filled(t)
	body, ok := files.Data[bundle.DataPackageFile]
	if !ok {
		t.Fatal("the bundle has no datapackage.json")
	}
	var generic map[string]any
	if err := json.Unmarshal(body, &generic); err != nil || generic["profile"] != "tabular-data-package" {
		t.Fatalf("not a tabular data package: %v %v", err, generic["profile"])
	}
	pkg, err := bundle.ParseDataPackage(body)
	if err != nil {
		t.Fatal(err)
	}
	tables := map[string][]map[string]any{}
	for _, name := range []string{bundle.ManifestFile, RunsFile, SeriesFile, ConditionsFile} {
		r, ok := pkg.Resource(name)
		if !ok {
			t.Fatalf("no resource for %s", name)
		}
		if name == bundle.ManifestFile {
			continue
		}
		rows, errs := r.ReadTable(files.Data[name], 0)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", name, errs)
		}
		tables[name] = rows
	}
	if len(tables[RunsFile]) != len(b.Runs) || len(tables[SeriesFile]) != len(seriesOf(b)) || len(tables[ConditionsFile]) != len(ConditionsOf(b)) {
		t.Fatalf("rows: %d %d %d, want %d %d %d", len(tables[RunsFile]), len(tables[SeriesFile]), len(tables[ConditionsFile]), len(b.Runs), len(seriesOf(b)), len(ConditionsOf(b)))
	}
	sawFailure := false
	for i, row := range tables[RunsFile] {
		r := b.Runs[i]
		if row["run_id"] != r.RunID || row["verified"] != r.Verified || row["responses"] != r.Requests || row["requests_per_s"] != optValue(r.RequestsPerS) {
			t.Fatalf("run %d: %v against %+v", i, row, r)
		}
		// An absent figure is a missing value, never a zero.
		if v, present := row["engine_cpu_cores"]; !present || v != nil {
			t.Errorf("run %s: engine_cpu_cores %v, want missing (not measured)", r.RunID, v)
		}
		if got, want := row["log_lines_read"], optValue(r.LogLinesRead); got != want {
			t.Errorf("run %s: log_lines_read %v, want %v", r.RunID, got, want)
		}
		if at, isTime := row["started_utc"].(time.Time); !isTime || at.Format(time.RFC3339Nano) != r.StartedUTC {
			t.Errorf("run %s: started_utc %v (%T), want the run's start as a time", r.RunID, row["started_utc"], row["started_utc"])
		}
		sawFailure = sawFailure || !r.Verified
	}
	if !sawFailure {
		t.Fatal("the bundle has no failed run: the test reads no failure")
	}
	for i, row := range tables[SeriesFile] {
		if row["second"] != int64(seriesOf(b)[i].Second) || row["responses"] != seriesOf(b)[i].Requests {
			t.Fatalf("series %d: %v", i, row)
		}
	}
	for i, row := range tables[ConditionsFile] {
		c := ConditionsOf(b)[i]
		if row["api"] != c.API || row["config"] != c.Config || row["runs_verified"] != int64(c.RunsVerified) ||
			row["requests_per_s"] != optValue(c.RequestsPerS) || row["requests_per_s_ci_low"] != optValue(c.RequestsPerSCILow) {
			t.Fatalf("condition %d: %v against %+v", i, row, c)
		}
	}
}

// optValue is an Opt as a Table Schema reader reads it: nil when absent.
func optValue(o Opt) any {
	if math.IsNaN(float64(o)) {
		return nil
	}
	return float64(o)
}

// TestVerifyChecksTheDataPackage: a package that misdescribes a file, one edited after
// SHA256SUMS, one SHA256SUMS does not list are problems; none at all is a note.
func TestVerifyChecksTheDataPackage(t *testing.T) {
	_, files := filled(t)
	mustVerify(t, files)
	if res := (Experiment).Verify(files); len(res.Notes) != 0 {
		t.Errorf("notes %v", res.Notes)
	}
	without := func(drop ...string) map[string][]byte {
		data := map[string][]byte{}
	next:
		for k, v := range files.Data {
			for _, d := range append(drop, SumsFile) {
				if k == d {
					continue next
				}
			}
			data[k] = v
		}
		return data
	}
	rewrite := func(edit func(*bundle.DataPackage)) *bundle.Files {
		pkg := Experiment.DataPackage()
		edit(&pkg)
		data := without()
		data[bundle.DataPackageFile] = pkg.JSON()
		return withSums(data)
	}
	field := func(pkg *bundle.DataPackage, file, col string) *bundle.SchemaField {
		for _, r := range pkg.Resources {
			if r.Path == file {
				for i := range r.Schema.Fields {
					if r.Schema.Fields[i].Name == col {
						return &r.Schema.Fields[i]
					}
				}
			}
		}
		t.Fatalf("no %s:%s", file, col)
		return nil
	}
	cases := map[string]struct {
		files *bundle.Files
		want  string
	}{
		"a wrong type": {rewrite(func(p *bundle.DataPackage) { field(p, RunsFile, "responses").Type = "boolean" }),
			`runs.csv line 2: responses: "300": not a boolean (as datapackage.json describes it)`},
		"a wrong name": {rewrite(func(p *bundle.DataPackage) { field(p, SeriesFile, "second").Name = "seconds" }),
			"series.csv line 1: header run_id,second,responses is not the schema's fields run_id,seconds,responses"},
		"a column left out": {rewrite(func(p *bundle.DataPackage) {
			for i, r := range p.Resources {
				if r.Path == ConditionsFile {
					p.Resources[i].Schema.Fields = r.Schema.Fields[:len(r.Schema.Fields)-1]
				}
			}
		}), "conditions.csv line 1: header"},
		"a file left out": {rewrite(func(p *bundle.DataPackage) {
			p.Resources = slices.DeleteFunc(p.Resources, func(r bundle.Resource) bool { return r.Path == ConditionsFile })
		}),
			"datapackage.json: describes no resource conditions.csv"},
		"edited after SHA256SUMS": {func() *bundle.Files {
			f := withSums(without())
			f.Data[bundle.DataPackageFile] = []byte("{}")
			return f
		}(), "datapackage.json: SHA-256"},
		"not in SHA256SUMS": {func() *bundle.Files {
			f := withSums(without(bundle.DataPackageFile))
			f.Data[bundle.DataPackageFile] = files.Data[bundle.DataPackageFile]
			return f
		}(), "datapackage.json: not listed in SHA256SUMS"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			res := Experiment.Verify(tc.files)
			if res.OK() || !strings.Contains(fmt.Sprint(res.Problems), tc.want) {
				t.Fatalf("problems %v, want %q", res.Problems, tc.want)
			}
		})
	}
	// A bundle written before the kit described its files: a note, not a problem.
	res := Experiment.Verify(withSums(without(bundle.DataPackageFile)))
	if !res.OK() || len(res.Notes) != 1 || !strings.Contains(res.Notes[0].String(), "datapackage.json: absent") {
		t.Fatalf("problems %v, notes %v", res.Problems, res.Notes)
	}
	if res.Counts.Files != 4 {
		t.Errorf("files checked %d, want 4", res.Counts.Files)
	}
}
