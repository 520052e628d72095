package main

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// snapshot hashes every file under dir, so that a test can say nothing in it changed.
func snapshot(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	out := map[string][32]byte{}
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if d.Type().IsRegular() {
			body, _ := os.ReadFile(path)
			out[path] = sha256.Sum256(body)
		} else {
			out[path+" ("+d.Type().String()+")"] = [32]byte{}
		}
		return nil
	})
	return out
}

func unchanged(t *testing.T, dir string, before map[string][32]byte) {
	t.Helper()
	after := snapshot(t, dir)
	if len(after) != len(before) {
		t.Errorf("%s: %d entries, had %d", dir, len(after), len(before))
	}
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s changed", k)
		}
	}
}

// TestNoCommandDamagesABundle tries every way report and archive could write over or
// into a bundle, with and without --force: each is refused as bad input (exit 2) and
// the bundle stays byte for byte what it was.
func TestNoCommandDamagesABundle(t *testing.T) {
	dir := synthetic(t, "pi5", bundletestDefaults())
	if out, err := runApp(t, "archive", dir); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	other := synthetic(t, "other", bundletestDefaults())
	scratch := t.TempDir()
	emptyDir := filepath.Join(scratch, "empty.html")
	os.Mkdir(emptyDir, 0o755)
	notHTML := filepath.Join(scratch, "notes.txt")
	os.WriteFile(notHTML, []byte("keep me"), 0o644)
	link := filepath.Join(scratch, "link.html")
	os.Symlink(filepath.Join(dir, "runs.csv"), link)
	linkedBundle := filepath.Join(scratch, "linked")
	os.Symlink(dir, linkedBundle)

	guarded := []string{dir, dir + ".tar.gz", other, scratch}
	before := map[string]map[string][32]byte{}
	for _, g := range guarded {
		before[g] = snapshot(t, g)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"report", dir, "--out", filepath.Join(dir, "runs.csv"), "--force"}, ".html"},
		{[]string{"report", dir, "--out", filepath.Join(dir, "runs.html"), "--force"}, "inside the bundle folder"},
		{[]string{"report", dir, "--out", filepath.Join(other, "page.html")}, "inside the bundle folder"},
		{[]string{"report", dir, "--out", filepath.Join(linkedBundle, "page.html"), "--force"}, "inside the bundle folder"},
		{[]string{"report", dir + ".tar.gz", "--out", dir + ".tar.gz", "--force"}, ".html"},
		{[]string{"report", dir, "--out", emptyDir, "--force"}, "not a regular file (a folder)"},
		{[]string{"report", dir, "--out", link, "--force"}, "not a regular file (a symbolic link)"},
		{[]string{"report", dir, "--out", notHTML, "--force"}, ".html"},
		{[]string{"archive", dir, "--out", filepath.Join(dir, "x.tar.gz")}, "inside the bundle folder"},
		{[]string{"archive", other, "--out", dir + ".tar.gz"}, "already exists and is a bundle archive"},
		{[]string{"archive", dir, "--out", filepath.Join(other, "runs.csv")}, ".tar.gz"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, err := runApp(t, tc.args...)
			wantUsageError(t, err, tc.want)
		})
	}
	for _, g := range guarded {
		unchanged(t, g, before[g])
	}
	if fi, err := os.Lstat(emptyDir); err != nil || !fi.IsDir() {
		t.Error("the empty folder was replaced")
	}
}

// TestForceReplacesOnlyThePage: --force replaces a page report wrote; without it an
// existing page is refused.
func TestForceReplacesOnlyThePage(t *testing.T) {
	dir := synthetic(t, "pi5", bundletestDefaults())
	page := filepath.Join(t.TempDir(), "page.html")
	marked, err := markPage([]byte("<!DOCTYPE html><html><head></head>old</html>"))
	if err != nil {
		t.Fatal(err)
	}
	old := string(marked)
	os.WriteFile(page, marked, 0o644)
	_, err = runApp(t, "report", dir, "--out", page)
	wantUsageError(t, err, "pass --force")
	if body, _ := os.ReadFile(page); string(body) != old {
		t.Fatal("replaced without --force")
	}
	if out, err := runApp(t, "report", dir, "--out", page, "--force"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if body, _ := os.ReadFile(page); !strings.HasPrefix(string(body), "<!DOCTYPE html>") {
		t.Fatal("not replaced with --force")
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(page), ".page.html.*"))
	if len(leftovers) > 0 {
		t.Fatalf("temporary files left: %v", leftovers)
	}
}

// TestHelpAnywhereOnTheLine: --help after the arguments shows the help, exits 0 and does
// nothing else.
func TestHelpAnywhereOnTheLine(t *testing.T) {
	dir := synthetic(t, "pi5", bundletestDefaults())
	before := snapshot(t, filepath.Dir(dir))
	for _, args := range [][]string{
		{"verify", dir, "--help"}, {"verify", dir, "-h"}, {"compare", dir, dir, "--help"},
		{"report", dir, "--help"}, {"archive", dir, "-h"}, {"report", dir, "--force", "--help"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			out, err := runApp(t, args...)
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if !strings.Contains(out, "USAGE:") || !strings.Contains(out, "logbench "+args[0]) || strings.Contains(out, "OK: ") {
				t.Fatalf("not the help, or the command ran:\n%s", out)
			}
		})
	}
	unchanged(t, filepath.Dir(dir), before)
}

// TestVerifyChecksEveryArgument: an unreadable bundle among others is reported, and
// the ones after it are still checked.
func TestVerifyChecksEveryArgument(t *testing.T) {
	good := synthetic(t, "good", bundletestDefaults())
	good2 := synthetic(t, "good2", bundletestDefaults())
	bad := synthetic(t, "bad", bundletestDefaults())
	os.WriteFile(filepath.Join(bad, "runs.csv"), []byte("run_id\n"), 0o644)
	truncated := filepath.Join(t.TempDir(), "truncated.tar.gz")
	if out, err := runApp(t, "archive", good, "--out", filepath.Join(t.TempDir(), "whole.tar.gz")); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	os.WriteFile(truncated, []byte("\x1f\x8b\x08\x00 not really"), 0o644)
	missing := filepath.Join(t.TempDir(), "missing")
	out, err := runApp(t, "verify", good, truncated, bad, missing, good2)
	if err == nil || err.Error() != "3 of 5 bundles do not verify" {
		t.Fatalf("err = %v\n%s", err, out)
	}
	for _, want := range []string{"OK: " + good + ":", "FAILED: " + truncated + ":", "FAILED: " + bad + ":", "FAILED: " + missing + ":", "OK: " + good2 + ":"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestHelpIsTrue: calibrate lists no flag it ignores, and refuses one given; run does
// not offer --api all.
func TestHelpIsTrue(t *testing.T) {
	out, err := runApp(t, "calibrate", "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"--out ", "--duration ", "--api "} {
		if strings.Contains(out, flag) {
			t.Errorf("calibrate --help lists %s:\n%s", flag, out)
		}
	}
	for _, flag := range []string{"api", "duration"} { // calibration measures the Go images with run lengths of its own
		_, err := runApp(t, "calibrate", "--"+flag, map[string]string{"api": "go", "duration": "3s"}[flag])
		wantUsageError(t, err, "calibrate has no --"+flag)
	}
	out, _ = runApp(t, "run", "--help")
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "--api ") && strings.Contains(line, "all") {
			t.Errorf("run --help offers --api all: %s", line)
		}
	}
	// Every flag a bundle command lists is one its action reads.
	for _, cmd := range []*cli.Command{compareCommand(), reportCommand(), archiveCommand(), verifyCommand()} {
		src, err := os.ReadFile("cmd_" + cmd.Name + ".go")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range cmd.Flags {
			name := f.Names()[0]
			uses := strings.Count(string(src), `"`+name+`"`)
			if uses < 2 && !slices.Contains([]string{"help"}, name) {
				t.Errorf("%s --%s: declared, never read", cmd.Name, name)
			}
		}
	}
}
