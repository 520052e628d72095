package verify

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/offline/bundle"
)

type packagedRun struct {
	RunID string  `csv:"run_id" doc:"The run."`
	Kind  string  `csv:"kind" doc:"Its kind."`
	WallS float64 `csv:"wall_s" was:"wall" unit:"s" doc:"Its wall time."`
	Cores float64 `csv:"cores" unit:"1" doc:"Cores used."`
	Count int64   `csv:"count" unit:"1" doc:"A count."`
}

var packagedTables = []bundle.Table{{File: "runs.csv", Name: "runs", Row: reflect.TypeFor[packagedRun](), Key: []string{"run_id"},
	Enums: map[string][]string{"kind": {"a", "b"}}}}

func kitPackage() bundle.DataPackage {
	return bundle.Describe("x", "x", "x", "The manifest.", packagedTables, nil)
}

// copyPackage is a deep copy of p, as a bundle would hold it.
func copyPackage(t *testing.T, p bundle.DataPackage) bundle.DataPackage {
	t.Helper()
	out, err := bundle.ParseDataPackage(p.JSON())
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func field(p *bundle.DataPackage, path, name string) *bundle.SchemaField {
	for i := range p.Resources {
		if r := &p.Resources[i]; r.Path == path {
			for j := range r.Schema.Fields {
				if r.Schema.Fields[j].Name == name {
					return &r.Schema.Fields[j]
				}
			}
		}
	}
	panic(path + ": no field " + name)
}

// TestSameAsTheKits: the rule by which a bundle's data package must say what the kit
// says of every column: exact on units, types, formats, allowed values, missing values
// and keys; silent on prose; open only to what earlier kits wrote (an older name, an
// integer now a number, a column or file added since, a column once required).
func TestSameAsTheKits(t *testing.T) {
	files := map[string][]byte{"runs.csv": nil}
	for _, tc := range []struct {
		name string
		edit func(p *bundle.DataPackage)
		want string // "" for none
	}{
		{"the same", func(p *bundle.DataPackage) {}, ""},
		{"prose reworded", func(p *bundle.DataPackage) {
			p.Title, p.Description, p.Resources[1].Description = "t", "d", "r"
			field(p, "runs.csv", "wall_s").Description = "reworded"
		}, ""},
		{"a column under its former name", func(p *bundle.DataPackage) { field(p, "runs.csv", "wall_s").Name = "wall" }, ""},
		{"an integer now a number", func(p *bundle.DataPackage) { field(p, "runs.csv", "cores").Type = "integer" }, ""},
		{"a column once required", func(p *bundle.DataPackage) {
			field(p, "runs.csv", "run_id").Constraints = &bundle.Constraints{Required: true}
		}, ""},
		{"a column added since", func(p *bundle.DataPackage) {
			s := p.Resources[1].Schema
			s.Fields = s.Fields[:len(s.Fields)-1]
		}, ""},
		{"a file added since, which the bundle lacks", func(p *bundle.DataPackage) {
			p.Resources = p.Resources[:2] // probes.csv
		}, ""},
		{"a unit", func(p *bundle.DataPackage) { field(p, "runs.csv", "wall_s").Unit = "ms" }, "runs.csv: wall_s: unit: have ms, want s"},
		{"a unit under the former name", func(p *bundle.DataPackage) { f := field(p, "runs.csv", "wall_s"); f.Name, f.Unit = "wall", "ms" }, "runs.csv: wall: unit: have ms, want s"},
		{"a number to a string", func(p *bundle.DataPackage) { field(p, "runs.csv", "wall_s").Type = "string" }, "type: have string, want number"},
		{"an integer to a number", func(p *bundle.DataPackage) { field(p, "runs.csv", "count").Type = "number" }, "type: have number, want integer"},
		{"an allowed value added", func(p *bundle.DataPackage) { field(p, "runs.csv", "kind").Constraints.Enum = []string{"a", "b", "c"} }, "enum: have a,b,c, want a,b"},
		{"the allowed values dropped", func(p *bundle.DataPackage) { field(p, "runs.csv", "kind").Constraints = nil }, "enum: have , want a,b"},
		{"a required column optional", func(p *bundle.DataPackage) { field(p, "runs.csv", "count").Constraints = nil }, "count: required"},
		{"a format", func(p *bundle.DataPackage) { field(p, "runs.csv", "count").Format = "default" }, "count: format"},
		{"a column the kit does not write", func(p *bundle.DataPackage) { field(p, "runs.csv", "count").Name = "counted" }, "runs.csv: counted: describes a column the kit does not write"},
		{"a column twice", func(p *bundle.DataPackage) {
			s := p.Resources[1].Schema
			s.Fields = append(s.Fields, *field(p, "runs.csv", "wall_s"))
			s.Fields[len(s.Fields)-1].Name = "wall"
		}, "the column wall_s again"},
		{"missing values", func(p *bundle.DataPackage) { p.Resources[1].Schema.MissingValues = []string{"", "NA"} }, "missingValues"},
		{"the primary key", func(p *bundle.DataPackage) { p.Resources[1].Schema.PrimaryKey = []string{"kind"} }, "primaryKey"},
		{"the package's name", func(p *bundle.DataPackage) { p.Name = "y" }, "name: have y, want x"},
		{"a resource's media type", func(p *bundle.DataPackage) { p.Resources[1].MediaType = "text/plain" }, "runs.csv: mediatype"},
		{"a file the kit does not write", func(p *bundle.DataPackage) { p.Resources[1].Path = "notes.csv" }, "notes.csv: describes a file the kit does not write"},
		{"a resource twice", func(p *bundle.DataPackage) { p.Resources = append(p.Resources, p.Resources[1]) }, "described twice"},
		{"a file the bundle has left undescribed", func(p *bundle.DataPackage) { p.Resources = p.Resources[:1] }, "runs.csv: the bundle has this file and the package does not describe it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			have := copyPackage(t, kitPackage())
			tc.edit(&have)
			res := &Result{}
			sameAsTheKits(res, files, have, kitPackage())
			said := false
			for _, p := range res.Problems {
				said = said || strings.Contains(p.String(), tc.want)
			}
			switch {
			case tc.want == "" && len(res.Problems) > 0:
				t.Fatalf("problems %v", res.Problems)
			case tc.want != "" && !said:
				body, _ := json.Marshal(have)
				t.Fatalf("problems %v, want one saying %q\n%s", res.Problems, tc.want, body)
			}
		})
	}
}
