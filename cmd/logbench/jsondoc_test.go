package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/compare"
)

// jsonDocs are the JSON documents the commands print, by schema, each with its Go type.
var jsonDocs = map[string]any{
	schemaOf("verify"):      VerifyJSON{},
	schemaOf("experiments"): ExperimentsJSON{},
	schemaOf("archive"):     ArchiveJSON{},
	schemaOf("calibrate"):   CalibrateJSON{},
	schemaOf("compare"):     compare.Document{},
}

// TestTheJSONDocumentsAreTheDocumentedOnes: each command's --format json is one
// document that decodes strictly (no field unknown) into its documented type and
// encodes back to the same JSON (no field of the type missing), whose "schema" names
// it; and docs/cli.md lists every field of every type, and no other.
func TestTheJSONDocumentsAreTheDocumentedOnes(t *testing.T) {
	good := synthetic(t, "good", bundletestDefaults())
	bad := synthetic(t, "bad", bundletestDefaults())
	os.WriteFile(filepath.Join(bad, "notes.txt"), []byte("x"), 0o644)
	keyPriv, _ := keyFiles(t)
	out := t.TempDir()
	var calibration bytes.Buffer
	if err := writeCalibration(&calibration, "json", "fifo-stall", []experiment.Figure{{Name: "send lag p99", Value: "0.12 ms", What: "how late the load generator sends"}}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		schema string
		args   []string // nil: the document is made in this test (calibrate needs an engine)
		doc    []byte
	}{
		{schemaOf("verify"), []string{"verify", "--format", "json", "../../results/2026-12-01-vm/your-api-stdlib.tar.gz", bad, "/nonexistent"}, nil},
		{schemaOf("experiments"), []string{"experiments", "--format", "json"}, nil},
		{schemaOf("archive"), []string{"archive", "--format", "json", "--sign", keyPriv, "--out", filepath.Join(out, "good.tar.gz"), good}, nil},
		{schemaOf("archive"), []string{"archive", "--format", "json", bad}, nil},
		{schemaOf("calibrate"), nil, calibration.Bytes()},
		{schemaOf("compare"), []string{"compare", "--format", "json", "../../results/2026-12-01-vm/your-api-stdlib.tar.gz"}, nil},
		{schemaOf("compare"), []string{"compare", "--format", "json", "../../results/2026-11-30-vm2/qps-final.tar.gz", "../../results/2026-11-30-vm2/qps-wrk.tar.gz"}, nil},
	} {
		t.Run(strings.Join(append([]string{tc.schema}, tc.args...), " "), func(t *testing.T) {
			doc := tc.doc
			if tc.args != nil {
				stdout, _, _ := runAppSplit(t, tc.args...)
				doc = []byte(stdout)
			}
			typ := reflect.TypeOf(jsonDocs[tc.schema])
			v := reflect.New(typ)
			dec := json.NewDecoder(bytes.NewReader(doc))
			dec.DisallowUnknownFields()
			if err := dec.Decode(v.Interface()); err != nil {
				t.Fatalf("does not decode strictly into %v: %v\n%s", typ, err, doc)
			}
			if dec.More() {
				t.Fatal("more than one document")
			}
			if s := v.Elem().FieldByName("Schema").String(); s != tc.schema {
				t.Errorf("schema %q, want %q", s, tc.schema)
			}
			again, _ := json.Marshal(v.Interface())
			var have, want any
			json.Unmarshal(doc, &have)
			json.Unmarshal(again, &want)
			if d := cmp.Diff(want, have); d != "" {
				t.Errorf("the output has fields its type lacks, or lacks some (-type +output):\n%s", d)
			}
			if tc.schema == schemaOf("compare") {
				for _, row := range v.Elem().FieldByName("Rows").Interface().([]compare.JSONRow) {
					if row.Experiment == "" || row.Experiment != v.Elem().FieldByName("Experiment").String() {
						t.Fatalf("a row's experiment is %q", row.Experiment)
					}
				}
			}
		})
	}

	documented := documentedFields(t)
	for schema, doc := range jsonDocs {
		have := fieldPaths(reflect.TypeOf(doc), "")
		if d := cmp.Diff(have, documented[schema]); d != "" {
			t.Errorf("docs/cli.md's fields of %s are not its type's (-type +docs):\n%s", schema, d)
		}
	}
	if len(documented) != len(jsonDocs) {
		t.Errorf("docs/cli.md documents %d schemas, the commands print %d", len(documented), len(jsonDocs))
	}
}

// fieldPaths are the JSON fields of typ, nested ones as parent.child, a list's as
// list[].child; a BundleJSON that is not in a list is documented as verify's
// bundles[] are.
func fieldPaths(typ reflect.Type, prefix string) []string {
	var out []string
	for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct {
		return nil
	}
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		path := prefix + name
		out = append(out, path)
		inner := f.Type
		for inner.Kind() == reflect.Pointer {
			inner = inner.Elem()
		}
		if inner == reflect.TypeOf(BundleJSON{}) {
			continue // archive's verification: documented once, as verify's bundles[]
		}
		if inner.Kind() == reflect.Slice {
			out = append(out, fieldPaths(inner, path+"[].")...)
		} else {
			out = append(out, fieldPaths(inner, path+".")...)
		}
	}
	slices.Sort(out)
	return out
}

// documentedFields are the fields docs/cli.md lists under each schema's heading
// (### `logbench/<command>/v1`): the first cell of each row of its table, in backquotes.
func documentedFields(t *testing.T) map[string][]string {
	t.Helper()
	f, err := os.Open(filepath.Join(readmeDir, "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	heading := regexp.MustCompile("^### `(logbench/[a-z]+/v[0-9]+)`")
	row := regexp.MustCompile("^\\| `([a-z0-9_.\\[\\]]+)` \\|")
	out := map[string][]string{}
	schema := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if m := heading.FindStringSubmatch(line); m != nil {
			schema = m[1]
			continue
		}
		if strings.HasPrefix(line, "#") {
			schema = ""
		}
		if m := row.FindStringSubmatch(line); m != nil && schema != "" {
			out[schema] = append(out[schema], m[1])
		}
	}
	for s := range out {
		slices.Sort(out[s])
	}
	return out
}
