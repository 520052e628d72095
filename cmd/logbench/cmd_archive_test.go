package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestArchiveIsDeterministicAndVerifies(t *testing.T) {
	dir := synthetic(t, "20261130T100000Z-pi5", bundletestDefaults())
	out, err := runApp(t, "archive", dir)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	path := dir + ".tar.gz"
	if !strings.Contains(out, "archive: "+path+" (8 files in 20261130T100000Z-pi5/") {
		t.Fatalf("output:\n%s", out)
	}
	first, _ := os.ReadFile(path)
	again := filepath.Join(t.TempDir(), "again.tar.gz")
	if out, err := runApp(t, "archive", dir, "--out", again); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	second, _ := os.ReadFile(again)
	if !bytes.Equal(first, second) {
		t.Fatal("the same bundle gave two different archives")
	}
	// The archive verifies in place, and unpacks into a folder that sha256sum accepts.
	if out, err := runApp(t, "verify", path); err != nil || !strings.HasPrefix(out, "OK: ") {
		t.Fatalf("verify of the archive: %v\n%s", err, out)
	}
	if _, err := exec.LookPath("tar"); err == nil {
		dest := t.TempDir()
		if out, err := exec.Command("tar", "-xzf", path, "-C", dest).CombinedOutput(); err != nil {
			t.Fatalf("tar: %v\n%s", err, out)
		}
		cmd := exec.Command("sha256sum", "--strict", "-c", "SHA256SUMS")
		cmd.Dir = filepath.Join(dest, "20261130T100000Z-pi5")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("sha256sum -c in the unpacked archive: %v\n%s", err, out)
		}
	}
	// An existing archive is never replaced.
	_, err = runApp(t, "archive", dir)
	wantUsageError(t, err, "already exists")
}

func TestArchiveRefusesABundleThatDoesNotVerify(t *testing.T) {
	dir := synthetic(t, "pi5", bundletestDefaults())
	body, _ := os.ReadFile(filepath.Join(dir, "runs.csv"))
	body[len(body)-3] ^= 1
	os.WriteFile(filepath.Join(dir, "runs.csv"), body, 0o644)
	out, err := runApp(t, "archive", dir)
	if err == nil || !strings.Contains(err.Error(), "does not verify") || !strings.Contains(out, "runs.csv: SHA-256: have ") {
		t.Fatalf("err = %v\n%s", err, out)
	}
	if _, err := os.Stat(dir + ".tar.gz"); !os.IsNotExist(err) {
		t.Fatal("an archive was written")
	}
}

func TestArchiveRejectsBadInput(t *testing.T) {
	_, err := runApp(t, "archive")
	wantUsageError(t, err, "one bundle folder")
	_, err = runApp(t, "archive", "results/x.tar.gz")
	wantUsageError(t, err, "already an archive")
}
