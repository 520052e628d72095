// Package comparetest is what every experiment's comparison tests share: golden files,
// rewritten by go test -update, the committed bundles as sources, and a comparison
// checked in every output format at once. One -update flag serves them all: a flag is
// declared once per test binary.
package comparetest

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/offline/bundle"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// Dir is where a package keeps its comparisons' golden files.
const Dir = "testdata/compare"

// Golden compares have with Dir/name, or rewrites it under -update.
func Golden(t *testing.T, name string, have []byte) {
	t.Helper()
	GoldenFile(t, filepath.Join(Dir, name), have)
}

// GoldenFile compares have with the file at path, or rewrites it under -update.
func GoldenFile(t *testing.T, path string, have []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, have, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if diff := cmp.Diff(string(want), string(have)); diff != "" {
		t.Errorf("%s (-want +have); go test -update rewrites it if the change is right:\n%s", path, diff)
	}
}

// Archived is a committed bundle under results/ as a source labelled label, verified by
// e: a comparison of a bundle that does not verify would test nothing.
func Archived(t *testing.T, e experiment.Experiment, label, path string) experiment.Source {
	t.Helper()
	files, err := bundle.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	res := e.Verify(files)
	if !res.OK() {
		t.Fatalf("%s does not verify: %v", path, res.Problems)
	}
	return experiment.Source{Label: label, Result: res}
}

// EveryFormat compares sources with e in text, JSON and CSV, each checked against
// Dir/archived-name.txt, .json and .csv, and returns the warnings of the text one, which
// not every experiment keeps a golden file of.
func EveryFormat(t *testing.T, e experiment.Experiment, name string, sources []experiment.Source, published bool) (warnings []byte) {
	t.Helper()
	for _, format := range []string{"text", "json", "csv"} {
		var out, warn bytes.Buffer
		if err := e.Compare(&out, &warn, sources, experiment.CompareOptions{Published: published, Format: format}); err != nil {
			t.Fatal(err)
		}
		ext := map[string]string{"text": "txt", "json": "json", "csv": "csv"}[format]
		Golden(t, "archived-"+name+"."+ext, out.Bytes())
		if format == "text" {
			warnings = warn.Bytes()
		}
	}
	return warnings
}
