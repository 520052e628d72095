// Package pythonbase makes sure the engine has the base image of the Python API: Debian
// bookworm with its python3 (3.11.2, the version of the published experiment). No
// registry is needed: the root file system is built from Debian packages with
// debootstrap on the kit's machine, stripped of what a container never reads, and
// streamed to the engine as an image import.
package pythonbase

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/host/engine"
)

// The base image and what it records about itself.
const (
	// Tag is the base's name on the engine; images/api-python/Dockerfile starts FROM it.
	Tag           = "logbench/python-base:bookworm"
	Suite         = "bookworm"
	DefaultMirror = "http://deb.debian.org/debian"

	VersionLabel       = "io.logbench.python-version"        // "3.11.2"
	DebianVersionLabel = "io.logbench.python-debian-version" // "3.11.2-6+deb12u6"
	SuiteLabel         = "io.logbench.debian-suite"
	MirrorLabel        = "io.logbench.debian-mirror"
)

// Packages are added to debootstrap's minbase; it resolves their dependencies.
var Packages = []string{"python3"}

// Options say where the base comes from. The zero value means the defaults.
type Options struct {
	Mirror string // Debian mirror for debootstrap; DefaultMirror when empty
	Tag    string // Tag when empty
	// WorkDir holds the temporary root file system (about 260 MB before stripping);
	// the system's temporary directory when empty.
	WorkDir string
}

// Ensure returns the base image, building it with the default options if the engine
// does not have it yet.
func Ensure(ctx context.Context, eng *engine.Engine, progress io.Writer) (engine.Image, error) {
	return Options{}.Ensure(ctx, eng, progress)
}

// Ensure returns the base image tagged o.Tag; an image already on the engine is reused
// as it is. Otherwise it runs debootstrap here (root and the debootstrap package are
// needed) and imports the result. progress receives debootstrap's output.
func (o Options) Ensure(ctx context.Context, eng *engine.Engine, progress io.Writer) (engine.Image, error) {
	o = o.withDefaults()
	if img, ok, err := eng.LookupImage(ctx, o.Tag); err != nil {
		return engine.Image{}, err
	} else if ok {
		return img, nil
	}
	if err := o.checkMachine(ctx, eng); err != nil {
		return engine.Image{}, err
	}
	fmt.Fprintf(progress, "building %s with debootstrap from %s (a minute or two)\n", o.Tag, o.Mirror)
	started := time.Now()
	dir, err := os.MkdirTemp(o.WorkDir, "logbench-python-base-")
	if err != nil {
		return engine.Image{}, err
	}
	img, err := o.build(ctx, eng, filepath.Join(dir, "rootfs"), progress)
	if cerr := removeTree(dir); cerr != nil {
		err = errors.Join(err, cerr)
	}
	if err != nil {
		return engine.Image{}, fmt.Errorf("python base image: %w", err)
	}
	fmt.Fprintf(progress, "imported %s (%s, %.1f MB) in %s\n", o.Tag, shortID(img.ID), float64(img.SizeBytes)/1e6, time.Since(started).Round(time.Second))
	return img, nil
}

// Version is the Python version ("3.11.2") the base image ref records in its label.
func Version(ctx context.Context, eng *engine.Engine, ref string) (string, error) {
	labels, err := eng.ImageLabels(ctx, ref)
	if err != nil {
		return "", err
	}
	v := labels[VersionLabel]
	if v == "" {
		return "", fmt.Errorf("image %s has no %s label: not a logbench Python base", ref, VersionLabel)
	}
	return v, nil
}

func (o Options) withDefaults() Options {
	if o.Mirror == "" {
		o.Mirror = DefaultMirror
	}
	if o.Tag == "" {
		o.Tag = Tag
	}
	return o
}

// checkMachine says, in one line, why this machine cannot build the base, if it cannot.
func (o Options) checkMachine(ctx context.Context, eng *engine.Engine) error {
	if os.Geteuid() != 0 {
		return fmt.Errorf("%s is not on the engine, and building it runs debootstrap, which needs root: run as root (with the debootstrap package installed)", o.Tag)
	}
	if _, err := exec.LookPath("debootstrap"); err != nil {
		return fmt.Errorf("%s is not on the engine, and building it needs debootstrap on this machine: apt-get install debootstrap, and run as root", o.Tag)
	}
	facts, err := eng.Facts(ctx)
	if err != nil {
		return err
	}
	// debootstrap without emulation builds for this machine's architecture.
	if want := "linux/" + runtime.GOARCH; facts.Platform != want {
		return fmt.Errorf("%s: the engine is %s but this machine builds %s root file systems; build the base on a %s machine of the engine's kind", o.Tag, facts.Platform, want, facts.Platform)
	}
	return nil
}

func (o Options) build(ctx context.Context, eng *engine.Engine, rootfs string, progress io.Writer) (engine.Image, error) {
	if err := debootstrap(ctx, o.Mirror, rootfs, progress); err != nil {
		return engine.Image{}, err
	}
	status, err := os.ReadFile(filepath.Join(rootfs, "var/lib/dpkg/status"))
	if err != nil {
		return engine.Image{}, err
	}
	version, debVersion, err := pythonVersion(status)
	if err != nil {
		return engine.Image{}, err
	}
	if err := strip(rootfs); err != nil {
		return engine.Image{}, err
	}
	changes := []string{
		"ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"ENV LANG=C.UTF-8",
		"LABEL " + VersionLabel + "=" + version,
		"LABEL " + DebianVersionLabel + "=" + debVersion,
		"LABEL " + SuiteLabel + "=" + Suite,
		"LABEL " + MirrorLabel + "=" + o.Mirror,
		`CMD ["/usr/bin/python3"]`,
	}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(writeTar(pw, rootfs)) }()
	img, err := eng.ImportImage(ctx, pr, o.Tag, changes)
	pr.CloseWithError(errors.New("import ended")) // stops the writer if the import failed early
	return img, err
}

// debootstrap builds a minimal bookworm with Packages into dir.
func debootstrap(ctx context.Context, mirror, dir string, progress io.Writer) error {
	args := []string{"--variant=minbase", "--include=" + strings.Join(Packages, ","), "--arch=" + runtime.GOARCH, Suite, dir, mirror}
	cmd := exec.CommandContext(ctx, "debootstrap", args...)
	var tail tailBuffer
	cmd.Stdout = io.MultiWriter(progress, &tail)
	cmd.Stderr = cmd.Stdout
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("debootstrap %s: %w: %s", strings.Join(args, " "), err, tail.last())
	}
	return nil
}

// tailBuffer keeps the end of a command's output for its error message.
type tailBuffer struct{ b []byte }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 4096 {
		t.b = t.b[len(t.b)-4096:]
	}
	return len(p), nil
}

func (t *tailBuffer) last() string {
	lines := strings.Split(strings.TrimSpace(string(t.b)), "\n")
	if len(lines) > 3 {
		lines = lines[len(lines)-3:]
	}
	return strings.Join(lines, " / ")
}

var interpreterPackage = regexp.MustCompile(`^python3\.\d+$`)

// pythonVersion finds the installed interpreter package (python3.11) in dpkg's status
// file and returns its upstream version ("3.11.2") and Debian version.
func pythonVersion(status []byte) (upstream, debian string, err error) {
	for _, stanza := range bytes.Split(status, []byte("\n\n")) {
		fields := map[string]string{}
		sc := bufio.NewScanner(bytes.NewReader(stanza))
		sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ": "); ok && !strings.HasPrefix(k, " ") {
				fields[k] = v
			}
		}
		if !interpreterPackage.MatchString(fields["Package"]) || fields["Status"] != "install ok installed" {
			continue
		}
		debian = fields["Version"]
		upstream = debian
		if _, rest, ok := strings.Cut(upstream, ":"); ok { // epoch
			upstream = rest
		}
		if i := strings.LastIndexByte(upstream, '-'); i > 0 { // Debian revision
			upstream = upstream[:i]
		}
		return upstream, debian, nil
	}
	return "", "", errors.New("no python3.x package is installed in the root file system")
}

// stripped are emptied: package caches and lists, documentation, manuals and
// translations. Nothing in a running container reads them.
var stripped = []string{
	"var/cache/apt", "var/lib/apt/lists", "var/log",
	"usr/share/doc", "usr/share/man", "usr/share/info", "usr/share/locale", "usr/share/lintian",
}

// strip empties the stripped folders of rootfs, keeping the folders themselves and the
// packages' copyright files.
func strip(rootfs string) error {
	for _, rel := range stripped {
		dir := filepath.Join(rootfs, rel)
		entries, err := os.ReadDir(dir)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			if rel == "usr/share/doc" && e.IsDir() {
				if err := keepOnly(p, "copyright"); err != nil {
					return err
				}
				continue
			}
			if err := os.RemoveAll(p); err != nil {
				return err
			}
		}
	}
	old, _ := filepath.Glob(filepath.Join(rootfs, "var/cache/debconf/*-old"))
	for _, p := range old {
		if err := os.Remove(p); err != nil {
			return err
		}
	}
	return nil
}

// keepOnly removes everything in dir but the file named keep.
func keepOnly(dir, keep string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() != keep || e.IsDir() {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

func shortID(id string) string {
	id = strings.TrimPrefix(id, "sha256:")
	if len(id) > 12 {
		id = id[:12]
	}
	return id
}
