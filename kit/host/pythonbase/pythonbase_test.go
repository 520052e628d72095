package pythonbase

import (
	"archive/tar"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"
)

func TestPythonVersionFromDpkgStatus(t *testing.T) {
	status := `Package: python3
Status: install ok installed
Version: 3.11.2-1+b1
Depends: python3.11 (>= 3.11.2-1~)

Package: python3.10
Status: deinstall ok config-files
Version: 3.10.9-1

Package: python3.11
Status: install ok installed
Priority: optional
Version: 3.11.2-6+deb12u6
Description: Interactive high-level object-oriented language (version 3.11)
 Python is a high-level, interactive, object-oriented language. Its 3.11 version
 includes an extensive class library.

Package: python3.11-minimal
Status: install ok installed
Version: 3.11.2-6+deb12u6
`
	up, deb, err := pythonVersion([]byte(status))
	if err != nil || up != "3.11.2" || deb != "3.11.2-6+deb12u6" {
		t.Fatalf("have %q %q %v", up, deb, err)
	}
	if up, _, _ := pythonVersion([]byte("Package: python3.12\nStatus: install ok installed\nVersion: 1:3.12.1-2\n")); up != "3.12.1" {
		t.Fatalf("epoch: have %q", up)
	}
	if _, _, err := pythonVersion([]byte("Package: bash\nStatus: install ok installed\nVersion: 5.2.15-2+b2\n")); err == nil {
		t.Fatal("want an error without python")
	}
}

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func files(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		rel, _ := filepath.Rel(root, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	sort.Strings(out)
	return out
}

func TestStripKeepsWhatPythonNeedsAndTheCopyrights(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{
		"usr/bin/python3.11",
		"usr/lib/python3.11/json/__init__.py",
		"usr/share/doc/python3.11/copyright",
		"usr/share/doc/python3.11/changelog.Debian.gz",
		"usr/share/doc/python3.11/examples/x.py",
		"usr/share/man/man1/python3.11.1.gz",
		"usr/share/locale/de/LC_MESSAGES/dpkg.mo",
		"usr/lib/locale/C.utf8/LC_CTYPE",
		"var/cache/apt/archives/python3.11_3.11.2-6_amd64.deb",
		"var/lib/apt/lists/deb.debian.org_debian_dists_bookworm_InRelease",
		"var/cache/debconf/config.dat",
		"var/cache/debconf/config.dat-old",
		"var/lib/dpkg/status",
		"var/log/dpkg.log",
	} {
		write(t, filepath.Join(root, p), "x")
	}
	if err := strip(root); err != nil {
		t.Fatal(err)
	}
	want := []string{
		".", "usr", "usr/bin", "usr/bin/python3.11",
		"usr/lib", "usr/lib/locale", "usr/lib/locale/C.utf8", "usr/lib/locale/C.utf8/LC_CTYPE",
		"usr/lib/python3.11", "usr/lib/python3.11/json", "usr/lib/python3.11/json/__init__.py",
		"usr/share", "usr/share/doc", "usr/share/doc/python3.11", "usr/share/doc/python3.11/copyright",
		"usr/share/locale", "usr/share/man",
		"var", "var/cache", "var/cache/apt", "var/cache/debconf", "var/cache/debconf/config.dat",
		"var/lib", "var/lib/apt", "var/lib/apt/lists", "var/lib/dpkg", "var/lib/dpkg/status", "var/log",
	}
	if d := cmp.Diff(want, files(t, root)); d != "" {
		t.Fatalf("after strip (-want +have):\n%s", d)
	}
}

func TestWriteTarKeepsLinksOwnersAndModes(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "usr/bin/python3.11"), "interpreter")
	must(t, os.Chmod(filepath.Join(root, "usr/bin/python3.11"), 0o755))
	must(t, os.Symlink("python3.11", filepath.Join(root, "usr/bin/python3")))
	must(t, os.Link(filepath.Join(root, "usr/bin/python3.11"), filepath.Join(root, "usr/bin/python3.11-hard")))
	must(t, os.MkdirAll(filepath.Join(root, "tmp"), 0o777))
	must(t, os.Chmod(filepath.Join(root, "tmp"), os.ModeSticky|0o777))
	write(t, filepath.Join(root, "dev/null-ish"), "not copied")
	write(t, filepath.Join(root, "proc/self-ish"), "not copied")
	must(t, unix.Mkfifo(filepath.Join(root, "run-fifo"), 0o600))

	var buf bytes.Buffer
	if err := writeTar(&buf, root); err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(&buf)
	got := map[string]*tar.Header{}
	var names []string
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if hdr.Typeflag == tar.TypeReg {
			body, _ := io.ReadAll(tr)
			if string(body) != "interpreter" {
				t.Fatalf("%s: body %q", hdr.Name, body)
			}
		}
		got[hdr.Name] = hdr
		names = append(names, hdr.Name)
	}
	want := []string{"dev/", "proc/", "run-fifo", "tmp/", "usr/", "usr/bin/", "usr/bin/python3", "usr/bin/python3.11", "usr/bin/python3.11-hard"}
	if d := cmp.Diff(want, names); d != "" {
		t.Fatalf("entries (-want +have):\n%s", d)
	}
	if h := got["usr/bin/python3"]; h.Typeflag != tar.TypeSymlink || h.Linkname != "python3.11" {
		t.Errorf("symlink: %+v", h)
	}
	if h := got["usr/bin/python3.11-hard"]; h.Typeflag != tar.TypeLink || h.Linkname != "usr/bin/python3.11" {
		t.Errorf("hard link: %+v", h)
	}
	if h := got["usr/bin/python3.11"]; h.Mode&0o777 != 0o755 || h.Uid != os.Getuid() || h.Uname != "" {
		t.Errorf("file: mode %o uid %d uname %q", h.Mode, h.Uid, h.Uname)
	}
	if h := got["tmp/"]; h.Mode&0o7777 != 0o1777 {
		t.Errorf("tmp mode %o", h.Mode)
	}
	if h := got["run-fifo"]; h.Typeflag != tar.TypeFifo {
		t.Errorf("fifo: %+v", h)
	}
}

func TestMountsUnderADirectory(t *testing.T) {
	info := strings.Join([]string{
		`22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw`,
		`90 22 0:5 / /tmp/logbench-python-base-1/rootfs/proc rw - proc proc rw`,
		`91 22 0:6 / /tmp/logbench-python-base-1/rootfs/dev/pts rw - devpts devpts rw`,
		`92 22 0:7 / /tmp/logbench-python-base-1/rootfs/sys rw - sysfs sysfs rw`,
		`93 22 0:8 / /tmp/logbench-python-base-10/rootfs/proc rw - proc proc rw`,
		`94 22 0:9 / /tmp/logbench-python-base-1/with\040space rw - tmpfs tmpfs rw`,
	}, "\n")
	have, err := parseMountinfo(strings.NewReader(info), "/tmp/logbench-python-base-1/")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"/tmp/logbench-python-base-1/rootfs/dev/pts",
		"/tmp/logbench-python-base-1/rootfs/proc",
		"/tmp/logbench-python-base-1/rootfs/sys",
		"/tmp/logbench-python-base-1/with space",
	}
	sort.Strings(have)
	if d := cmp.Diff(want, have); d != "" {
		t.Fatalf("(-want +have):\n%s", d)
	}
}

func TestRemoveTreeRemovesAnUnmountedFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "work")
	write(t, filepath.Join(dir, "rootfs/etc/hostname"), "x")
	if err := removeTree(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("still there: %v", err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestMissingDebootstrapIsOneClearLine(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no debootstrap on it
	err := Options{}.withDefaults().checkMachine(context.Background(), nil)
	if err == nil || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err = %v, want one line", err)
	}
	want := "apt-get install debootstrap"
	if os.Geteuid() != 0 {
		want = "needs root"
	}
	if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), Tag) {
		t.Fatalf("err = %q, want it to name %s and say %q", err, Tag, want)
	}
}
