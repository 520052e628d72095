// Package debian builds a root file system from Debian packages without running any of
// them: it reads a suite's signed InRelease from a mirror, checks the signature against
// the Debian archive keys embedded in the kit (keys/), resolves the dependencies of the
// packages an image needs, downloads each .deb, checks it by the SHA-256 of the signed
// index and merges their contents into one deterministic tar stream. Nothing needs root,
// nothing is executed, and any architecture the archive has can be built on any machine.
//
// Maintainer scripts are not run. What an image needs of their work is made explicitly
// (Spec.Copies, Spec.Links, the merged-/usr links and a dpkg status file, see Build).
package debian

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Defaults of Options.
const (
	DefaultMirror = "http://deb.debian.org/debian"
	DefaultSuite  = "bookworm"
	Component     = "main"
	// SnapshotArchive is the archive of every past state of Debian; Options.Snapshot
	// picks one state in it.
	SnapshotArchive = "https://snapshot.debian.org/archive/debian/"
)

// Options say where the packages come from and where downloads are kept. Arch is
// required; the zero value of every other field means its default.
type Options struct {
	// Mirror is a Debian mirror's URL (DefaultMirror when empty).
	Mirror string
	// Snapshot, when set, replaces Mirror with the archive's state at that time:
	// SnapshotArchive + Snapshot + "/". The format is snapshot.debian.org's,
	// "20240615T000000Z" (a date "2024-06-15" is accepted and means its midnight UTC).
	// A build from a snapshot gives the same packages whenever it runs. Its Release
	// must be the archive's state at that time: dated at most a day before it.
	Snapshot string
	// MaxReleaseAge is how old the Release may be, by its Date, when the build is not
	// from a snapshot; DefaultMaxReleaseAge when zero.
	MaxReleaseAge time.Duration
	// KnownRelease, when set, is the Date of the newest Release of Suite the caller
	// knows Debian to have published. An older Release is refused as a replay, even by
	// a cache that has seen none; that Release itself is accepted at any age: a stable
	// suite's Release changes only at its point releases, months apart, which
	// MaxReleaseAge cannot tell from a frozen mirror. Snapshots are not held to it.
	KnownRelease time.Time
	// Suite is the distribution's codename (DefaultSuite when empty).
	Suite string
	// Arch is the Debian architecture to build for: amd64, arm64, armhf, ...
	// (ArchOf maps a Go platform to it).
	Arch string
	// CacheDir keeps the downloaded indexes and packages by SHA-256; every file is
	// checked again when read. Empty means os.UserCacheDir()/logbench/debian.
	CacheDir string
	// Client makes the HTTP requests (http.DefaultClient when nil).
	Client *http.Client
	// Keys are the OpenPGP public keys (binary or ASCII-armored) trusted to sign
	// InRelease. Empty means the Debian archive keys embedded in the kit.
	Keys [][]byte
	// WorkDir holds the packages' files while the root file system is assembled
	// (about its size, removed after); the system's temporary folder when empty.
	WorkDir string
	// Progress receives a line per step; nil means none.
	Progress io.Writer

	// snapshotAt is Snapshot's time, set by withDefaults.
	snapshotAt time.Time
}

// Spec is what goes into a root file system.
type Spec struct {
	// Packages are installed with everything they depend on (Depends and Pre-Depends).
	Packages []string
	// Omit lists packages that are depended on but not needed in the image, each with
	// the reason; they and their own dependencies are left out.
	Omit map[string]string
	// Strip are folders whose contents are left out (the folders themselves stay).
	// In usr/share/doc the packages' copyright files are kept.
	Strip []string
	// Copies and Links are made after the packages are merged: the work of maintainer
	// scripts that the image needs.
	Copies []Copy
	Links  []Link
}

// Copy makes the file To a copy of From (both within the root file system), as a
// maintainer script would.
type Copy struct{ To, From, Why string }

// Link makes the symbolic link Path pointing to Target, as a maintainer script would.
type Link struct{ Path, Target, Why string }

// Package is one installed package.
type Package struct {
	Name         string `json:"name"`
	Version      string `json:"version"`
	Architecture string `json:"architecture"`
	SHA256       string `json:"sha256"`
	SizeBytes    int64  `json:"size_bytes"`
	Filename     string `json:"filename"`
}

// Result records where a root file system came from, enough to rebuild it and to
// check a rebuild: the same signed Release gives the same RootfsSHA256.
type Result struct {
	Mirror          string    `json:"mirror"`
	Suite           string    `json:"suite"`
	Arch            string    `json:"arch"`
	ReleaseDate     time.Time `json:"release_date"`
	InReleaseSHA256 string    `json:"inrelease_sha256"`
	Packages        []Package `json:"packages"` // sorted by name
	// RootfsSHA256 is the digest of the tar stream written, which is also the diff ID
	// of an image layer imported from it.
	RootfsSHA256 string `json:"rootfs_sha256"`
	RootfsBytes  int64  `json:"rootfs_bytes"`
	// Files is the number of entries in the tar stream.
	Files int `json:"files"`
}

// Version is the version of the installed package name, or "" if it is not installed.
func (r Result) Version(name string) string {
	for _, p := range r.Packages {
		if p.Name == name {
			return p.Version
		}
	}
	return ""
}

// Build writes to w the root file system of spec as an uncompressed tar stream: every
// entry sorted by name, owned by the packages' numeric owners, dated at the Release's
// Date. Each step that fails returns one error saying which (mirror, signature, index,
// package).
func (o Options) Build(ctx context.Context, spec Spec, w io.Writer) (Result, error) {
	o, err := o.withDefaults()
	if err != nil {
		return Result{}, err
	}
	keys, err := o.keyring()
	if err != nil {
		return Result{}, err
	}
	started := time.Now()
	o.say("reading %s %s from %s", o.Suite, o.Arch, o.Mirror)
	raw, err := o.get(ctx, "dists/"+o.Suite+"/InRelease")
	if err != nil {
		return Result{}, err
	}
	rel, err := verifyRelease(raw, keys, time.Now())
	if err != nil {
		return Result{}, fmt.Errorf("%s/dists/%s/InRelease: %w", o.Mirror, o.Suite, err)
	}
	if err := checkIdentity(rel, o.Suite); err != nil {
		return Result{}, fmt.Errorf("%s/dists/%s/InRelease %w", o.Mirror, o.Suite, err)
	}
	if err := o.checkFresh(rel, time.Now()); err != nil {
		return Result{}, fmt.Errorf("%s/dists/%s/InRelease %w", o.Mirror, o.Suite, err)
	}
	inSum := sha256.Sum256(raw)
	res := Result{Mirror: o.Mirror, Suite: o.Suite, Arch: o.Arch, ReleaseDate: rel.Date, InReleaseSHA256: hex.EncodeToString(inSum[:])}

	idx, err := o.index(ctx, rel)
	if err != nil {
		return Result{}, err
	}
	pkgs, err := resolve(idx, spec.Packages, spec.Omit)
	if err != nil {
		return Result{}, fmt.Errorf("%s %s %s: %w", o.Suite, o.Arch, Component, err)
	}
	for _, p := range pkgs {
		if p.Architecture != o.Arch && p.Architecture != "all" {
			return Result{}, fmt.Errorf("package %s is for %s, not %s", p.Name, p.Architecture, o.Arch)
		}
		res.Packages = append(res.Packages, p.Package)
	}
	var total int64
	for _, p := range pkgs {
		total += p.SizeBytes
	}
	o.say("%d packages, %.1f MB to read (cached ones are not downloaded again)", len(pkgs), float64(total)/1e6)
	debs, err := o.fetchAll(ctx, pkgs)
	if err != nil {
		return Result{}, err
	}

	t, err := newTree(spec.Strip, o.WorkDir)
	if err != nil {
		return Result{}, err
	}
	defer t.close()
	for i, p := range pkgs {
		// A package takes at most a second or two to unpack: an interrupted build
		// stops between two.
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		if err := t.addDeb(debs[i], p.Name); err != nil {
			return Result{}, fmt.Errorf("package %s %s: %w", p.Name, p.Version, err)
		}
	}
	if err := t.finish(spec, pkgs); err != nil {
		return Result{}, err
	}
	h := sha256.New()
	cw := &countingWriter{w: io.MultiWriter(w, h)}
	n, err := t.write(cw, rel.Date)
	if err != nil {
		return Result{}, fmt.Errorf("writing the root file system: %w", err)
	}
	res.RootfsSHA256 = hex.EncodeToString(h.Sum(nil))
	res.RootfsBytes, res.Files = cw.n, n
	o.say("root file system: %d entries, %.1f MB, sha256 %s, in %s", n, float64(cw.n)/1e6, res.RootfsSHA256[:12], time.Since(started).Round(time.Millisecond))
	return res, nil
}

var snapshotTime = regexp.MustCompile(`^\d{8}T\d{6}Z$`)

// snapshotLayout is snapshot.debian.org's form of a time.
const snapshotLayout = "20060102T150405Z"

// snapshotArchive is SnapshotArchive; a test points it at a local mirror.
var snapshotArchive = SnapshotArchive

func (o Options) withDefaults() (Options, error) {
	if o.Arch == "" {
		return o, errors.New("debian: no architecture given")
	}
	if o.Suite == "" {
		o.Suite = DefaultSuite
	}
	if o.Mirror == "" {
		o.Mirror = DefaultMirror
	}
	if o.Snapshot != "" {
		s := o.Snapshot
		if d, err := time.Parse("2006-01-02", s); err == nil {
			s = d.Format(snapshotLayout)
		}
		at, err := time.Parse(snapshotLayout, s)
		if !snapshotTime.MatchString(s) || err != nil {
			return o, fmt.Errorf("debian: snapshot %q is neither a date (2024-06-15) nor a snapshot time (20240615T000000Z)", o.Snapshot)
		}
		o.Mirror, o.snapshotAt = snapshotArchive+s, at
	}
	o.Mirror = strings.TrimRight(o.Mirror, "/")
	if o.CacheDir == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return o, fmt.Errorf("debian: no cache folder: %w", err)
		}
		o.CacheDir = filepath.Join(dir, "logbench", "debian")
	}
	if o.Client == nil {
		o.Client = http.DefaultClient
	}
	return o, nil
}

func (o Options) say(format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, format+"\n", args...)
	}
}

// ArchOf is the Debian architecture of a Go/OCI platform ("linux/arm64" -> "arm64").
func ArchOf(platform string) (string, error) {
	switch strings.TrimPrefix(platform, "linux/") {
	case "amd64":
		return "amd64", nil
	case "arm64", "arm64/v8":
		return "arm64", nil
	case "arm/v7", "arm":
		return "armhf", nil
	case "arm/v5", "arm/v6":
		return "armel", nil
	case "386":
		return "i386", nil
	case "ppc64le":
		return "ppc64el", nil
	case "s390x":
		return "s390x", nil
	case "mips64le":
		return "mips64el", nil
	}
	return "", fmt.Errorf("debian has no architecture for platform %q", platform)
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
