package linecost

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gocarina/gocsv"

	"github.com/logbench/logbench/kit/contract"
	lc "github.com/logbench/logbench/kit/incontainer/linecost"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// TestEveryColumnIsDescribed: a column added to a row type appears in datapackage.json
// by itself, and this test asks for its unit and meaning, in the field's tags.
func TestEveryColumnIsDescribed(t *testing.T) {
	pkg := Experiment.DataPackage()
	if u := bundle.Undocumented(pkg); len(u) > 0 {
		t.Errorf("columns without a doc tag (or a number without a unit tag): %s", strings.Join(u, ", "))
	}
	for _, tb := range tables {
		r, _ := pkg.Resource(tb.File)
		for _, col := range tb.Optional {
			if r.Schema == nil || !slices.ContainsFunc(r.Schema.Fields, func(f bundle.SchemaField) bool { return f.Name == col }) {
				t.Errorf("%s: optional column %s is not one of its columns", tb.File, col)
			}
		}
	}
}

// failedBundle is the recorded bundle with the Go queue way's trials left without a
// cgroup reading: its trials and its condition hold missing values (NaN).
func failedBundle(t *testing.T) *Bundle {
	return recordedBundle(t, func(lang string, doc *contract.LineCostDocument) {
		for i := range doc.Ways {
			if doc.Ways[i].Way == lc.Queue && lang == Go {
				for j := range doc.Ways[i].Trials {
					doc.Ways[i].Trials[j].CgroupError = "no cgroup"
				}
			}
		}
	})
}

// TestAMissingFigureIsAnEmptyField: the bundle with missing figures writes each as an
// empty field, as every experiment does and its data package declares, never "NaN";
// and the same files with "NaN" in those fields, as bundles written before spell them,
// verify all the same.
func TestAMissingFigureIsAnEmptyField(t *testing.T) {
	b := failedBundle(t)
	files := saved(t, b, nil)
	for _, name := range []string{TrialsFile, ConditionsFile} {
		if bytes.Contains(files.Data[name], []byte("NaN")) {
			t.Errorf("%s spells a missing figure NaN", name)
		}
	}
	pkg, err := bundle.ParseDataPackage(files.Data[bundle.DataPackageFile])
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range pkg.Resources {
		if r.Schema != nil && !slices.Equal(r.Schema.MissingValues, []string{""}) {
			t.Errorf("%s: missingValues %q, want the empty field alone", r.Path, r.Schema.MissingValues)
		}
	}
	old := respell(ConditionsFile, files.Data[ConditionsFile])
	if !bytes.Equal(old, files.Data[ConditionsFile]) {
		t.Fatal("a file without NaN was rewritten")
	}
	// The figure columns' empty fields as an earlier kit wrote them: "NaN".
	legacy := strings.ReplaceAll(string(files.Data[ConditionsFile]), ",,", ",NaN,")
	read := respell(ConditionsFile, []byte(legacy))
	var have, want []ConditionRow
	if err := gocsv.UnmarshalBytes(read, &have); err != nil {
		t.Fatalf("NaN as written before does not read: %v", err)
	}
	if err := gocsv.UnmarshalBytes(files.Data[ConditionsFile], &want); err != nil {
		t.Fatal(err)
	}
	if len(have) != len(want) {
		t.Fatalf("%d rows, want %d", len(have), len(want))
	}
	for i := range want {
		if have[i].NsPerLine.Present() != want[i].NsPerLine.Present() || have[i].PublishedNsPerLine.Present() != want[i].PublishedNsPerLine.Present() {
			t.Errorf("row %d: NaN read as %v, %v; the empty field as %v, %v", i, have[i].NsPerLine, have[i].PublishedNsPerLine, want[i].NsPerLine, want[i].PublishedNsPerLine)
		}
	}
}

// TestTheBundleLoadsThroughItsDataPackage reads every CSV file as datapackage.json
// alone describes it (names, order, types, missing values) and checks the typed values
// against the bundle's own rows.
func TestTheBundleLoadsThroughItsDataPackage(t *testing.T) {
	b := failedBundle(t)
	files := saved(t, b, nil)
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
	for _, name := range []string{bundle.ManifestFile, RunsFile, TrialsFile, ConditionsFile} {
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
	if len(tables[RunsFile]) != len(b.Runs) || len(tables[TrialsFile]) != len(Trials(b)) || len(tables[ConditionsFile]) != len(Conditions(b)) {
		t.Fatalf("rows: %d %d %d, want %d %d %d", len(tables[RunsFile]), len(tables[TrialsFile]), len(tables[ConditionsFile]), len(b.Runs), len(Trials(b)), len(Conditions(b)))
	}
	failed := 0
	for i, row := range tables[RunsFile] {
		r := b.Runs[i]
		if row["run_id"] != r.RunID || row["verified"] != r.Verified || row["lines_per_trial"] != r.Lines || row["timer_thread_cpu_ns_per_read"] != r.TimerThreadCPUNs {
			t.Fatalf("run %d: %v against %+v", i, row, r)
		}
		if _, isTime := row["started_utc"].(time.Time); !isTime {
			t.Errorf("run %s: started_utc %T, want a time", r.RunID, row["started_utc"])
		}
		if !r.Verified {
			failed++
		}
	}
	if failed != 1 {
		t.Fatalf("%d failed runs, want the queue way's", failed)
	}
	missing := 0
	for i, row := range tables[TrialsFile] {
		tr := Trials(b)[i]
		if row["thread_cpu_ns"] != tr.ThreadCPUNs || row["cpu_ns_per_line"] != float64(tr.CPUNsPerLine) || row["throttled"] != tr.Throttled {
			t.Fatalf("trial %d: %v against %+v", i, row, tr)
		}
		// A NaN in the file is a missing value, never a number.
		if got, want := row["cgroup_cpu_ns_per_line"], value(float64(tr.CgroupCPUNsPerLin)); got != want {
			t.Fatalf("trial %d: cgroup_cpu_ns_per_line %v, want %v", i, got, want)
		}
		if row["cgroup_cpu_ns_per_line"] == nil {
			missing++
		}
	}
	if missing != 3 {
		t.Fatalf("%d trials without cgroup_cpu_ns_per_line, want the queue way's 3", missing)
	}
	missing = 0
	for i, row := range tables[ConditionsFile] {
		c := Conditions(b)[i]
		if row["language"] != c.Language || row["way"] != c.Way || row["trials"] != int64(c.Trials) || row["headline"] != c.Headline {
			t.Fatalf("condition %d: %v against %+v", i, row, c)
		}
		for col, v := range map[string]bundle.Opt{"ns_per_line": c.NsPerLine, "ns_per_line_ci_low": c.NsPerLineLow, "ratio_to_cheapest": c.RatioToCheapest,
			"cpu_cores": c.CPUCores, "published_ns_per_line": c.PublishedNsPerLine} {
			if row[col] != value(float64(v)) {
				t.Fatalf("condition %s/%s: %s %v, want %v", c.Language, c.Way, col, row[col], value(float64(v)))
			}
			if row[col] == nil {
				missing++
			}
		}
	}
	if missing == 0 {
		t.Fatal("no condition has a missing value: the test reads none")
	}
}

// value is a figure as a Table Schema reader reads it: nil for NaN.
func value(f float64) any {
	if math.IsNaN(f) {
		return nil
	}
	return f
}

// TestVerifyChecksTheDataPackage: a package that misdescribes a file, one edited after
// SHA256SUMS are problems; none at all is a note.
func TestVerifyChecksTheDataPackage(t *testing.T) {
	b := recordedBundle(t, nil)
	if res := (Experiment).Verify(saved(t, b, nil)); !res.OK() || len(res.Notes) != 0 {
		t.Fatalf("problems %v, notes %v", res.Problems, res.Notes)
	}
	rewrite := func(edit func(*bundle.DataPackage)) func(map[string][]byte) {
		return func(files map[string][]byte) {
			pkg := Experiment.DataPackage()
			edit(&pkg)
			files[bundle.DataPackageFile] = pkg.JSON()
		}
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
		"a wrong type": {saved(t, b, rewrite(func(p *bundle.DataPackage) { field(p, TrialsFile, "verified").Type = "integer" })),
			`trials.csv line 2: verified: "true": not an integer (as datapackage.json describes it)`},
		"a fraction as an integer": {saved(t, b, rewrite(func(p *bundle.DataPackage) { field(p, RunsFile, "timer_thread_cpu_ns_per_read").Type = "integer" })),
			"runs.csv line 2: timer_thread_cpu_ns_per_read"},
		"a wrong name": {saved(t, b, rewrite(func(p *bundle.DataPackage) { field(p, ConditionsFile, "headline").Name = "clock" })),
			"conditions.csv line 1: header"},
		"a file left out": {saved(t, b, rewrite(func(p *bundle.DataPackage) { p.Resources = p.Resources[:2] })),
			"datapackage.json: describes no resource trials.csv"},
		"edited after SHA256SUMS": {func() *bundle.Files {
			f := saved(t, b, nil)
			f.Data[bundle.DataPackageFile] = []byte("{}")
			return f
		}(), "datapackage.json: SHA-256"},
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
	old := saved(t, b, func(files map[string][]byte) { delete(files, bundle.DataPackageFile) })
	res := Experiment.Verify(old)
	if !res.OK() || len(res.Notes) != 1 || !strings.Contains(res.Notes[0].String(), "datapackage.json: absent") {
		t.Fatalf("problems %v, notes %v", res.Problems, res.Notes)
	}
	if res.Counts.Files != 4 {
		t.Errorf("files checked %d, want 4", res.Counts.Files)
	}
	// Its archive order holds datapackage.json after the data files, SHA256SUMS last.
	layout := Experiment.Info().Layout
	if !slices.Contains(layout, bundle.DataPackageFile) || layout[len(layout)-1] != bundle.SumsFile {
		t.Errorf("layout %v", layout)
	}
}
