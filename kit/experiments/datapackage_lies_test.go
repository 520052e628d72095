package experiments_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/forgery"
	"github.com/logbench/logbench/kit/experiments"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// editField applies edit to the first field of the data package (as generic JSON, so
// that nothing else of it changes) for which pick says yes, and says which it was.
func editField(t *testing.T, body []byte, pick func(f map[string]any) bool, edit func(r, f map[string]any)) ([]byte, string) {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	for _, r := range doc["resources"].([]any) {
		r := r.(map[string]any)
		schema, ok := r["schema"].(map[string]any)
		if !ok {
			continue
		}
		for _, f := range schema["fields"].([]any) {
			f := f.(map[string]any)
			if pick(f) {
				edit(r, f)
				out, _ := json.MarshalIndent(doc, "", "  ")
				return out, r["path"].(string) + ": " + f["name"].(string)
			}
		}
	}
	t.Skip("no such column in this package")
	return nil, ""
}

// TestVerifyRefusesADataPackageThatLies: in every archived bundle that has a
// datapackage.json, one that says of a column other than what the kit writes (a unit
// from s to ms, a type from number to string, an allowed value added, a required
// column made optional, a column described twice) is a problem of datapackage.json
// naming the column, though the files still cast to the lie; one whose descriptions
// alone were reworded still verifies (the rule: verify.sameAsTheKits).
func TestVerifyRefusesADataPackageThatLies(t *testing.T) {
	hasEnum := func(f map[string]any) bool { c, ok := f["constraints"].(map[string]any); return ok && c["enum"] != nil }
	required := func(f map[string]any) bool {
		c, ok := f["constraints"].(map[string]any)
		return ok && c["required"] == true && c["enum"] == nil
	}
	for _, archive := range []string{"2026-11-30-vm2/fifo-go.tar.gz", "2026-12-01-vm/qps-docker.tar.gz", "2026-12-02-vm/qps-go-none.tar.gz", "2026-12-01-vm/your-api-stdlib.tar.gz", "2026-12-02-vm/log-driver.tar.gz"} {
		files := open(t, archive)
		original := files.Data[bundle.DataPackageFile]
		for _, tc := range []struct {
			name string
			pick func(f map[string]any) bool
			edit func(r, f map[string]any)
			want string // "" for a package that still verifies
		}{
			{"a unit from s to ms", func(f map[string]any) bool { return f["unit"] == "s" }, func(_, f map[string]any) { f["unit"] = "ms" }, "unit: have ms, want s (the column's unit differs from what the kit writes)"},
			{"a type from number to string", func(f map[string]any) bool { return f["type"] == "number" }, func(_, f map[string]any) { f["type"] = "string" }, "type: have string, want number"},
			{"an allowed value added", hasEnum, func(_, f map[string]any) {
				c := f["constraints"].(map[string]any)
				c["enum"] = append(c["enum"].([]any), "forged")
			}, ",forged, want "},
			{"a required column made optional", required, func(_, f map[string]any) { delete(f, "constraints") }, "required: have may be missing, want required"},
			{"a column described twice", func(f map[string]any) bool { return f["unit"] == "s" }, func(r, f map[string]any) {
				schema := r["schema"].(map[string]any)
				schema["fields"] = append(schema["fields"].([]any), f)
			}, "again"},
			{"a description reworded", func(f map[string]any) bool { return f["unit"] == "s" }, func(_, f map[string]any) { f["description"] = "reworded since" }, ""},
		} {
			t.Run(archive+"/"+tc.name, func(t *testing.T) {
				body, field := editField(t, original, tc.pick, tc.edit)
				files.Data[bundle.DataPackageFile] = body
				forgery.Resum(files)
				exp, _ := experiments.Of(files)
				res := exp.Verify(files)
				if tc.want == "" {
					if !res.OK() {
						t.Fatalf("%s: %v", field, res.Problems)
					}
					return
				}
				found := false
				for _, p := range res.Problems {
					found = found || p.File == bundle.DataPackageFile && strings.Contains(p.String(), field) && strings.Contains(p.String(), tc.want)
				}
				if !found {
					t.Fatalf("no problem of datapackage.json names %s and says %q: %v", field, tc.want, res.Problems)
				}
			})
		}
		files.Data[bundle.DataPackageFile] = original
	}
}
