package bundle

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// DataPackageFile describes a bundle's files and columns for any reader, as a
// Frictionless Data Package (https://specs.frictionlessdata.io/data-package/): each CSV
// a tabular data resource with its fields' names, types, units and meaning, the
// missing-value marker, and the manifest as a JSON resource. It is written with every
// bundle and checked by verify; a bundle written before it has none.
const DataPackageFile = "datapackage.json"

// OptionalFiles are bundle files that a bundle written by an older kit may lack.
var OptionalFiles = []string{DataPackageFile, ProbeFile, PodFile}

// DataPackage is the part of the Data Package specification a bundle uses.
type DataPackage struct {
	Profile     string     `json:"profile"` // "tabular-data-package"
	Name        string     `json:"name"`
	Title       string     `json:"title"`
	Description string     `json:"description"`
	Resources   []Resource `json:"resources"`
}

// Resource is one file of the package.
type Resource struct {
	Name        string  `json:"name"`
	Path        string  `json:"path"`
	Profile     string  `json:"profile"` // "tabular-data-resource" or "data-resource"
	Format      string  `json:"format"`
	MediaType   string  `json:"mediatype"`
	Encoding    string  `json:"encoding"`
	Description string  `json:"description"`
	Schema      *Schema `json:"schema,omitempty"`
}

// Schema is a Table Schema: the columns in file order.
type Schema struct {
	Fields []SchemaField `json:"fields"`
	// MissingValues are the field values that mean "no value": an empty field.
	MissingValues []string `json:"missingValues"`
	PrimaryKey    []string `json:"primaryKey,omitempty"`
	// ForeignKeys are the table's references to another table's key (Table.Refs).
	ForeignKeys []ForeignKey `json:"foreignKeys,omitempty"`
}

// ForeignKey is a Table Schema foreign key: Fields of this table name a row of another
// resource by its key.
type ForeignKey struct {
	Fields    []string `json:"fields"`
	Reference struct {
		Resource string   `json:"resource"`
		Fields   []string `json:"fields"`
	} `json:"reference"`
}

// SchemaField is one column. Unit is not in the Table Schema specification, which
// allows extra properties; it names the column's unit ("ms", "bytes", "1" for counts).
type SchemaField struct {
	Name        string       `json:"name"`
	Type        string       `json:"type"` // string, integer, number, boolean, datetime
	Format      string       `json:"format,omitempty"`
	Unit        string       `json:"unit,omitempty"`
	Description string       `json:"description"`
	Constraints *Constraints `json:"constraints,omitempty"`
	// Former are the names the column had in bundles already written (its `was` tag),
	// for verify to match an earlier kit's description of it; not written.
	Former []string `json:"-"`
}

// Constraints say which columns may not be missing and which values a column takes.
type Constraints struct {
	Required bool     `json:"required,omitempty"`
	Enum     []string `json:"enum,omitempty"`
}

// Doc is a column's unit ("ms", "bytes", "1" for a count, "" for a label or a flag)
// and its meaning in one sentence: how it is computed, and what an empty value or a
// sentinel says.
type Doc struct{ Unit, Text string }

// Table is one CSV file of a bundle: its file and resource names, what one row is, the
// row type whose csv tags give the columns in file order, and what the kit checks of its
// rows in every bundle, whichever experiment wrote it (verify.Tables): the columns that
// key a row, the rows of other tables its rows name, and, in the table of runs, the
// columns the manifest's counts count.
type Table struct {
	File, Name, Text string
	Row              reflect.Type
	// Key are the columns that key a row: no two rows have the same values in them, and
	// none is empty where the file has the column.
	Key []string
	// Refs are the rows of other tables of the bundle that each row names.
	Refs []Ref
	// Verified names, in the table of runs (a row per run, failed and redone ones too),
	// the column that says a run is data: the manifest's runs_completed counts the
	// table's rows and runs_verified those with it true. Superseded names the column that
	// says a later attempt redid the run (runs_superseded), "" in an experiment that
	// redoes none. Both are "" in every other table.
	Verified, Superseded string
	// MissingValues are the field values that mean "no value"; nil is the empty field
	// alone, which is what bundle.Opt writes.
	MissingValues []string
	// Optional are the columns of a type that always has a value in Go (float64) that
	// may hold a missing value all the same (a NaN the file spells "NaN"). Strings and
	// Opt columns are always optional; every other column is required.
	Optional []string
	// Enums are the values a column takes, by column.
	Enums map[string][]string
}

// Ref says that the values of Columns in every row of a table are those of a row of the
// table of file Table in its columns To, in order; To nil is that table's Key. A
// reference to a key is a Table Schema foreign key, and the data package says so.
type Ref struct {
	Columns []string
	Table   string
	To      []string
}

// Target is the columns a reference names in its table: To, or that table's Key.
func (r Ref) Target(tables []Table) []string {
	if r.To != nil {
		return r.To
	}
	for _, t := range tables {
		if t.File == r.Table {
			return t.Key
		}
	}
	return nil
}

// Values reads the values of columns in every row of the table's file body, with the
// line each row starts on (the header is line 1). A column is found by its name or by a
// name it had before (its `was` tag in Row); a column the header lacks, as in a bundle
// written before the kit added it, reads as empty in every row.
func (t Table) Values(body []byte, columns ...string) (rows [][]string, lines []int, err error) {
	r := csv.NewReader(bytes.NewReader(body))
	r.FieldsPerRecord = -1 // a short line is the decoder's to name; here it reads as empty
	header, err := r.Read()
	if err != nil {
		return nil, nil, err
	}
	at := make([]int, len(columns))
	for i, col := range columns {
		names := []string{col}
		if t.Row != nil {
			for _, f := range csvFields(t.Row) {
				if f.name == col {
					names = append(names, f.was...)
				}
			}
		}
		at[i] = slices.IndexFunc(header, func(h string) bool { return slices.Contains(names, h) })
	}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return rows, lines, nil
		}
		if err != nil {
			return rows, lines, err
		}
		line, _ := r.FieldPos(0)
		row := make([]string, len(columns))
		for i, j := range at {
			if j >= 0 && j < len(rec) {
				row[i] = rec[j]
			}
		}
		rows, lines = append(rows, row), append(lines, line)
	}
}

// fieldsOf are the Table Schema fields of a table: every csv-tagged field of its row
// type, in file order, typed from its Go type, described from docs (by file, then the
// columns several files share under ""), else from the field's own `unit` and `doc`
// tags.
func fieldsOf(t Table, docs map[string]map[string]Doc) []SchemaField {
	var out []SchemaField
	for _, f := range csvFields(t.Row) {
		ft := t.Row.FieldByIndex(f.index).Type
		sf := SchemaField{Name: f.name, Type: tableType(ft)}
		d, ok := docs[t.File][f.name]
		if !ok {
			d, ok = docs[""][f.name]
		}
		if !ok {
			// A row type may carry its columns' descriptions itself, beside their names.
			tag := t.Row.FieldByIndex(f.index).Tag
			d = Doc{Unit: tag.Get("unit"), Text: tag.Get("doc")}
		}
		sf.Unit, sf.Description = d.Unit, d.Text
		sf.Former = f.was
		if len(f.was) > 0 {
			// A reader of an older bundle of the same experiment finds the column there
			// under its former name.
			sf.Description += " Named " + strings.Join(f.was, " or ") + " in bundles written before the column was renamed."
		}
		if strings.HasSuffix(f.name, "_utc") {
			sf.Type, sf.Format = "datetime", "any"
		}
		if ft != reflect.TypeFor[Opt]() && sf.Type != "string" && !slices.Contains(t.Optional, f.name) {
			sf.Constraints = &Constraints{Required: true}
		}
		if enum, ok := t.Enums[f.name]; ok {
			if sf.Constraints == nil {
				sf.Constraints = &Constraints{}
			}
			sf.Constraints.Required, sf.Constraints.Enum = true, enum
		}
		out = append(out, sf)
	}
	return out
}

// tableType is the Table Schema type of a Go field.
func tableType(t reflect.Type) string {
	if t == reflect.TypeFor[Opt]() {
		return "number"
	}
	switch t.Kind() {
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	}
	return "string"
}

// Describe is the Data Package of a bundle: the manifest as a JSON resource described
// by manifestText, then each table as a tabular resource whose fields come from its row
// type and docs. Any experiment's bundle is described this way, so that one reader
// (ParseDataPackage, Resource.ReadTable) and one check (verify.CheckDataPackage) serve
// them all.
func Describe(name, title, description, manifestText string, tables []Table, docs map[string]map[string]Doc) DataPackage {
	p := DataPackage{
		Profile: "tabular-data-package", Name: name, Title: title, Description: description,
		Resources: []Resource{{Name: "manifest", Path: ManifestFile, Profile: "data-resource", Format: "json", MediaType: "application/json",
			Encoding: "utf-8", Description: manifestText}},
	}
	docs = maps.Clone(docs)
	if docs == nil {
		docs = map[string]map[string]Doc{}
	}
	docs[ProbeFile] = probeDocs
	docs[PodFile] = podDocs
	if err := Declared(tables); err != nil {
		panic("datapackage: " + err.Error()) // the kit's own declarations: a test finds it
	}
	for _, t := range append(slices.Clone(tables), probeTable, podTable) {
		missing := t.MissingValues
		if missing == nil {
			missing = []string{""}
		}
		p.Resources = append(p.Resources, Resource{Name: t.Name, Path: t.File, Profile: "tabular-data-resource", Format: "csv",
			MediaType: "text/csv", Encoding: "utf-8", Description: t.Text,
			Schema: &Schema{Fields: fieldsOf(t, docs), MissingValues: missing, PrimaryKey: t.Key, ForeignKeys: foreignKeys(t, tables)}})
	}
	return p
}

// Declared checks an experiment's declarations of its tables: every column a key, a
// reference or a count names is a column of its table's row type, every reference names
// a declared table with as many columns as it gives, and one table at most is the table
// of runs. Describe refuses a package whose tables fail it, so that every experiment's
// tests and every bundle written find a declaration verify could not check.
func Declared(tables []Table) error {
	columns := func(t Table) []string {
		var out []string
		for _, f := range csvFields(t.Row) {
			out = append(out, f.name)
		}
		return out
	}
	runs := 0
	for _, t := range tables {
		have := columns(t)
		named := slices.Concat(t.Key, []string{t.Verified, t.Superseded})
		for _, r := range t.Refs {
			named = append(named, r.Columns...)
			i := slices.IndexFunc(tables, func(o Table) bool { return o.File == r.Table })
			if i < 0 {
				return fmt.Errorf("%s: a reference to %s, which is no table of the bundle", t.File, r.Table)
			}
			target := r.Target(tables)
			if len(target) == 0 || len(target) != len(r.Columns) {
				return fmt.Errorf("%s: a reference of %d columns to %d of %s", t.File, len(r.Columns), len(target), r.Table)
			}
			for _, col := range target {
				if !slices.Contains(columns(tables[i]), col) {
					return fmt.Errorf("%s: a reference to %s's column %s, which it does not have", t.File, r.Table, col)
				}
			}
		}
		for _, col := range named {
			if col != "" && !slices.Contains(have, col) {
				return fmt.Errorf("%s: no column %s", t.File, col)
			}
		}
		if t.Superseded != "" && t.Verified == "" {
			return fmt.Errorf("%s: a superseded column in a table that names no verified one", t.File)
		}
		if t.Verified != "" {
			runs++
		}
	}
	if runs > 1 {
		return fmt.Errorf("%d tables of runs (Verified), want one at most", runs)
	}
	return nil
}

// foreignKeys are t's references to another table's key; a reference to columns that
// key no table is checked all the same (verify.Tables), but is no foreign key.
func foreignKeys(t Table, tables []Table) []ForeignKey {
	var out []ForeignKey
	for _, r := range t.Refs {
		i := slices.IndexFunc(tables, func(o Table) bool { return o.File == r.Table })
		if i < 0 || !slices.Equal(r.Target(tables), tables[i].Key) {
			continue
		}
		fk := ForeignKey{Fields: r.Columns}
		fk.Reference.Resource, fk.Reference.Fields = tables[i].Name, tables[i].Key
		out = append(out, fk)
	}
	return out
}

// JSON is the package as its datapackage.json holds it: indented, with a final newline.
func (p DataPackage) JSON() []byte {
	body, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		panic(fmt.Sprintf("datapackage: %v", err)) // plain structs of strings: cannot fail
	}
	return append(body, '\n')
}

// Undocumented lists the columns of p without a meaning, as file:column, and those
// without a unit where the column is a number: a test of each experiment calls it, so
// that a new column cannot go undescribed.
func Undocumented(p DataPackage) []string {
	var out []string
	for _, r := range p.Resources {
		if r.Schema == nil {
			continue
		}
		for _, f := range r.Schema.Fields {
			switch {
			case f.Description == "":
				out = append(out, r.Path+":"+f.Name)
			case f.Unit == "" && (f.Type == "number" || f.Type == "integer"):
				out = append(out, r.Path+":"+f.Name+" (a number without a unit)")
			}
		}
	}
	return out
}

// ParseDataPackage reads a datapackage.json.
func ParseDataPackage(body []byte) (DataPackage, error) {
	var p DataPackage
	if err := json.Unmarshal(body, &p); err != nil {
		return p, fmt.Errorf("%s: %w", DataPackageFile, err)
	}
	if p.Profile != "tabular-data-package" && p.Profile != "data-package" {
		return p, fmt.Errorf("%s: profile %q, want tabular-data-package", DataPackageFile, p.Profile)
	}
	for _, r := range p.Resources {
		if r.Path == "" || r.Name == "" {
			return p, fmt.Errorf("%s: a resource without a name or path", DataPackageFile)
		}
		if r.Schema != nil {
			for _, f := range r.Schema.Fields {
				switch f.Type {
				case "string", "integer", "number", "boolean", "datetime":
				default:
					return p, fmt.Errorf("%s: %s: field %s: type %q is not one this reader knows", DataPackageFile, r.Path, f.Name, f.Type)
				}
			}
		}
	}
	return p, nil
}

// Resource finds the resource of a file.
func (p DataPackage) Resource(path string) (Resource, bool) {
	for _, r := range p.Resources {
		if r.Path == path {
			return r, true
		}
	}
	return Resource{}, false
}

// ReadTable reads a CSV file as its resource's Table Schema says: the header must be
// the fields in order; each value is cast to its field's type (string, int64, float64,
// bool, time.Time), a missing value is nil. It reads every row, returning at most
// maxErrors problems (0: all).
func (r Resource) ReadTable(body []byte, maxErrors int) ([]map[string]any, []LineError) {
	return readTable(r, body, maxErrors, true)
}

// CheckTable is ReadTable keeping no row: the problems alone, in memory that does not
// grow with the file.
func (r Resource) CheckTable(body []byte, maxErrors int) []LineError {
	_, errs := readTable(r, body, maxErrors, false)
	return errs
}

// ManifestLead is how the description of every experiment's manifest.json begins:
// who wrote it, when, on which engine, with which images, how far the matrix got.
const ManifestLead = "The bundle's manifest: which experiment and kit wrote it (experiment, kit_version, kit_commit, command), when, "

// ManifestProgress names the manifest's keys that say how far the matrix got.
const ManifestProgress = "how far the matrix got (runs_planned, runs_completed, runs_verified, complete, interrupted)"

// SumsText is what a bundle's description says of its checksums and of verify.
const SumsText = "SHA256SUMS lists every file's SHA-256; `logbench verify` recomputes every derived figure from the rows. An empty CSV field is a missing value."
