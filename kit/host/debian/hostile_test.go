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
	a.t.Helper()
	px := a.get("dists/bookworm/main/binary-amd64/Packages.xz")
	if sha256 == "" {
		sha256 = sha(px)
	}
	var b strings.Builder
	b.WriteString("Origin: Debian\n")
	if suite != "" {
		fmt.Fprintf(&b, "Suite: %s\n", suite)
	}
	if codename != "" {
		fmt.Fprintf(&b, "Codename: %s\n", codename)
	}
	fmt.Fprintf(&b, "Date: %s\nArchitectures: amd64\nComponents: main\nSHA256:\n %s %d main/binary-amd64/Packages.xz\n", date.Format(time.RFC1123), sha256, len(px))
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
		{"an old Release, validly signed", "stable", "bookworm", time.Date(2019, 7, 6, 8, 0, 0, 0, time.UTC), "older than the Release of bookworm already seen"},
		{"a day and a minute before", "stable", "bookworm", now.Add(-time.Minute), "older than"},
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
	// A fresh cache has seen nothing: the old Release builds (the rule is against going
	// back, not against age).
	a.signRelease("stable", "bookworm", time.Date(2019, 7, 6, 8, 0, 0, 0, time.UTC), "")
	if _, _, err := build(t, a.options("")); err != nil {
		t.Fatalf("an old Release, nothing seen: %v", err)
	}
	// --snapshot pins an old date on purpose: no freshness rule, nothing recorded.
	defer func(old string) { snapshotArchive = old }(snapshotArchive)
	snapshotArchive = a.srv.URL + "/debian/snap-"
	a.mu.Lock()
	for k, v := range a.files {
		a.files["snap-20190706T080000Z/"+k] = v
	}
	a.mu.Unlock()
	o := a.options(cache)
	o.Mirror, o.Snapshot = "", "20190706T080000Z"
	if _, _, err := build(t, o); err != nil {
		t.Fatalf("a snapshot of 2019: %v", err)
	}
	if seen2, _ := os.ReadFile(filepath.Join(cache, "releases", "bookworm")); string(seen2) == "2019-07-06T08:00:00Z\n" {
		t.Fatal("a snapshot's date was recorded as the newest seen")
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

// withDeb replaces the package app of the fake archive by one whose data.tar holds the
// entries given (after the files the test spec needs), the index and Release signed
// anew: a package as a compromised build of it would be, signed all the same.
func (a *fakeArchive) withDeb(entries ...rawEntry) {
	a.t.Helper()
	t := a.t
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
	tw.Close()
	var deb bytes.Buffer
	aw := ar.NewWriter(&deb)
	aw.WriteGlobalHeader()
	for _, m := range []struct {
		name string
		body []byte
	}{{"debian-binary", []byte("2.0\n")}, {"data.tar.xz", xzBytes(t, data.Bytes())}} {
		aw.WriteHeader(&ar.Header{Name: m.name, Size: int64(len(m.body)), Mode: 0o644, ModTime: time.Unix(1700000000, 0)})
		aw.Write(m.body)
	}
	const fn = "pool/main/a/app_1.0-1_amd64.deb"
	old := a.get(fn)
	a.set(fn, deb.Bytes())
	const path = "dists/bookworm/main/binary-amd64/Packages.xz"
	r, err := xz.NewReader(bytes.NewReader(a.get(path)))
	if err != nil {
		t.Fatal(err)
	}
	index, _ := io.ReadAll(r)
	index = bytes.Replace(index, fmt.Appendf(nil, "Size: %d\nSHA256: %s", len(old), sha(old)), fmt.Appendf(nil, "Size: %d\nSHA256: %s", deb.Len(), sha(deb.Bytes())), 1)
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
	// A device in dev/ is the container's: left out, not refused.
	a.withDeb(dev("./dev/null"))
	res, body, err := build(t, a.options(""))
	if err != nil {
		t.Fatalf("a device in dev/: %v", err)
	}
	names := entriesOf(t, body)
	if i := sort.SearchStrings(names, "dev/null"); i < len(names) && names[i] == "dev/null" {
		t.Fatalf("dev/null in the image (%d entries)", res.Files)
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
