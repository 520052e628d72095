//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mkfifo makes a FIFO at path that no one ever writes to: a command that opened it for
// reading the ordinary way would wait for a writer for ever.
func mkfifo(t *testing.T, path string) string {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	return path
}

// runAppGuarded is runApp that fails the test, rather than hang it, should the command
// not return: the guard is far beyond any refusal's time, only a hang reaches it.
func runAppGuarded(t *testing.T, args ...string) (string, error) {
	t.Helper()
	type result struct {
		out string
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, err := runApp(t, args...)
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		return r.out, r.err
	case <-time.After(time.Minute):
		t.Fatalf("logbench %s: still running after a minute (blocked on a FIFO?)", strings.Join(args, " "))
		return "", nil
	}
}

// TestNonRegularFilesAreRefusedWithoutBeingRead: a FIFO, a device or a socket, or a
// link to one, given as a bundle archive, a key, a signature or a signing key, or found
// as a bundle folder's manifest.json (for verify, compare, report, archive and
// reproduce --resume), is refused in one line naming it, without being opened for
// reading: none of these FIFOs ever has a writer, so a read would never return.
func TestNonRegularFilesAreRefusedWithoutBeingRead(t *testing.T) {
	dir := t.TempDir()
	good := synthetic(t, "good", bundletestDefaults())
	if out, err := runApp(t, "archive", good); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	_, pub := keyFiles(t)
	fifoArchive := mkfifo(t, filepath.Join(dir, "x.tar.gz"))
	linkToFIFO := filepath.Join(dir, "link.tar.gz")
	os.Symlink(fifoArchive, linkToFIFO)
	linkToDevice := filepath.Join(dir, "zero.tar.gz")
	os.Symlink("/dev/zero", linkToDevice)
	fifoKey := mkfifo(t, filepath.Join(dir, "key.pub"))
	fifoPrivate := mkfifo(t, filepath.Join(dir, "id_ed25519"))

	// A bundle whose signature beside it is a FIFO.
	signed := synthetic(t, "signed", bundletestDefaults())
	if out, err := runApp(t, "archive", signed); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	mkfifo(t, filepath.Join(filepath.Dir(signed), "signed.SHA256SUMS.sig"))

	// Bundle folders whose manifest.json is a FIFO, or a link to /dev/zero.
	fifoManifest := synthetic(t, "fifo-manifest", bundletestDefaults())
	os.Remove(filepath.Join(fifoManifest, "manifest.json"))
	mkfifo(t, filepath.Join(fifoManifest, "manifest.json"))
	zeroManifest := synthetic(t, "zero-manifest", bundletestDefaults())
	os.Remove(filepath.Join(zeroManifest, "manifest.json"))
	os.Symlink("/dev/zero", filepath.Join(zeroManifest, "manifest.json"))

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"verify a FIFO archive", []string{"verify", fifoArchive}, fifoArchive + ": a FIFO (named pipe), not a regular file: refused without reading it"},
		{"verify a link to a FIFO archive", []string{"verify", linkToFIFO}, "a FIFO (named pipe), not a regular file"},
		{"verify a link to /dev/zero", []string{"verify", linkToDevice}, "a character device, not a regular file"},
		{"compare with a FIFO archive", []string{"compare", good + ".tar.gz", fifoArchive}, "a FIFO (named pipe), not a regular file"},
		{"report on a FIFO archive", []string{"report", fifoArchive, "--out", filepath.Join(dir, "r.html")}, "a FIFO (named pipe), not a regular file"},
		{"verify --key a FIFO", []string{"verify", "--key", fifoKey, good + ".tar.gz"}, "--key: " + fifoKey + ": a FIFO (named pipe)"},
		{"verify --key with a FIFO signature", []string{"verify", "--key", pub, signed + ".tar.gz"}, "signed.SHA256SUMS.sig: a FIFO (named pipe)"},
		{"archive --sign a FIFO", []string{"archive", synthetic(t, "to-sign", bundletestDefaults()), "--sign", fifoPrivate}, "--sign: " + fifoPrivate + ": a FIFO (named pipe)"},
		{"verify a folder whose manifest is a FIFO", []string{"verify", fifoManifest}, "manifest.json (not a regular file): not a bundle file"},
		{"verify a folder whose manifest links to /dev/zero", []string{"verify", zeroManifest}, "manifest.json (a symbolic link): not a bundle file"},
		{"compare a folder whose manifest is a FIFO", []string{"compare", good, fifoManifest}, "manifest.json (not a regular file): not a bundle file"},
		{"report on a folder whose manifest is a FIFO", []string{"report", fifoManifest, "--out", filepath.Join(dir, "r2.html")}, "manifest.json (not a regular file): not a bundle file"},
		{"archive a folder whose manifest is a FIFO", []string{"archive", fifoManifest}, "manifest.json (not a regular file): not a bundle file"},
		{"resume a folder whose manifest is a FIFO", []string{"reproduce", "--resume", fifoManifest}, "--resume " + fifoManifest + ": " + filepath.Join(fifoManifest, "manifest.json") + ": a FIFO (named pipe), not a regular file"},
		{"resume a folder whose manifest links to /dev/zero", []string{"reproduce", "--resume", zeroManifest}, "manifest.json: a symbolic link, not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runAppGuarded(t, tc.args...)
			if err == nil {
				t.Fatalf("no error:\n%s", out)
			}
			if all := out + err.Error(); !strings.Contains(all, tc.want) {
				t.Fatalf("err %v, output:\n%s\nwant %q", err, out, tc.want)
			}
		})
	}
}
