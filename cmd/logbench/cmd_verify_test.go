package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/internal/fifostalltest"
)

// synthetic saves a small synthetic bundle in a fresh folder named name.
func synthetic(t *testing.T, name string, o fifostalltest.Options) string {
	t.Helper()
	if o.Duration == 0 {
		o.Duration = 2 * time.Second
	}
	if o.Rounds == 0 {
		o.Rounds = 1
	}
	dir := filepath.Join(t.TempDir(), name)
	if err := fifostalltest.Save(fifostalltest.New(o), dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

func wantUsageError(t *testing.T, err error, want string) {
	t.Helper()
	var usage usageError
	if !errors.As(err, &usage) || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err = %v (%T), want a one-line usage error naming %q", err, err, want)
	}
}

func TestVerifyAGoodBundle(t *testing.T) {
	dir := synthetic(t, "pi5", fifostalltest.Options{})
	out, err := runApp(t, "verify", dir)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.HasPrefix(out, "OK: "+dir+": 7 files match SHA256SUMS; fifo-stall: 6 runs (6 verified") {
		t.Fatalf("output:\n%s", out)
	}
}

func TestVerifyListsEachProblemAndFails(t *testing.T) {
	dir := synthetic(t, "pi5", fifostalltest.Options{})
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644)
	os.Remove(filepath.Join(dir, "timeline.csv"))
	out, err := runApp(t, "verify", dir)
	if err == nil || errors.As(err, new(usageError)) || err.Error() != "1 of 1 bundles do not verify" {
		t.Fatalf("err = %v, want a plain failure (exit 1)", err)
	}
	for _, want := range []string{"  notes.txt: not a bundle file", "  timeline.csv: missing (SHA256SUMS line 7 lists it)", "FAILED: " + dir + ": 6 files match SHA256SUMS"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The verdict comes first, its problems right under it, before anything else.
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[0], "FAILED: "+dir) || !strings.HasPrefix(lines[1], "  notes.txt: not a bundle file") {
		t.Errorf("the verdict and then the problems do not come first:\n%s", out)
	}
	// --quiet: the verdict and the problems only, and the same failure.
	quiet, err := runApp(t, "verify", "--quiet", dir)
	if err == nil || err.Error() != "1 of 1 bundles do not verify" {
		t.Fatalf("--quiet: err = %v", err)
	}
	// The kit checks nothing that rests on a file it lacks: two problems, no cascade.
	if have, want := strings.Count(quiet, "\n"), 1+2; have != want || !strings.HasPrefix(quiet, lines[0]+"\n") || strings.Contains(quiet, "lag-trusted") || strings.Contains(quiet, "weakened") {
		t.Errorf("--quiet printed %d lines, want the verdict and 2 problems:\n%s", have, quiet)
	}
}

// TestVerifyPutsEachBundlesNotesUnderItsVerdict: a bundle with notes (an archived one
// written before the kit added columns) prints its verdict line, then its notes, then
// its conditions; the next bundle's verdict follows, and --quiet keeps only verdicts.
func TestVerifyPutsEachBundlesNotesUnderItsVerdict(t *testing.T) {
	const old, clean = "../../results/2026-11-30-vm2/fifo-py.tar.gz", "../../results/2026-12-04-vm/qps-wrk-quiet.tar.gz"
	out, err := runApp(t, "verify", old, clean)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "OK: "+old) || !strings.HasPrefix(lines[1], "  note: ") {
		t.Errorf("the first bundle's verdict, then its notes, do not come first:\n%s", out)
	}
	second := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "OK: "+clean) })
	if second < 0 || slices.ContainsFunc(lines[second:], func(l string) bool { return strings.HasPrefix(l, "  note: ") }) {
		t.Errorf("a note is not under its own bundle's verdict:\n%s", out)
	}
	quiet, err := runApp(t, "verify", "-q", old, clean)
	if err != nil || quiet != lines[0]+"\n"+lines[second]+"\n" {
		t.Errorf("--quiet: %v\n%s", err, quiet)
	}
}

func TestVerifyRefusesAHostileArchive(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: "pi5/../../etc/cron.d/x", Mode: 0o644, Size: 1})
	tw.Write([]byte("x"))
	tw.Close()
	zw.Close()
	path := filepath.Join(t.TempDir(), "evil.tar.gz")
	os.WriteFile(path, buf.Bytes(), 0o644)
	out, err := runApp(t, "verify", path)
	if err == nil || err.Error() != "1 of 1 bundles do not verify" || !strings.Contains(out, "FAILED: "+path+": ") ||
		!strings.Contains(out, "entry \"pi5/../../etc/cron.d/x\": `..` in the path: refused") {
		t.Fatalf("err = %v\n%s", err, out)
	}
}

func TestVerifyRejectsBadInput(t *testing.T) {
	_, err := runApp(t, "verify")
	wantUsageError(t, err, "one or more bundles")
	_, err = runApp(t, "verify", t.TempDir(), "--strict")
	wantUsageError(t, err, "--strict")
}
