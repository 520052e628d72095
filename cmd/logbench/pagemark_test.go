package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReportForceReplacesOnlyItsOwnUnchangedPage(t *testing.T) {
	dir := synthetic(t, "pi5", bundletestDefaults())
	page := filepath.Join(t.TempDir(), "r.html")
	if out, err := runApp(t, "report", dir, "--out", page); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	kitPage, _ := os.ReadFile(page)
	head, _, _ := strings.Cut(string(kitPage), "</head>")
	if !strings.Contains(head, "<head>\n"+markPrefix) {
		t.Fatalf("the page is not marked:\n%.300s", kitPage)
	}
	if out, err := runApp(t, "report", dir, "--out", page, "--force"); err != nil {
		t.Fatalf("its own page is not replaced: %v\n%s", err, out)
	}
	kitMark := head[strings.Index(head, markPrefix):]
	kitMark = kitMark[:strings.Index(kitMark, markSuffix)+len(markSuffix)]

	mine := "<!DOCTYPE html><html><head><title>my notes</title></head><body>hand written</body></html>\n"
	// An edited kit page: one byte of its body changed, the mark kept.
	edited := bytes.Replace(kitPage, []byte("</body>"), []byte("<p>my note</p></body>"), 1)
	for _, tc := range []struct {
		name, body, want string
	}{
		{"a page without the mark", mine, "does not carry its mark"},
		// The case: notes quoting the kit's tag, here in their own <head>, with
		// the mark of a real page of the kit's copied.
		{"notes quoting an earlier kit's tag", "<html><head>" + legacyMark + "</head><body>notes</body></html>", "an earlier kit's mark"},
		{"notes quoting the mark of a kit page", "<html><head>\n" + kitMark + "<title>notes</title></head><body>" + kitMark + "</body></html>", "does not match the digest in its mark"},
		{"the mark in the body only", "<html><head></head><body>\n" + kitMark + "</body></html>", "does not carry its mark"},
		{"a kit page edited", string(edited), "does not match the digest in its mark"},
		{"a mark cut short", "<html><head>\n" + kitMark[:len(kitMark)-10], "cut short"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			notes := filepath.Join(t.TempDir(), "notes.html")
			os.WriteFile(notes, []byte(tc.body), 0o644)
			_, err := runApp(t, "report", dir, "--out", notes, "--force")
			wantUsageError(t, err, tc.want)
			if body, _ := os.ReadFile(notes); string(body) != tc.body {
				t.Fatal("the file was replaced")
			}
		})
	}
}

// The mark's digest is the page's without the mark: marking, then checking, holds for
// any page with a <head>, however long.
func TestAPageMarkHoldsForThePageAlone(t *testing.T) {
	for _, page := range []string{"<head></head>", "<html><head><title>x</title></head><body>" + strings.Repeat("y", 3*maxHeadBytes) + "</body></html>"} {
		marked, err := markPage([]byte(page))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "p.html")
		os.WriteFile(path, marked, 0o644)
		if err := checkReplaceable(path); err != nil {
			t.Errorf("%.20s: %v", page, err)
		}
		os.WriteFile(path, append(marked, ' '), 0o644)
		if err := checkReplaceable(path); err == nil {
			t.Errorf("%.20s: a byte added, and the mark holds", page)
		}
	}
}
