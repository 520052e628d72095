package fifostall

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/offline/bundle"
)

// FuzzNumbersAreFinite drives the bundle's CSV reader (DecodeCSV), its Table Schema
// reader (ReadTable) and the manifest's JSON reader with arbitrary input: whatever they
// accept holds no infinity, and a NaN only where the file left the field empty (an
// absent figure). Run it with `go test -fuzz FuzzNumbersAreFinite ./kit/experiments/fifostall`.
func FuzzNumbersAreFinite(f *testing.F) {
	header := strings.Join(bundle.Columns[ConditionRow](), ",")
	row := strings.Repeat("1,", len(bundle.Columns[ConditionRow]())-1) + "1"
	f.Add([]byte(header+"\n"+row+"\n"), []byte(`{"schema_version":1}`))
	for _, s := range []string{"-inf", "+Inf", "infinity", "NaN", "nan", "1e999", "0x1p-2", "1_0", ""} {
		f.Add([]byte("p99_ms,mean_ms\n"+s+",2\n"), []byte(`{"schema_version":1,"parameters":{"rate_rps":`+s+`}}`))
	}
	dp := Tabular.DataPackage()
	f.Fuzz(func(t *testing.T, body, manifest []byte) {
		// DecodeCSV, on the two row types with the most figures.
		checkDecoded[ConditionRow](t, body)
		checkDecoded[RunRow](t, body)
		// ReadTable: the data package's own schema of conditions.csv.
		if r, ok := dp.Resource(ConditionsFile); ok {
			rows, _ := r.ReadTable(body, 10)
			for _, m := range rows {
				for col, v := range m {
					if x, ok := v.(float64); ok && !finiteOrAbsent(x) {
						t.Fatalf("ReadTable took %s = %v", col, x)
					}
				}
			}
		}
		// The manifest: JSON has no infinities, and a number out of range is refused.
		var m Manifest
		if json.Unmarshal(manifest, &m) == nil {
			walkFloats(reflect.ValueOf(m), func(path string, x float64) {
				if math.IsInf(x, 0) {
					t.Fatalf("the manifest's %s read as %v", path, x)
				}
			})
		}
	})
}

func finiteOrAbsent(x float64) bool { return !math.IsInf(x, 0) }

// checkDecoded decodes body as rows of T and checks every float of every row accepted:
// never infinite, and NaN only where the field was empty.
func checkDecoded[T any](t *testing.T, body []byte) {
	t.Helper()
	d := bundle.DecodeCSV[T]("f.csv", body, 5)
	if len(d.Rows) == 0 {
		return
	}
	// The raw fields of each line, to see what a NaN was read from.
	raw := map[int]map[string]string{}
	r := csv.NewReader(bytes.NewReader(body))
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		t.Fatalf("rows accepted from a file whose header does not read: %v", err)
	}
	header = append([]string(nil), header...)
	for {
		rec, err := r.Read()
		if err != nil {
			break
		}
		line, _ := r.FieldPos(0)
		raw[line] = map[string]string{}
		for i, s := range rec {
			if i < len(header) {
				raw[line][header[i]] = s
			}
		}
	}
	fields := bundle.FieldsOf[T]()
	for i, row := range d.Rows {
		v := reflect.ValueOf(row)
		for _, fl := range fields {
			fv := v.FieldByIndex(fl.Index)
			if fv.Kind() != reflect.Float64 {
				continue
			}
			x := fv.Float()
			if math.IsInf(x, 0) {
				t.Fatalf("line %d: %s read as %v", d.Lines[i], fl.Column, x)
			}
			if s, inFile := raw[d.Lines[i]][fl.Column]; math.IsNaN(x) && inFile && s != "" {
				t.Fatalf("line %d: %s = %q read as NaN", d.Lines[i], fl.Column, s)
			}
		}
	}
}

func walkFloats(v reflect.Value, fn func(string, float64)) {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		fn(v.Type().String(), v.Float())
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				walkFloats(v.Field(i), fn)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			walkFloats(v.Index(i), fn)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			walkFloats(v.MapIndex(k), fn)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkFloats(v.Elem(), fn)
		}
	}
}
