package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rewrite replaces a file of a bundle folder and its line of SHA256SUMS, as a forger
// would.
func rewrite(t *testing.T, dir, name string, edit func([]byte) []byte) {
	t.Helper()
	path := filepath.Join(dir, name)
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	body := edit(old)
	os.WriteFile(path, body, 0o644)
	oldSum, newSum := sha256.Sum256(old), sha256.Sum256(body)
	sumsPath := filepath.Join(dir, "SHA256SUMS")
	sums, _ := os.ReadFile(sumsPath)
	os.WriteFile(sumsPath, bytes.Replace(sums, []byte(hex.EncodeToString(oldSum[:])), []byte(hex.EncodeToString(newSum[:])), 1), 0o644)
}

func TestBundleTextReachesTheTerminalEscaped(t *testing.T) {
	const evil = `test\u001b]0;owned\u0007\u001b[2J\u009b1mhost`
	const evilShown = `test\x1b]0;owned\x07\x1b[2J\x9b1mhost`
	var dirs []string
	for _, name := range []string{"a", "b"} {
		dir := synthetic(t, name, bundletestDefaults())
		rewrite(t, dir, "manifest.json", func(b []byte) []byte {
			return bytes.Replace(b, []byte(`"host": "testhost"`), []byte(`"host": "`+evil+`"`), 1)
		})
		dirs = append(dirs, dir)
	}
	// A mode renamed in every file, consistently: a mode no flag sets, refused by the
	// parameters' rules, and said escaped.
	renamed := synthetic(t, "renamed", bundletestDefaults())
	entries, _ := os.ReadDir(renamed)
	for _, e := range entries {
		if e.Name() == "SHA256SUMS" {
			continue
		}
		rewrite(t, renamed, e.Name(), func(b []byte) []byte {
			to := "sh\x1b[2Jort1"
			if strings.HasSuffix(e.Name(), ".json") {
				to = `sh\u001b[2Jort1`
			}
			return bytes.ReplaceAll(b, []byte("short1"), []byte(to))
		})
	}
	raw := func(args []string, out string) {
		if strings.ContainsAny(out, "\x1b\x07\u009b") {
			t.Errorf("%v printed a control character raw:\n%q", args, out)
		}
	}
	for _, args := range [][]string{
		{"verify", dirs[0]},
		{"compare", dirs[0], dirs[1]},
		{"compare", "--format", "csv", dirs[0], dirs[1]},
		{"report", "--out", filepath.Join(t.TempDir(), "r.html"), dirs[0]},
	} {
		stdout, stderr, err := runAppSplit(t, args...)
		if err != nil {
			t.Fatalf("%v: %v\n%s%s", args, err, stdout, stderr)
		}
		raw(args, stdout+stderr)
		if strings.Contains(stdout+stderr, "owned") && !strings.Contains(stdout+stderr, evilShown) {
			t.Errorf("%v does not show the host name escaped:\n%s%s", args, stdout, stderr)
		}
	}
	for _, args := range [][]string{
		{"verify", renamed},
		{"compare", renamed, dirs[0]},
		{"report", "--out", filepath.Join(t.TempDir(), "r.html"), renamed},
	} {
		stdout, stderr, err := runAppSplit(t, args...)
		out := stdout + stderr
		if err != nil {
			out += err.Error()
		}
		raw(args, out)
		if err == nil || !strings.Contains(out, `--modes: unknown "sh\x1b[2Jort1"`) {
			t.Errorf("%v: %v, want the renamed mode refused, escaped:\n%s", args, err, out)
		}
	}
	page := filepath.Join(t.TempDir(), "host.html")
	if out, err := runApp(t, "report", "--out", page, dirs[0]); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	body, _ := os.ReadFile(page)
	if bytes.ContainsAny(body, "\x1b\x07\u009b") || !bytes.Contains(body, []byte(evilShown)) {
		t.Error("the page does not show the host's control characters escaped")
	}
}

func TestAHugeHeaderGivesShortMessages(t *testing.T) {
	dir := synthetic(t, "pi5", bundletestDefaults())
	huge := strings.Repeat("x", 1<<20)
	rewrite(t, dir, "runs.csv", func(b []byte) []byte { return append([]byte(huge+","), b...) })
	for _, cmd := range []string{"verify", "report"} {
		args := []string{cmd, dir}
		if cmd == "report" {
			args = append(args, "--out", filepath.Join(t.TempDir(), "r.html"))
		}
		stdout, stderr, err := runAppSplit(t, args...)
		if err == nil {
			t.Fatalf("%s took a header with an unknown column", cmd)
		}
		for _, line := range strings.Split(stdout+stderr+err.Error(), "\n") {
			if len(line) > 600 {
				t.Errorf("%s printed a line of %d bytes: %.120q…", cmd, len(line), line)
			}
		}
	}
}
