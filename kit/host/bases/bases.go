// Package bases makes sure the engine has the Debian base images the kit's APIs are
// built on: Python 3.11 (the published API's interpreter) and Node.js with express and
// morgan, both from Debian bookworm. No registry is needed and nothing runs on the
// kit's machine: kit/host/debian assembles the root file system from signed Debian
// packages, for any architecture, and it is imported through the Engine API. Each
// base is tagged per platform (logbench/python-base:bookworm-arm64), so building for
// another platform never replaces the native one.
package bases

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/host/debian"
	"github.com/logbench/logbench/kit/host/engine"
)

// Labels every base records about itself.
const (
	SuiteLabel           = "io.logbench.debian-suite"
	MirrorLabel          = "io.logbench.debian-mirror"
	ArchLabel            = "io.logbench.debian-arch"
	ReleaseDateLabel     = "io.logbench.debian-release-date"
	InReleaseSHA256Label = "io.logbench.debian-inrelease-sha256"
	PackagesLabel        = "io.logbench.debian-packages" // "name=version ..." sorted by name
	RootfsSHA256Label    = "io.logbench.rootfs-sha256"
)

// Labels of the Python base.
const (
	PythonVersionLabel       = "io.logbench.python-version"        // "3.11.2"
	PythonDebianVersionLabel = "io.logbench.python-debian-version" // "3.11.2-6+deb12u8"
)

// Labels of the Node base: upstream versions ("18.20.4") and the Debian ones.
const (
	NodeVersionLabel          = "io.logbench.node-version"
	NodeDebianVersionLabel    = "io.logbench.node-debian-version"
	ExpressVersionLabel       = "io.logbench.node-express-version"
	ExpressDebianVersionLabel = "io.logbench.node-express-debian-version"
	MorganVersionLabel        = "io.logbench.node-morgan-version"
	MorganDebianVersionLabel  = "io.logbench.node-morgan-debian-version"
)

// PythonTag is the name images/api-python/Dockerfile starts FROM. It is not a base of
// its own: before building the Python API, the kit points it at the base of the
// platform being built (see kit/host/images).
const PythonTag = "logbench/python-base:bookworm"

// Base is one base image: its packages and what it records about them.
type Base struct {
	// Repository is the image's name without tag; Tag adds suite and architecture.
	Repository string
	Spec       debian.Spec
	// Env and Cmd go into the image's config.
	Env []string
	Cmd []string
	// labels are the versions this base records besides the common labels.
	labels func(debian.Result) (map[string]string, error)
}

// strip are emptied in every base: package caches, documentation, manuals and
// translations. Nothing in a running container reads them; the packages' copyright
// files stay.
var strip = []string{
	"var/cache/apt", "var/lib/apt/lists", "var/log",
	"usr/share/doc", "usr/share/man", "usr/share/info", "usr/share/locale", "usr/share/lintian",
}

// system are the packages of every base besides its runtime: the file system layout
// and /etc/os-release (base-files), the system users (base-passwd) and /bin/sh (dash).
var system = []string{"base-files", "base-passwd", "dash"}

// omit are depended on but not needed at run time.
var omit = map[string]string{
	// python3-minimal (and others) depend on dpkg for their maintainer scripts
	// (byte-compiling, triggers), which are not run; nothing in a container calls it.
	"dpkg": "used only by maintainer scripts",
}

// copies do what base-passwd's postinst (update-passwd) does on a first install: the
// master files become /etc/passwd and /etc/group, which name root and the system users
// for every program that looks a user up.
var copies = []debian.Copy{
	{To: "etc/passwd", From: "usr/share/base-passwd/passwd.master", Why: "base-passwd postinst"},
	{To: "etc/group", From: "usr/share/base-passwd/group.master", Why: "base-passwd postinst"},
}

var defaultEnv = []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C.UTF-8"}

// Python is Debian bookworm's python3 (3.11) with its standard library, and structlog
// and loguru for the line-cost experiment's libraries.
var Python = Base{
	Repository: "logbench/python-base",
	Spec: debian.Spec{
		Packages: append([]string{"python3", "python3-structlog", "python3-loguru"}, system...),
		Omit:     omit, Strip: strip, Copies: copies,
	},
	Env: defaultEnv,
	Cmd: []string{"/usr/bin/python3"},
	labels: func(r debian.Result) (map[string]string, error) {
		for _, p := range r.Packages {
			if interpreter.MatchString(p.Name) {
				return map[string]string{PythonVersionLabel: Upstream(p.Version), PythonDebianVersionLabel: p.Version}, nil
			}
		}
		return nil, errors.New("no python3.x package in the base")
	},
}

var interpreter = regexp.MustCompile(`^python3\.\d+$`)

// Node is Debian bookworm's nodejs with node-express and node-morgan, for
// images/api-node, and node-winston for the line-cost experiment's libraries. Debian's node finds the packaged modules in /usr/share/nodejs
// without NODE_PATH.
var Node = Base{
	Repository: "logbench/node-base",
	Spec: debian.Spec{
		Packages: append([]string{"nodejs", "node-express", "node-morgan", "node-winston"}, system...),
		Omit:     omit, Strip: strip, Copies: copies,
	},
	Env: defaultEnv,
	Cmd: []string{"/usr/bin/node"},
	labels: func(r debian.Result) (map[string]string, error) {
		out := map[string]string{}
		for pkg, labels := range map[string][2]string{
			"nodejs":       {NodeVersionLabel, NodeDebianVersionLabel},
			"node-express": {ExpressVersionLabel, ExpressDebianVersionLabel},
			"node-morgan":  {MorganVersionLabel, MorganDebianVersionLabel},
		} {
			v := r.Version(pkg)
			if v == "" {
				return nil, fmt.Errorf("no %s package in the base", pkg)
			}
			out[labels[0]], out[labels[1]] = Upstream(v), v
		}
		return out, nil
	},
}

// Upstream is the upstream part of a Debian version: no epoch, no Debian revision, no
// repack suffix ("1:18.20.4+dfsg-1~deb12u2" gives "18.20.4").
func Upstream(v string) string {
	if _, rest, ok := strings.Cut(v, ":"); ok {
		v = rest
	}
	if i := strings.LastIndexByte(v, '-'); i > 0 {
		v = v[:i]
	}
	if i := strings.IndexAny(v, "+~"); i > 0 {
		v = v[:i]
	}
	return v
}

// KnownRelease is the Date of the newest Release of bookworm (debian.DefaultSuite)
// the kit knows: 12.15, of 11 July 2026. bookworm is oldstable and its Release changes
// only at a point release, months apart, so the current one is always older than
// debian.DefaultMaxReleaseAge; this one is accepted at any age, and an older one is
// refused even by a cache that has seen none (see debian.Options.KnownRelease). A
// later point release is held to the age rule until the kit names it here.
var KnownRelease = time.Date(2026, 7, 11, 10, 16, 37, 0, time.UTC)

// Options say where the packages come from. The zero value means Debian's mirror and
// the user's cache folder.
type Options struct {
	Mirror   string // debian.DefaultMirror when empty
	Snapshot string // see debian.Options.Snapshot
	// MaxReleaseAge is how old a Release other than the kit's known one may be;
	// debian.DefaultMaxReleaseAge when zero (see debian.Options.MaxReleaseAge).
	MaxReleaseAge time.Duration
	CacheDir      string // see debian.Options.CacheDir
	// WorkDir holds the root file system's tar while it is imported (50 to 170 MB),
	// and the packages' files while it is assembled (as much again); the system's
	// temporary folder when empty.
	WorkDir string
}

// Built is a base image on the engine and where its contents came from.
type Built struct {
	engine.Image
	// Debian describes the root file system. For a base built now it is complete; for
	// one found on the engine it is read back from the labels, without the packages'
	// SHA-256 (the rootfs digest covers their contents).
	Debian debian.Result `json:"debian"`
	// Versions are the base's own labels: the runtime's and its libraries' versions.
	Versions map[string]string `json:"versions"`
	Reused   bool              `json:"reused"`
}

// Tag is the base's name for a platform, with a digest of the packages it asks for:
// logbench/python-base:bookworm-amd64-1a2b3c4d. A base whose package list changes
// (a package added for an experiment) gets another tag, so that an engine's base built
// from the old list is not reused for it.
func (b Base) Tag(platform string) (string, error) {
	arch, err := debian.ArchOf(platform)
	if err != nil {
		return "", err
	}
	return b.Repository + ":" + debian.DefaultSuite + "-" + arch + "-" + b.packagesDigest(), nil
}

// packagesDigest is 8 hex digits of the SHA-256 of the sorted package list.
func (b Base) packagesDigest() string {
	pkgs := slices.Clone(b.Spec.Packages)
	slices.Sort(pkgs)
	sum := sha256.Sum256([]byte(strings.Join(pkgs, " ")))
	return hex.EncodeToString(sum[:4])
}

// Ensure returns base for platform. An image already on the engine under the base's
// tag, for that platform, is reused as it is; otherwise the root file system is built
// from Debian packages and imported. progress (may be nil) gets a line per step.
func (o Options) Ensure(ctx context.Context, eng *engine.Engine, base Base, platform string, progress io.Writer) (Built, error) {
	if progress == nil {
		progress = io.Discard
	}
	tag, err := base.Tag(platform)
	if err != nil {
		return Built{}, err
	}
	img, ok, err := eng.LookupImage(ctx, tag)
	if err != nil {
		return Built{}, err
	}
	if ok && "linux/"+img.Architecture == platform {
		labels, err := eng.ImageLabels(ctx, tag)
		if err != nil {
			return Built{}, err
		}
		res, versions := fromLabels(labels)
		return Built{Image: img, Debian: res, Versions: versions, Reused: true}, nil
	}
	built, err := o.build(ctx, eng, base, tag, platform, progress)
	if err != nil {
		return Built{}, fmt.Errorf("base image %s: %w", tag, err)
	}
	return built, nil
}

func (o Options) build(ctx context.Context, eng *engine.Engine, base Base, tag, platform string, progress io.Writer) (Built, error) {
	arch, err := debian.ArchOf(platform)
	if err != nil {
		return Built{}, err
	}
	fmt.Fprintf(progress, "building %s from Debian packages\n", tag)
	started := time.Now()
	f, err := os.CreateTemp(o.WorkDir, "logbench-rootfs-*.tar")
	if err != nil {
		return Built{}, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	deb := debian.Options{Mirror: o.Mirror, Snapshot: o.Snapshot, MaxReleaseAge: o.MaxReleaseAge, KnownRelease: KnownRelease,
		Arch: arch, CacheDir: o.CacheDir, WorkDir: o.WorkDir, Progress: progress}
	res, err := deb.Build(ctx, base.Spec, f)
	if err != nil {
		return Built{}, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return Built{}, err
	}
	built, err := base.Import(ctx, eng, platform, f, res)
	if err != nil {
		return Built{}, err
	}
	fmt.Fprintf(progress, "imported %s (%s, %s, %.1f MB) in %s\n", tag, shortID(built.ID), built.Architecture, float64(built.SizeBytes)/1e6, time.Since(started).Round(time.Millisecond))
	return built, nil
}

// Import makes the base image for platform from rootfs, the tar stream that res
// describes (written by debian.Options.Build with b.Spec), and tags it b.Tag(platform).
func (b Base) Import(ctx context.Context, eng *engine.Engine, platform string, rootfs io.Reader, res debian.Result) (Built, error) {
	tag, err := b.Tag(platform)
	if err != nil {
		return Built{}, err
	}
	versions, err := b.labels(res)
	if err != nil {
		return Built{}, err
	}
	labels := Labels(res)
	for k, v := range versions {
		labels[k] = v
	}
	facts, err := eng.Facts(ctx)
	if err != nil {
		return Built{}, err
	}
	var img engine.Image
	if facts.Platform == platform {
		img, err = eng.ImportImage(ctx, rootfs, tag, b.changes(labels))
	} else {
		img, err = b.buildForeign(ctx, eng, rootfs, tag, platform, labels)
	}
	if err != nil {
		return Built{}, err
	}
	img.Tag = tag
	return Built{Image: img, Debian: res, Versions: versions}, nil
}

// changes are the image config of an import.
func (b Base) changes(labels map[string]string) []string {
	var out []string
	for _, e := range b.Env {
		out = append(out, "ENV "+e)
	}
	for _, k := range sortedKeys(labels) {
		out = append(out, fmt.Sprintf("LABEL %s=%q", k, labels[k]))
	}
	return append(out, "CMD "+jsonArray(b.Cmd))
}

// buildForeign makes the image of another platform than the engine's. The engine's
// import records its own platform whatever it is asked (Docker 20.10 ignores the
// platform of an import), so the root file system goes in through a build instead:
// FROM scratch, ADD of the tar (which the builder unpacks with its owners and modes),
// with the build's platform. The tar is held in memory for the build context.
func (b Base) buildForeign(ctx context.Context, eng *engine.Engine, rootfs io.Reader, tag, platform string, labels map[string]string) (engine.Image, error) {
	body, err := io.ReadAll(rootfs)
	if err != nil {
		return engine.Image{}, err
	}
	var df strings.Builder
	df.WriteString("FROM scratch\nADD rootfs.tar /\n")
	for _, e := range b.Env {
		df.WriteString("ENV " + e + "\n")
	}
	df.WriteString("CMD " + jsonArray(b.Cmd) + "\n")
	return eng.Build(ctx, engine.BuildSpec{
		Tag: tag, Platform: platform, Labels: labels,
		Files: map[string]engine.ContextFile{
			"Dockerfile": {Body: []byte(df.String()), Mode: 0o644},
			"rootfs.tar": {Body: body, Mode: 0o644},
		},
	}, io.Discard)
}

// Labels are the common labels of a base built from res.
func Labels(res debian.Result) map[string]string {
	pkgs := make([]string, 0, len(res.Packages))
	for _, p := range res.Packages {
		pkgs = append(pkgs, p.Name+"="+p.Version)
	}
	return map[string]string{
		SuiteLabel:           res.Suite,
		MirrorLabel:          res.Mirror,
		ArchLabel:            res.Arch,
		ReleaseDateLabel:     res.ReleaseDate.UTC().Format(time.RFC3339),
		InReleaseSHA256Label: res.InReleaseSHA256,
		PackagesLabel:        strings.Join(pkgs, " "),
		RootfsSHA256Label:    res.RootfsSHA256,
	}
}

// fromLabels reads back what Labels wrote; the other labels are the base's versions.
func fromLabels(labels map[string]string) (debian.Result, map[string]string) {
	res := debian.Result{
		Suite: labels[SuiteLabel], Mirror: labels[MirrorLabel], Arch: labels[ArchLabel],
		InReleaseSHA256: labels[InReleaseSHA256Label], RootfsSHA256: labels[RootfsSHA256Label],
	}
	res.ReleaseDate, _ = time.Parse(time.RFC3339, labels[ReleaseDateLabel])
	for _, nv := range strings.Fields(labels[PackagesLabel]) {
		name, v, _ := strings.Cut(nv, "=")
		res.Packages = append(res.Packages, debian.Package{Name: name, Version: v, Architecture: res.Arch})
	}
	common := Labels(debian.Result{})
	versions := map[string]string{}
	for k, v := range labels {
		if _, ok := common[k]; !ok && strings.HasPrefix(k, "io.logbench.") {
			versions[k] = v
		}
	}
	return res, versions
}

func jsonArray(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = fmt.Sprintf("%q", a)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func shortID(id string) string {
	id = strings.TrimPrefix(id, "sha256:")
	if len(id) > 12 {
		id = id[:12]
	}
	return id
}
