package debian

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/clearsign"
	"github.com/blakesmith/ar"
	"github.com/ulikunitz/xz"
)

// fakeArchive is a Debian mirror in miniature: a suite "bookworm" for amd64 whose
// InRelease is signed by a key made for the test. Its files can be replaced to play a
// compromised mirror.
type fakeArchive struct {
	t      *testing.T
	srv    *httptest.Server
	signer *openpgp.Entity
	date   time.Time
	mu     sync.Mutex
	files  map[string][]byte
}

// fakePackage is one package of the fake archive and the files of its data.tar.
type fakePackage struct {
	name, version, depends, provides string
	files                            map[string]string // path -> content; "->target" makes a symlink; "/" suffix a folder
}

// archiveSigner is the fake archives' key, made once: an RSA key takes a second to
// make on a slow machine, and the tests make dozens of archives.
var archiveSigner = sync.OnceValues(func() (*openpgp.Entity, error) {
	return openpgp.NewEntity("logbench test archive", "", "test@example.invalid", nil)
})

func newFakeArchive(t *testing.T, pkgs []fakePackage) *fakeArchive {
	t.Helper()
	signer, err := archiveSigner()
	if err != nil {
		t.Fatal(err)
	}
	// Published an hour ago: fresh by every rule of checkFresh.
	a := &fakeArchive{t: t, signer: signer, files: map[string][]byte{}, date: time.Now().UTC().Truncate(time.Second).Add(-time.Hour)}
	var index strings.Builder
	for _, p := range pkgs {
		deb := makeDeb(t, p.files)
		fn := fmt.Sprintf("pool/main/%s/%s_%s_amd64.deb", p.name[:1], p.name, p.version)
		a.files[fn] = deb
		fmt.Fprintf(&index, "Package: %s\nVersion: %s\nArchitecture: amd64\nPriority: optional\n", p.name, p.version)
		if p.depends != "" {
			fmt.Fprintf(&index, "Depends: %s\n", p.depends)
		}
		if p.provides != "" {
			fmt.Fprintf(&index, "Provides: %s\n", p.provides)
		}
		fmt.Fprintf(&index, "Filename: %s\nSize: %d\nSHA256: %s\nDescription: test package %s\n long description\n\n", fn, len(deb), sha(deb), p.name)
	}
	a.files["dists/bookworm/main/binary-amd64/Packages.xz"] = xzBytes(t, []byte(index.String()))
	a.sign()
	a.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := strings.TrimPrefix(r.URL.Path, "/debian/")
		// snap-<time>/... is the archive's state at that time (see useSnapshots): the
		// files as they are now.
		if rest, ok := strings.CutPrefix(path, "snap-"); ok {
			_, path, _ = strings.Cut(rest, "/")
		}
		a.mu.Lock()
		b, ok := a.files[path]
		a.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	t.Cleanup(a.srv.Close)
	return a
}

// sign writes a Release listing Packages.xz and signs it into InRelease.
func (a *fakeArchive) sign() {
	a.t.Helper()
	px := a.files["dists/bookworm/main/binary-amd64/Packages.xz"]
	release := fmt.Sprintf("Origin: Debian\nCodename: bookworm\nDate: %s\nArchitectures: amd64\nComponents: main\nSHA256:\n %s %d main/binary-amd64/Packages.xz\n",
		a.date.Format(time.RFC1123), sha(px), len(px))
	a.files["dists/bookworm/InRelease"] = clearSign(a.t, a.signer, release)
}

// useSnapshots points --snapshot at the fake archive until the test ends.
func (a *fakeArchive) useSnapshots() {
	old := snapshotArchive
	snapshotArchive = a.srv.URL + "/debian/snap-"
	a.t.Cleanup(func() { snapshotArchive = old })
}

func (a *fakeArchive) set(path string, b []byte) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.files[path] = b
}

func (a *fakeArchive) get(path string) []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]byte(nil), a.files[path]...)
}

// options reads the fake archive, trusting its key, with a fresh cache unless given.
func (a *fakeArchive) options(cache string) Options {
	if cache == "" {
		cache = a.t.TempDir()
	}
	var pub bytes.Buffer
	if err := a.signer.Serialize(&pub); err != nil {
		a.t.Fatal(err)
	}
	return Options{Mirror: a.srv.URL + "/debian", Arch: "amd64", CacheDir: cache, Keys: [][]byte{pub.Bytes()}}
}

func clearSign(t *testing.T, signer *openpgp.Entity, text string) []byte {
	t.Helper()
	var out bytes.Buffer
	w, err := clearsign.Encode(&out, signer.PrivateKey, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func xzBytes(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	w, err := xz.NewWriter(&out)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(b)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// makeDeb makes a .deb whose data.tar.xz holds files, in map order made stable, with
// "./" names and the folders first, as dpkg-deb writes them.
func makeDeb(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var data bytes.Buffer
	tw := tar.NewWriter(&data)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		body := files[n]
		hdr := &tar.Header{Name: "./" + n, Mode: 0o644, ModTime: time.Unix(1700000000, 0), Uname: "root", Gname: "root"}
		switch {
		case strings.HasSuffix(n, "/"):
			hdr.Typeflag, hdr.Mode = tar.TypeDir, 0o755
		case strings.HasPrefix(body, "->"):
			hdr.Typeflag, hdr.Linkname, hdr.Mode = tar.TypeSymlink, body[2:], 0o777
		default:
			hdr.Typeflag, hdr.Size = tar.TypeReg, int64(len(body))
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
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
	return deb.Bytes()
}

// testPackages: app needs libc6 and a virtual "awk" that mawk provides; a doc file
// that the spec strips, a copyright that it keeps, a binary under /bin (merged /usr).
var testPackages = []fakePackage{
	{name: "app", version: "1.0-1", depends: "libc6 (>= 2.36), awk", files: map[string]string{
		"usr/": "/", "usr/bin/": "/", "usr/bin/app": "#!app\n", "usr/share/": "/", "usr/share/doc/": "/",
		"usr/share/doc/app/": "/", "usr/share/doc/app/copyright": "MIT\n", "usr/share/doc/app/changelog.gz": "zz",
		"usr/share/app/": "/", "usr/share/app/passwd.master": "root:x:0:0:root:/root:/bin/sh\n",
	}},
	{name: "libc6", version: "2.36-9", files: map[string]string{
		"lib/": "/", "lib/x86_64-linux-gnu/": "/", "lib/x86_64-linux-gnu/libc.so.6": "ELF libc",
		"lib64/": "/", "lib64/ld-linux-x86-64.so.2": "->/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
		"lib/x86_64-linux-gnu/ld-linux-x86-64.so.2": "ELF ld.so",
	}},
	{name: "mawk", version: "1.3.4-3", provides: "awk", files: map[string]string{"usr/": "/", "usr/bin/": "/", "usr/bin/mawk": "ELF mawk"}},
	{name: "unrelated", version: "1", files: map[string]string{"usr/": "/", "usr/bin/": "/", "usr/bin/unrelated": "x"}},
}

var testSpec = Spec{
	Packages: []string{"app"},
	Strip:    []string{"usr/share/doc"},
	Copies:   []Copy{{To: "etc/passwd", From: "usr/share/app/passwd.master", Why: "test"}},
	Links:    []Link{{Path: "usr/bin/awk", Target: "mawk", Why: "test"}},
}

func build(t *testing.T, o Options) (Result, []byte, error) {
	t.Helper()
	var buf bytes.Buffer
	res, err := o.Build(context.Background(), testSpec, &buf)
	return res, buf.Bytes(), err
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
