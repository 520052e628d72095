package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReportForceReplacesOnlyItsOwnPage(t *testing.T) {
	dir := synthetic(t, "pi5", bundletestDefaults())
	notes := filepath.Join(t.TempDir(), "notes.html")
	mine := "<!DOCTYPE html><html><head><title>my notes</title></head><body>hand written</body></html>\n"
	os.WriteFile(notes, []byte(mine), 0o644)
	_, err := runApp(t, "report", dir, "--out", notes, "--force")
	wantUsageError(t, err, "--force replaces only a page logbench report wrote")
	if body, _ := os.ReadFile(notes); string(body) != mine {
		t.Fatal("the notes were replaced")
	}
	// The mark in a page's body (a bundle's text, say) is not the kit's mark.
	os.WriteFile(notes, []byte("<html><head></head><body>"+generatorMeta+"</body></html>"), 0o644)
	_, err = runApp(t, "report", dir, "--out", notes, "--force")
	wantUsageError(t, err, "only a page logbench report wrote")

	page := filepath.Join(t.TempDir(), "r.html")
	if out, err := runApp(t, "report", dir, "--out", page); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	body, _ := os.ReadFile(page)
	head, _, _ := strings.Cut(string(body), "</head>")
	if !strings.Contains(head, generatorMeta) {
		t.Fatalf("the page is not marked:\n%.300s", body)
	}
	if out, err := runApp(t, "report", dir, "--out", page, "--force"); err != nil {
		t.Fatalf("its own page is not replaced: %v\n%s", err, out)
	}
}
