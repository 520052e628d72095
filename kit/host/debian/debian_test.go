package debian

import (
	"archive/tar"
	"bytes"
	"encoding/hex"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/google/go-cmp/cmp"
)

func TestBuildIsDeterministicAndMergesThePackages(t *testing.T) {
	a := newFakeArchive(t, testPackages)
	cache := t.TempDir()
	res1, tar1, err := build(t, a.options(cache))
	if err != nil {
		t.Fatal(err)
	}
	// Once more from the cache, and once from a fresh one: the same bytes.
	res2, tar2, err := build(t, a.options(cache))
	if err != nil {
		t.Fatal(err)
	}
	res3, _, err := build(t, a.options(""))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(tar1, tar2) || res1.RootfsSHA256 != res2.RootfsSHA256 || res1.RootfsSHA256 != res3.RootfsSHA256 {
		t.Fatalf("two builds of one Release differ: %s %s %s", res1.RootfsSHA256, res2.RootfsSHA256, res3.RootfsSHA256)
	}
	if res1.RootfsSHA256 != sha(tar1) || res1.RootfsBytes != int64(len(tar1)) {
		t.Errorf("result says %s (%d bytes), the stream is %s (%d)", res1.RootfsSHA256, res1.RootfsBytes, sha(tar1), len(tar1))
	}
	var names []string
	for _, p := range res1.Packages {
		names = append(names, p.Name+" "+p.Version)
		if len(p.SHA256) != 64 {
			t.Errorf("%s: sha256 %q", p.Name, p.SHA256)
		}
	}
	if d := cmp.Diff([]string{"app 1.0-1", "libc6 2.36-9", "mawk 1.3.4-3"}, names); d != "" {
		t.Errorf("packages (-want +have):\n%s", d)
	}
	if !res1.ReleaseDate.Equal(a.date) || res1.InReleaseSHA256 != sha(a.get("dists/bookworm/InRelease")) || res1.Arch != "amd64" || res1.Suite != "bookworm" {
		t.Errorf("result %+v", res1)
	}

	tr := tar.NewReader(bytes.NewReader(tar1))
	entries := map[string]*tar.Header{}
	bodies := map[string]string{}
	var order []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(tr)
		entries[h.Name], bodies[h.Name] = h, string(b)
		order = append(order, h.Name)
		if !h.ModTime.Equal(a.date) || h.Uid != 0 || h.Gid != 0 || h.Uname != "" {
			t.Errorf("%s: mtime %s uid %d gid %d uname %q", h.Name, h.ModTime, h.Uid, h.Gid, h.Uname)
		}
	}
	if !sortedStrings(order) {
		t.Errorf("entries not sorted: %v", order)
	}
	for name, want := range map[string]string{
		"bin": "usr/bin", "lib": "usr/lib", "lib64": "usr/lib64", "sbin": "usr/sbin", "usr/bin/awk": "mawk",
		"usr/lib64/ld-linux-x86-64.so.2": "/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
	} {
		if h := entries[name]; h == nil || h.Typeflag != tar.TypeSymlink || h.Linkname != want {
			t.Errorf("%s: want a link to %s, have %+v", name, want, h)
		}
	}
	for name, want := range map[string]string{
		"usr/lib/x86_64-linux-gnu/libc.so.6": "ELF libc", "usr/bin/app": "#!app\n",
		"usr/share/doc/app/copyright": "MIT\n", "etc/passwd": "root:x:0:0:root:/root:/bin/sh\n",
	} {
		if bodies[name] != want {
			t.Errorf("%s: have %q, want %q", name, bodies[name], want)
		}
	}
	for _, gone := range []string{"usr/share/doc/app/changelog.gz", "usr/bin/unrelated", "lib/x86_64-linux-gnu/libc.so.6"} {
		if entries[gone] != nil {
			t.Errorf("%s should not be in the image", gone)
		}
	}
	if h := entries["tmp/"]; h == nil || h.Mode&0o7777 != 0o1777 {
		t.Errorf("tmp: %+v", h)
	}
	if st := bodies["var/lib/dpkg/status"]; !strings.Contains(st, "Package: mawk\nStatus: install ok installed\n") || strings.Contains(st, "SHA256") || !strings.Contains(st, " long description") {
		t.Errorf("dpkg status:\n%s", st)
	}
}

func sortedStrings(s []string) bool {
	for i := 1; i < len(s); i++ {
		if s[i-1] >= s[i] {
			return false
		}
	}
	return true
}

func TestATamperedReleaseIsRefused(t *testing.T) {
	a := newFakeArchive(t, testPackages)
	good := a.get("dists/bookworm/InRelease")
	for name, in := range map[string][]byte{
		// One changed line of the signed text: a different Packages.xz checksum.
		"changed text": bytes.Replace(good, []byte("Codename: bookworm"), []byte("Codename: bookworn"), 1),
		"unsigned":     []byte("Codename: bookworm\nDate: Sat, 11 Jul 2026 10:16:37 UTC\n"),
		"other key":    clearSign(t, mustEntity(t), strings.SplitN(string(good), "\n\n", 2)[1]),
	} {
		t.Run(name, func(t *testing.T) {
			a.set("dists/bookworm/InRelease", in)
			_, _, err := build(t, a.options(""))
			if err == nil || !strings.Contains(err.Error(), "InRelease") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want one line refusing InRelease", err)
			}
			t.Log(err)
		})
	}
	t.Run("the embedded Debian keys refuse the test key", func(t *testing.T) {
		a.set("dists/bookworm/InRelease", good)
		o := a.options("")
		o.Keys = nil
		if _, _, err := build(t, o); err == nil || !strings.Contains(err.Error(), "signature") {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestATamperedIndexIsRefused(t *testing.T) {
	a := newFakeArchive(t, testPackages)
	const path = "dists/bookworm/main/binary-amd64/Packages.xz"
	a.set(path, xzBytes(t, []byte("Package: app\nVersion: 6.6.6\nArchitecture: amd64\nFilename: evil.deb\nSize: 1\nSHA256: "+strings.Repeat("0", 64)+"\n")))
	_, _, err := build(t, a.options(""))
	if err == nil || !strings.Contains(err.Error(), "does not match the signed index") || !strings.Contains(err.Error(), "Packages.xz") {
		t.Fatalf("err = %v", err)
	}
}

func TestATamperedPackageIsRefusedAndNotCached(t *testing.T) {
	a := newFakeArchive(t, testPackages)
	const path = "pool/main/l/libc6_2.36-9_amd64.deb"
	deb := a.get(path)
	evil := bytes.Replace(deb, []byte("2.0\n"), []byte("2.1\n"), 1)
	a.set(path, evil)
	cache := t.TempDir()
	_, _, err := build(t, a.options(cache))
	if err == nil || !strings.Contains(err.Error(), "package libc6 2.36-9") || !strings.Contains(err.Error(), "does not match the signed index") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(cache, sha(evil))); err == nil {
		t.Error("the tampered package was cached")
	}
	// A cached file damaged after the fact is fetched anew.
	a.set(path, deb)
	if _, _, err := build(t, a.options(cache)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cache, sha(deb)), evil, 0o600); err != nil {
		t.Fatal(err)
	}
	a.set(path, evil)
	if _, _, err := build(t, a.options(cache)); err == nil {
		t.Fatal("a damaged cache entry was used")
	}
}

func TestABadMirrorIsOneLine(t *testing.T) {
	a := newFakeArchive(t, testPackages)
	o := a.options("")
	a.srv.Close()
	_, _, err := build(t, o)
	if err == nil || !strings.Contains(err.Error(), "unreachable") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err = %v", err)
	}
	o.Mirror = "http://127.0.0.1:1/nothing"
	if _, _, err = build(t, o); err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Fatalf("err = %v", err)
	}
}

func TestSnapshotNamesTheArchiveState(t *testing.T) {
	for in, want := range map[string]string{
		"20240615T000000Z": SnapshotArchive + "20240615T000000Z",
		"2024-06-15":       SnapshotArchive + "20240615T000000Z",
		"":                 DefaultMirror,
	} {
		o, err := Options{Arch: "amd64", Snapshot: in, CacheDir: "x"}.withDefaults()
		if err != nil || o.Mirror != want {
			t.Errorf("Snapshot %q: mirror %q, %v; want %q", in, o.Mirror, err, want)
		}
	}
	if _, err := (Options{Arch: "amd64", Snapshot: "last tuesday"}).withDefaults(); err == nil {
		t.Error("a bad snapshot was accepted")
	}
	if _, err := (Options{}).withDefaults(); err == nil {
		t.Error("no architecture was accepted")
	}
}

func TestTheEmbeddedKeysAreDebians(t *testing.T) {
	ring, err := Options{}.keyring()
	if err != nil {
		t.Fatal(err)
	}
	var have []string
	for _, e := range ring {
		have = append(have, strings.ToUpper(fingerprint(e.PrimaryKey.Fingerprint)))
	}
	want := []string{"B8B80B5B623EAB6AD8775C45B7C5D7D6350947F8", "4D64FEC119C2029067D6E791F8D2585B8783D481"}
	if d := cmp.Diff(want, have); d != "" {
		t.Errorf("keys (-want +have):\n%s", d)
	}
	readme, err := os.ReadFile("keys/README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, fp := range want {
		if !strings.Contains(string(readme), fp) {
			t.Errorf("keys/README.md does not name %s", fp)
		}
	}
}

func TestResolveARecordedIndex(t *testing.T) {
	text, err := os.ReadFile("testdata/Packages-bookworm-python-amd64")
	if err != nil {
		t.Fatal(err)
	}
	idx, err := parseIndex(text)
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := resolve(idx, []string{"python3", "base-files", "base-passwd", "dash"}, map[string]string{"dpkg": "test"})
	if err != nil {
		t.Fatal(err)
	}
	var have []string
	for _, p := range pkgs {
		have = append(have, p.Name)
	}
	want := strings.Fields(`base-files base-passwd dash debianutils gcc-12-base libbz2-1.0 libc6 libcom-err2
		libcrypt1 libdb5.3 libdebconfclient0 libexpat1 libffi8 libgcc-s1 libgssapi-krb5-2 libk5crypto3
		libkeyutils1 libkrb5-3 libkrb5support0 liblzma5 libncursesw6 libnsl2 libpcre2-8-0 libpython3-stdlib
		libpython3.11-minimal libpython3.11-stdlib libreadline8 libselinux1 libsqlite3-0 libssl3 libtinfo6
		libtirpc-common libtirpc3 libuuid1 mawk media-types python3 python3-minimal python3.11
		python3.11-minimal readline-common zlib1g`)
	if d := cmp.Diff(want, have); d != "" {
		t.Errorf("resolved (-want +have):\n%s", d)
	}
	// Without the omission, dpkg comes in, with its own dependencies (which the
	// recorded index leaves out); awk is mawk (required) rather than gawk.
	if _, err = resolve(idx, []string{"python3"}, nil); err == nil || !strings.HasPrefix(err.Error(), "dpkg depends on") {
		t.Errorf("err = %v, want dpkg resolved", err)
	}
	if pkgs, err = resolve(idx, []string{"base-files"}, nil); err != nil || !strings.Contains(entryNames(pkgs), " mawk ") || strings.Contains(entryNames(pkgs), "gawk") {
		t.Errorf("awk: %s %v", entryNames(pkgs), err)
	}
	if _, err := resolve(idx, []string{"no-such-package"}, nil); err == nil {
		t.Error("an unknown package was resolved")
	}
	// A version string beside an older one: the newer wins.
	two := "Package: a\nVersion: 1.0-1\nArchitecture: all\nFilename: a1\nSHA256: " + strings.Repeat("1", 64) +
		"\n\nPackage: a\nVersion: 1.0-1+deb12u1\nArchitecture: all\nFilename: a2\nSHA256: " + strings.Repeat("2", 64) + "\n"
	if idx, err := parseIndex([]byte(two)); err != nil || idx.pkgs["a"].Filename != "a2" {
		t.Errorf("duplicate versions: %v", err)
	}
}

func entryNames(pkgs []*entry) string {
	var b strings.Builder
	b.WriteString(" ")
	for _, p := range pkgs {
		b.WriteString(p.Name + " ")
	}
	return b.String()
}

func TestParseDepends(t *testing.T) {
	have := parseDepends("libc6 (>= 2.34), debconf (>= 0.5) | debconf-2.0, python3:any (>= 3.11~), perl:native")
	want := [][]string{{"libc6"}, {"debconf", "debconf-2.0"}, {"python3"}, {"perl"}}
	if d := cmp.Diff(want, have); d != "" {
		t.Error(d)
	}
}

// TestTheBuilderRunsNothing keeps the promise of the package comment: no file of the
// package imports what could start a process, so nothing from a package (nor any
// host tool) can run on the kit's machine.
func TestTheBuilderRunsNothing(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			switch strings.Trim(imp.Path.Value, `"`) {
			case "os/exec", "syscall", "golang.org/x/sys/unix", "plugin":
				t.Errorf("%s imports %s", f, imp.Path.Value)
			}
		}
	}
}

func TestArchOf(t *testing.T) {
	for in, want := range map[string]string{"linux/amd64": "amd64", "linux/arm64": "arm64", "linux/arm/v7": "armhf", "linux/ppc64le": "ppc64el"} {
		if have, err := ArchOf(in); err != nil || have != want {
			t.Errorf("ArchOf(%q) = %q, %v", in, have, err)
		}
	}
	if _, err := ArchOf("windows/amd64"); err == nil {
		t.Error("windows/amd64 has a Debian architecture?")
	}
}

func mustEntity(t *testing.T) *openpgp.Entity {
	t.Helper()
	e, err := openpgp.NewEntity("someone else", "", "else@example.invalid", nil)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func fingerprint(b []byte) string { return hex.EncodeToString(b) }
