package bundle_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/offline/bundle"
)

type declRun struct {
	RunID    string `csv:"run_id"`
	Cond     string `csv:"cond" was:"condition"`
	Verified bool   `csv:"verified"`
}

type declCond struct {
	Cond string `csv:"cond"`
}

func declTables() []bundle.Table {
	return []bundle.Table{
		{File: "runs.csv", Name: "runs", Row: reflect.TypeFor[declRun](), Key: []string{"run_id"}, Verified: "verified",
			Refs: []bundle.Ref{{Columns: []string{"cond"}, Table: "conditions.csv"}}},
		{File: "conditions.csv", Name: "conditions", Row: reflect.TypeFor[declCond](), Key: []string{"cond"},
			Refs: []bundle.Ref{{Columns: []string{"cond"}, Table: "runs.csv", To: []string{"cond"}}}},
	}
}

// TestDeclaredRefusesWhatVerifyCouldNotCheck: a declaration naming a column its row
// type lacks, a table the bundle lacks, or a reference of the wrong width is refused,
// and Describe will not write it.
func TestDeclaredRefusesWhatVerifyCouldNotCheck(t *testing.T) {
	if err := bundle.Declared(declTables()); err != nil {
		t.Fatalf("a sound declaration: %v", err)
	}
	for _, tc := range []struct {
		name  string
		spoil func([]bundle.Table)
		want  string
	}{
		{"a key of no column", func(ts []bundle.Table) { ts[0].Key = []string{"id"} }, "runs.csv: no column id"},
		{"a verified of no column", func(ts []bundle.Table) { ts[0].Verified = "ok" }, "runs.csv: no column ok"},
		{"a reference to no table", func(ts []bundle.Table) { ts[0].Refs[0].Table = "modes.csv" }, "a reference to modes.csv, which is no table"},
		{"a reference too wide", func(ts []bundle.Table) { ts[0].Refs[0].Columns = []string{"cond", "run_id"} }, "a reference of 2 columns to 1"},
		{"a reference to no column", func(ts []bundle.Table) { ts[1].Refs[0].To = []string{"mode"} }, "runs.csv's column mode"},
		{"two tables of runs", func(ts []bundle.Table) { ts[1].Verified = "cond" }, "2 tables of runs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := declTables()
			tc.spoil(ts)
			err := bundle.Declared(ts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
			defer func() {
				if recover() == nil {
					t.Error("Describe wrote the package")
				}
			}()
			bundle.Describe("x", "x", "x", "x", ts, nil)
		})
	}
}

// TestAReferenceToAKeyIsAForeignKey: the data package names a table's references to
// another's key as Table Schema foreign keys, and no other.
func TestAReferenceToAKeyIsAForeignKey(t *testing.T) {
	pkg := bundle.Describe("x", "x", "x", "x", declTables(), nil)
	runs, _ := pkg.Resource("runs.csv")
	conds, _ := pkg.Resource("conditions.csv")
	if fk := runs.Schema.ForeignKeys; len(fk) != 1 || !slices.Equal(fk[0].Fields, []string{"cond"}) ||
		fk[0].Reference.Resource != "conditions" || !slices.Equal(fk[0].Reference.Fields, []string{"cond"}) {
		t.Errorf("runs' foreign keys %+v, want cond -> conditions (cond)", fk)
	}
	if fk := conds.Schema.ForeignKeys; len(fk) != 0 {
		t.Errorf("conditions' foreign keys %+v: runs' cond keys no run", fk)
	}
	if !strings.Contains(string(pkg.JSON()), `"foreignKeys": [`) {
		t.Error("datapackage.json names no foreign key")
	}
}

// TestValuesReadColumnsByAnyOfTheirNames: a column under its former name is read, one
// the file lacks is empty, and each row has its line.
func TestValuesReadColumnsByAnyOfTheirNames(t *testing.T) {
	body := []byte("run_id,condition\nr1,a\n\"r\n2\",b\n")
	rows, lines, err := declTables()[0].Values(body, "cond", "verified", "run_id")
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"a", "", "r1"}, {"b", "", "r\n2"}}
	if !reflect.DeepEqual(rows, want) || !slices.Equal(lines, []int{2, 3}) {
		t.Errorf("rows %q at lines %v, want %q at 2, 3", rows, lines, want)
	}
}
