package fifostall_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/experiments/fifostall"

	"github.com/logbench/logbench/kit/offline/bundle"
)

func TestTheDataPackageIsChecked(t *testing.T) {
	// A package that says requests is a boolean misdescribes runs.csv.
	dir := saved(t, small())
	pkg := fifostall.Tabular.DataPackage()
	for _, r := range pkg.Resources {
		if r.Path == fifostall.RunsFile {
			for i := range r.Schema.Fields {
				if r.Schema.Fields[i].Name == "requests" {
					r.Schema.Fields[i].Type = "boolean"
				}
			}
		}
	}
	body, _ := json.Marshal(pkg)
	os.WriteFile(filepath.Join(dir, bundle.DataPackageFile), body, 0o644)
	resum(t, dir)
	res := verifyDir(t, dir)
	// It lies about the column, and the file does not cast to it.
	if res.OK() || !strings.Contains(res.Problems[0].String(), "datapackage.json: runs.csv: requests: type: have boolean, want integer") ||
		!strings.Contains(res.Problems[1].String(), "runs.csv line 2: requests: \"20\": not a boolean (as datapackage.json describes it)") {
		t.Fatalf("problems %v", res.Problems)
	}

	// One edited after SHA256SUMS was written is caught by its sum.
	dir = saved(t, small())
	os.WriteFile(filepath.Join(dir, bundle.DataPackageFile), []byte("{}"), 0o644)
	if res := verifyDir(t, dir); res.OK() || !strings.Contains(res.Problems[0].String(), "datapackage.json: SHA-256") {
		t.Fatalf("problems %v", res.Problems)
	}

	// A bundle from before the kit wrote one: a note.
	dir = saved(t, small())
	os.Remove(filepath.Join(dir, bundle.DataPackageFile))
	resum(t, dir)
	res = verifyDir(t, dir)
	if !res.OK() || len(res.Notes) != 1 || !strings.Contains(res.Notes[0].String(), "datapackage.json: absent") {
		t.Fatalf("problems %v, notes %v", res.Problems, res.Notes)
	}
}
