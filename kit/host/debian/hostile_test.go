package debian

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/blakesmith/ar"
	"github.com/ulikunitz/xz"
)

// signRelease signs a Release of the fake archive with the fields given as they are
// ("" leaves a field out) and sha as Packages.xz's SHA-256 ("" for its own).
func (a *fakeArchive) signRelease(suite, codename string, date time.Time, sha256 string) {
	a.signReleaseFields(releaseFields{suite: suite, codename: codename, date: date, sha256: sha256})
}

// releaseFields are the fields of a Release that tests vary.
type releaseFields struct {
	suite, codename  string
	date, validUntil time.Time // a zero validUntil leaves the field out
	sha256           string
}

func (a *fakeArchive) signReleaseFields(f releaseFields) {
	a.t.Helper()
	px := a.get("dists/bookworm/main/binary-amd64/Packages.xz")
	if f.sha256 == "" {
		f.sha256 = sha(px)
	}
	var b strings.Builder
	b.WriteString("Origin: Debian\n")
	if f.suite != "" {
		fmt.Fprintf(&b, "Suite: %s\n", f.suite)
	}
	if f.codename != "" {
		fmt.Fprintf(&b, "Codename: %s\n", f.codename)
	}
	fmt.Fprintf(&b, "Date: %s\n", f.date.Format(time.RFC1123))
	if !f.validUntil.IsZero() {
		fmt.Fprintf(&b, "Valid-Until: %s\n", f.validUntil.Format(time.RFC1123))
	}
	fmt.Fprintf(&b, "Architectures: amd64\nComponents: main\nSHA256:\n %s %d main/binary-amd64/Packages.xz\n", f.sha256, len(px))
	a.set("dists/bookworm/InRelease", clearSign(a.t, a.signer, b.String()))
}

func TestAReleaseMustBeTheOneAskedForAndNotOlder(t *testing.T) {
	a := newFakeArchive(t, testPackages)
	now := time.Now().UTC().Truncate(time.Second)
	cache := t.TempDir()
	a.signRelease("stable", "bookworm", now, "")
	if _, _, err := build(t, a.options(cache)); err != nil {
		t.Fatalf("today's Release: %v", err)
	}
	seen, err := os.ReadFile(filepath.Join(cache, "releases", "bookworm"))
	if err != nil || strings.TrimSpace(string(seen)) != now.Format(time.RFC3339) {
		t.Fatalf("the Date seen was not kept: %q, %v", seen, err)
	}
	for _, tc := range []struct {
		name, suite, codename string
		date                  time.Time
		want                  string
	}{
		{"an hour before the one seen", "stable", "bookworm", now.Add(-time.Hour), "older than the Release of bookworm already seen"},
		{"a minute before", "stable", "bookworm", now.Add(-time.Minute), "older than"},
		{"ten years ahead", "stable", "bookworm", now.AddDate(10, 0, 0), "more than a day after this machine's clock"},
		{"no Codename", "stable", "", now, "names no Codename"},
		{"another suite", "oldstable", "bullseye", now, `is the Release of suite "oldstable", codename "bullseye", not of "bookworm"`},
		{"another codename, the suite's name", "bookworm", "trixie", now.Add(time.Hour), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a.signRelease(tc.suite, tc.codename, tc.date, "")
			_, _, err := build(t, a.options(cache))
			if tc.want == "" {
				if err != nil {
					t.Fatalf("asked for bookworm, the Release's Suite: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "InRelease") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want one line with %q", err, tc.want)
			}
		})
	}
}

func TestADigestMustBeHexBeforeItIsUsed(t *testing.T) {
	a := newFakeArchive(t, testPackages)
	cache := filepath.Join(t.TempDir(), "cache")
	// A file outside the cache that a digest spelled as a path would name, and remove
	// when its content did not match.
	victim := filepath.Join(filepath.Dir(cache), "victim")
	os.WriteFile(victim, []byte("not the index"), 0o644)
	a.signRelease("stable", "bookworm", a.date, "../victim")
	_, _, err := build(t, a.options(cache))
	if err == nil || !strings.Contains(err.Error(), "not 64 hex digits") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(victim); err != nil {
		t.Fatalf("the file outside the cache: %v", err)
	}
	// 64 characters, not hex, in the signed Release and in the signed index.
	notHex := "../victim" + strings.Repeat("0", 55)
	a.signRelease("stable", "bookworm", a.date, notHex)
	if _, _, err := build(t, a.options(cache)); err == nil || !strings.Contains(err.Error(), "not 64 hex digits") {
		t.Fatalf("err = %v", err)
	}
	const path = "dists/bookworm/main/binary-amd64/Packages.xz"
	a.set(path, xzBytes(t, []byte("Package: app\nVersion: 1\nArchitecture: amd64\nFilename: pool/app.deb\nSize: 1\nSHA256: "+notHex+"\n")))
	a.signRelease("stable", "bookworm", a.date, "")
	if _, _, err := build(t, a.options(cache)); err == nil || !strings.Contains(err.Error(), "not 64 hex digits") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(victim); err != nil {
		t.Fatalf("the file outside the cache: %v", err)
	}
}

// rawEntry is one entry of a hostile package's data.tar, written as it is.
type rawEntry struct {
	hdr  tar.Header
	body string
}

func rawFile(name, body string) rawEntry {
	return rawEntry{tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644, Size: int64(len(body))}, body}
}

// withDeb replaces the package app of the fake archive by one whose data.tar.xz holds
// the entries given (after the files the test spec needs): a package as a compromised
// build of it would be, signed all the same.
func (a *fakeArchive) withDeb(entries ...rawEntry) {
	a.t.Helper()
	a.replaceApp(debOf(a.t, "data.tar.xz", xzBytes(a.t, appTar(a.t, entries...))))
}

// appTar is a data.tar of the files the test spec needs from app, then entries.
func appTar(t *testing.T, entries ...rawEntry) []byte {
	t.Helper()
	var data bytes.Buffer
	tw := tar.NewWriter(&data)
	base := []rawEntry{
		rawFile("./usr/bin/app", "#!app\n"),
		rawFile("./usr/share/app/passwd.master", "root:x:0:0:root:/root:/bin/sh\n"),
	}
	for _, e := range append(base, entries...) {
		hdr := e.hdr
		if err := tw.WriteHeader(&hdr); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(e.body))
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return data.Bytes()
}

// debOf is a .deb whose data member, named member, holds data as it is.
func debOf(t *testing.T, member string, data []byte) []byte {
	t.Helper()
	var deb bytes.Buffer
	aw := ar.NewWriter(&deb)
	aw.WriteGlobalHeader()
	for _, m := range []struct {
		name string
		body []byte
	}{{"debian-binary", []byte("2.0\n")}, {member, data}} {
		aw.WriteHeader(&ar.Header{Name: m.name, Size: int64(len(m.body)), Mode: 0o644, ModTime: time.Unix(1700000000, 0)})
		aw.Write(m.body)
	}
	return deb.Bytes()
}

// replaceApp makes deb the package app, the index and Release signed anew.
func (a *fakeArchive) replaceApp(deb []byte) {
	a.t.Helper()
	t := a.t
	const fn = "pool/main/a/app_1.0-1_amd64.deb"
	old := a.get(fn)
	a.set(fn, deb)
	const path = "dists/bookworm/main/binary-amd64/Packages.xz"
	r, err := xz.NewReader(bytes.NewReader(a.get(path)))
	if err != nil {
		t.Fatal(err)
	}
	index, _ := io.ReadAll(r)
	index = bytes.Replace(index, fmt.Appendf(nil, "Size: %d\nSHA256: %s", len(old), sha(old)), fmt.Appendf(nil, "Size: %d\nSHA256: %s", len(deb), sha(deb)), 1)
	a.set(path, xzBytes(t, index))
	a.sign()
}

func TestTheUnpackerRefusesWhatWouldLandElsewhere(t *testing.T) {
	link := func(name, target string) rawEntry {
		return rawEntry{tar.Header{Typeflag: tar.TypeSymlink, Name: name, Linkname: target, Mode: 0o777}, ""}
	}
	dev := func(name string) rawEntry {
		return rawEntry{tar.Header{Typeflag: tar.TypeChar, Name: name, Mode: 0o666, Devmajor: 1, Devminor: 3}, ""}
	}
	for _, tc := range []struct {
		name    string
		entries []rawEntry
		want    string
	}{
		{"dot-dot", []rawEntry{rawFile("./../../etc/cron.d/evil", "x")}, "`..` in the name: refused"},
		{"dot-dot inside", []rawEntry{rawFile("./usr/../../etc/evil", "x")}, "`..` in the name: refused"},
		{"absolute", []rawEntry{rawFile("/etc/evil", "x")}, "an absolute name: refused"},
		{"hard link out", []rawEntry{{tar.Header{Typeflag: tar.TypeLink, Name: "./usr/bin/x", Linkname: "../../etc/shadow"}, ""}}, "hard link to"},
		{"a file through a link", []rawEntry{link("./usr/share/esc", "/etc"), rawFile("./usr/share/esc/passwd", "root::0:0::/:/bin/sh\n")}, "usr/share/esc/passwd (from app) passes through the symbolic link usr/share/esc -> /etc (from app)"},
		{"a link through a relative link", []rawEntry{link("./usr/lib/up", "../.."), link("./usr/lib/up/etc/x", "y")}, "passes through the symbolic link usr/lib/up"},
		{"a file under another package's link", []rawEntry{rawFile("./lib64/ld-linux-x86-64.so.2/evil", "x")}, "usr/lib64/ld-linux-x86-64.so.2/evil (from app) passes through the symbolic link usr/lib64/ld-linux-x86-64.so.2 -> /lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 (from libc6)"},
		{"a file under another package's file", []rawEntry{rawFile("./lib/x86_64-linux-gnu/libc.so.6/evil", "x")}, "is under usr/lib/x86_64-linux-gnu/libc.so.6 (from libc6), which is not a folder"},
		{"a device outside dev/", []rawEntry{dev("./usr/bin/mem")}, "a device outside dev/: refused"},
		{"a block device outside dev/", []rawEntry{{tar.Header{Typeflag: tar.TypeBlock, Name: "./etc/sda", Mode: 0o660}, ""}}, "a device outside dev/"},
		{"a FIFO at etc/ld.so.preload", []rawEntry{{tar.Header{Typeflag: tar.TypeFifo, Name: "./etc/ld.so.preload", Mode: 0o644}, ""}}, "etc/ld.so.preload: a FIFO outside dev/: refused"},
		{"a setuid file", []rawEntry{mode(rawFile("./usr/bin/evil", "x"), 0o6777)}, "usr/bin/evil: mode 6777 is setuid or setgid: refused"},
		{"a setuid file in a stripped folder", []rawEntry{mode(rawFile("./usr/share/doc/app/evil", "x"), 0o4755)}, "mode 4755 is setuid"},
		{"a setgid file", []rawEntry{mode(rawFile("./usr/bin/crontab", "x"), 0o2755)}, "usr/bin/crontab: mode 2755 is setuid or setgid: refused"},
		{"a setuid hard link", []rawEntry{mode(rawEntry{tar.Header{Typeflag: tar.TypeLink, Name: "./usr/bin/app2", Linkname: "./usr/bin/app"}, ""}, 0o4755)}, "usr/bin/app2: mode 4755 is setuid"},
		{"a world-writable etc/", []rawEntry{{tar.Header{Typeflag: tar.TypeDir, Name: "./etc/", Mode: 0o777}, ""}}, "etc: mode 0777: a folder writable by anyone without the sticky bit: refused"},
		{"a world-writable file", []rawEntry{mode(rawFile("./etc/profile", "x"), 0o666)}, "etc/profile: mode 0666: writable by anyone: refused"},
		{"an expected folder with another mode", []rawEntry{{tar.Header{Typeflag: tar.TypeDir, Name: "./var/local/", Mode: 0o6777}, ""}}, `var/local: mode 6777 (type '5'), where base-files ships 2775 (type '5'): refused`},
		{"an expected folder as a file", []rawEntry{mode(rawFile("./var/local", "x"), 0o2775)}, "var/local: mode 2775 (type '0'), where base-files ships 2775 (type '5')"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newFakeArchive(t, testPackages)
			a.withDeb(tc.entries...)
			_, _, err := build(t, a.options(""))
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want one line with %q", err, tc.want)
			}
			t.Log(err)
		})
	}
	// A symbolic link another package ships, with a file under it.
	a := newFakeArchive(t, testPackages)
	a.withDeb(link("./usr/share/app/conf", "/etc"))
	if _, _, err := build(t, a.options("")); err != nil {
		t.Fatalf("a link alone: %v", err)
	}
	// A device or a FIFO in dev/ is the container's: left out, not refused. Folders
	// writable by anyone with the sticky bit (/tmp), and the expected entries, are
	// kept as they are.
	a.withDeb(dev("./dev/null"), rawEntry{tar.Header{Typeflag: tar.TypeFifo, Name: "./dev/initctl", Mode: 0o600}, ""},
		rawEntry{tar.Header{Typeflag: tar.TypeDir, Name: "./var/tmp/", Mode: 0o1777}, ""},
		rawEntry{tar.Header{Typeflag: tar.TypeDir, Name: "./var/local/", Mode: 0o2775, Gid: 50}, ""},
		link("./usr/bin/app-link", "app"))
	res, body, err := build(t, a.options(""))
	if err != nil {
		t.Fatalf("a device in dev/: %v", err)
	}
	names := entriesOf(t, body)
	for _, gone := range []string{"dev/null", "dev/initctl"} {
		if i := sort.SearchStrings(names, gone); i < len(names) && names[i] == gone {
			t.Fatalf("%s in the image (%d entries)", gone, res.Files)
		}
	}
	modes := modesOf(t, body)
	for name, want := range map[string]int64{"var/tmp/": 0o1777, "var/local/": 0o2775, "tmp/": 0o1777, "usr/bin/app-link": 0o777} {
		if modes[name] != want {
			t.Errorf("%s: mode %04o, want %04o", name, modes[name], want)
		}
	}
}

// TestTheExpectedModesSayWhy keeps the allow-list honest: each entry names its package
// and its reason, and would be refused without it.
func TestTheExpectedModesSayWhy(t *testing.T) {
	for name, e := range expectedModes {
		if e.pkg == "" || len(e.why) < 20 {
			t.Errorf("%s: package %q, why %q", name, e.pkg, e.why)
		}
		delete(expectedModes, name)
		err := checkEntry(name, e.typ, e.mode)
		expectedModes[name] = e
		if err == nil {
			t.Errorf("%s (%04o) is allowed without being listed: it need not be", name, e.mode)
		}
	}
}

func mode(e rawEntry, m int64) rawEntry {
	e.hdr.Mode = m
	return e
}

// modesOf maps the names of a tar stream to their modes.
func modesOf(t *testing.T, body []byte) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	tr := tar.NewReader(bytes.NewReader(body))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out[h.Name] = h.Mode
	}
}

func entriesOf(t *testing.T, body []byte) []string {
	t.Helper()
	var names []string
	tr := tar.NewReader(bytes.NewReader(body))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
	}
	sort.Strings(names)
	return names
}
