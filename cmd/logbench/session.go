package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/docker/go-units"
	"github.com/urfave/cli/v2"
	"golang.org/x/sys/unix"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments/fifostall"
	"github.com/logbench/logbench/kit/host/bases"
	"github.com/logbench/logbench/kit/host/engine"
	"github.com/logbench/logbench/kit/host/images"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// session is everything a command that performs runs has prepared before the first.
type session struct {
	engine *engine.Engine
	matrix *experiment.Matrix
	runs   []experiment.PlannedRun
	// images are every image built, by name (the plan's and the Go ones).
	images map[string]string
	// imageBuild is how long finding or building the images took.
	imageBuild time.Duration
}

// target is a reachable engine, the platform to build for, and the kit's source.
type target struct {
	engine   *engine.Engine
	facts    contract.EngineFacts
	platform string
	// emulated says the platform is not the engine's own and --emulated allowed it.
	emulated bool
	source   source
	// bases say where the bases' Debian packages come from.
	bases bases.Options
	// out gets the command's progress lines (the app's writer, or a prefixed one for
	// one engine of several).
	out io.Writer
}

// connect finds the source tree, reaches the engine the flags choose and settles the
// platform.
func connect(c *cli.Context) (*target, error) {
	ep, err := engineChoice(c).Resolve()
	if err != nil {
		return nil, usageError{Msg: err.Error()}
	}
	return connectTo(c, ep, c.App.Writer)
}

// connectTo is connect for one resolved engine.
func connectTo(c *cli.Context, ep engine.Endpoint, out io.Writer) (*target, error) {
	baseOpts, err := baseOptions(c)
	if err != nil {
		return nil, err
	}
	src, err := findSource(c)
	if err != nil {
		return nil, err
	}
	eng, err := engine.ConnectTo(c.Context, ep)
	if err != nil {
		if c.Context.Err() != nil {
			return nil, interruptedError{"interrupted while reaching the engine"}
		}
		return nil, usageError{Msg: err.Error()}
	}
	facts, err := eng.Facts(c.Context)
	if err == nil {
		var platform string
		if platform, err = platformFlag(c, facts.Platform); err == nil {
			return &target{engine: eng, facts: facts, platform: platform, source: src, out: out, bases: baseOpts}, nil
		}
	}
	eng.Close()
	return nil, err
}

// buildImages builds (or finds unchanged) every image the names need and says which.
// The Go images are always built: calibration measures with them.
func (t *target) buildImages(c *cli.Context, names []string) (map[string]string, []bundle.Image, error) {
	out := t.out
	ep := t.engine.Endpoint()
	say(out, "engine %s on %s (%s, %d CPUs, cgroup v%s), context %s at %s", t.facts.EngineVersion, t.facts.Host, t.facts.Platform, t.facts.CPUs, t.facts.CgroupVersion, ep.Context, ep.Host)
	if t.emulated {
		say(out, "EMULATED: %s images on a %s engine; every figure times the emulator and is not a measurement of %s", t.platform, t.facts.Platform, t.platform)
	}
	builder := &images.Builder{Engine: t.engine, SourceDir: t.source.dir, Env: os.Environ(), Progress: prefixed(out, "build: ")}
	built, err := builder.Build(c.Context, t.platform)
	if err != nil {
		return nil, nil, err
	}
	order := images.Roles
	runtimes := map[string]string{"api": "go (" + runtime.Version() + " toolchain)"}
	for _, name := range names {
		if name == images.WrkImage {
			w, err := builder.BuildWrk(c.Context, t.platform, t.bases)
			if err != nil {
				return nil, nil, fmt.Errorf("%w (the qps experiment's cross-check needs it; or turn it off: --wrk=false)", err)
			}
			built[name] = w.Built
			runtimes[name] = w.Runtime()
			order = append(append([]string(nil), order...), name)
			continue
		}
		if name == images.NodeImage {
			node, err := builder.BuildNode(c.Context, t.platform, t.bases)
			if err != nil {
				return nil, nil, fmt.Errorf("%w (the Node.js API needs its base image; or run the Go API: --api go)", err)
			}
			built[name] = node.Built
			runtimes[name] = node.Runtime()
			order = append(append([]string(nil), order...), name)
			continue
		}
		if name != fifostall.ImageOf(fifostall.PythonAPI) {
			continue
		}
		py, err := builder.BuildPython(c.Context, t.platform, t.bases)
		if err != nil {
			return nil, nil, fmt.Errorf("%w (the Python API needs its base image; or run the Go API: --api go)", err)
		}
		built[name] = py.Built
		runtimes[name] = py.Runtime()
		order = append(append([]string(nil), order...), name)
	}
	ids := map[string]string{}
	var imgs []bundle.Image
	for _, name := range order {
		b := built[name]
		state := "built"
		if b.Reused {
			state = "unchanged"
		}
		say(out, "image %-10s %s %s (%s, %s)", name, b.ID[:19], state, b.Architecture, units.BytesSize(float64(b.SizeBytes)))
		ids[name] = b.ID
		imgs = append(imgs, bundle.Image{Role: name, Tag: b.Tag, ID: b.ID, Architecture: b.Architecture, SizeBytes: b.SizeBytes, BinarySHA256: b.BinarySHA256, Runtime: runtimes[name]})
	}
	return ids, imgs, nil
}

// plan is what a command that performs runs asks for.
type plan struct {
	command string
	exp     experiment.Plan
	// resumeDir is the bundle being resumed ("" for a new one).
	resumeDir string
}

// prepare validates every input, reaches the engine, checks the disk and builds the
// images; only then is anything created on the engine.
func prepare(c *cli.Context, p plan) (*session, error) {
	if c.String("out") != "" {
		if _, err := outDir(c, source{}, "", time.Now()); err != nil {
			return nil, err
		}
	}
	t, err := connect(c)
	if err != nil {
		return nil, err
	}
	s, err := t.prepare(c, p, "")
	if err != nil {
		t.engine.Close()
		return nil, err
	}
	return s, nil
}

// prepare readies p's matrix on t; dir is the bundle's folder ("": from --out, or a
// fresh one under results/).
func (t *target) prepare(c *cli.Context, p plan, dir string) (*session, error) {
	if err := t.checkPlatform(c.Bool("emulated")); err != nil {
		return nil, err
	}
	started := time.Now()
	if p.resumeDir != "" {
		dir = p.resumeDir
	}
	if dir == "" {
		var err error
		if dir, err = outDir(c, t.source, t.facts.Host, started); err != nil {
			return nil, err
		}
	}
	env := experiment.Env{Engine: t.facts, Platform: t.platform,
		VolumeExists: func(name string) (bool, error) { return t.engine.VolumeExists(c.Context, name) }}
	if err := p.exp.Target(env); err != nil {
		return nil, err
	}
	b := p.exp.Bundle()
	if p.resumeDir != "" {
		if c := b.Common(); c.Emulated != t.emulated || (c.Platform != "" && c.Platform != t.platform) {
			return nil, usagef("cannot resume %s: its runs are %s%s, this engine would run %s%s", dir, c.Platform, emulatedWord(c.Emulated), t.platform, emulatedWord(t.emulated))
		}
	}
	all := experiment.Rotate(p.exp.Conditions(), p.exp.Rounds())
	runs := experiment.Missing(all, b)
	if err := checkDisk(dir, len(runs)); err != nil {
		return nil, err
	}
	buildStart := time.Now()
	ids, imgs, err := t.buildImages(c, p.exp.Images())
	if err != nil {
		return nil, err
	}
	imageBuild := time.Since(buildStart)
	common := b.Common()
	if p.resumeDir == "" {
		fillCommon(c, t, p, common, started, imgs)
	} else if err := sameImages(common.Images, imgs); err != nil {
		return nil, err
	}
	common.Interrupted = false // this invocation has not been
	common.RunsPlanned = len(all)
	return &session{
		engine: t.engine,
		matrix: &experiment.Matrix{Pods: t.engine, Plan: p.exp, Images: ids, Dir: dir, Save: bundle.WriteFiles,
			Progress: prefixed(t.out, "  ")},
		runs:       runs,
		images:     ids,
		imageBuild: imageBuild,
	}, nil
}

func emulatedWord(emulated bool) string {
	if emulated {
		return " emulated"
	}
	return ""
}

// checkPlatform refuses a platform the engine does not run natively unless emulated
// allows it: an emulated run times the emulator, not the host, so it is only done when
// asked for, and its bundle says so everywhere.
func (t *target) checkPlatform(emulated bool) error {
	native := t.platform == t.facts.Platform
	switch {
	case native && emulated:
		return usagef("--emulated: this engine runs %s natively; --emulated is for another platform than the engine's", t.platform)
	case !native && !emulated:
		return usagef("--platform %s: this engine runs %s; an emulated run (qemu) times the emulator, not a %s host: add --emulated to run it anyway, marked as no measurement, or only build with `logbench build --platform`", t.platform, t.facts.Platform, t.platform)
	}
	t.emulated = !native
	return nil
}

// sourceCommit names the source tree's commit, for the manifest.
func sourceCommit(ctx context.Context, dir string) string {
	head, err := exec.CommandContext(ctx, "git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		return ""
	}
	commit := strings.TrimSpace(string(head))
	if status, err := exec.CommandContext(ctx, "git", "-C", dir, "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(status) > 0 {
		commit += "+dirty"
	}
	return commit
}

// fillCommon fills what every bundle's manifest says of the kit, the engine and the
// images, for a new bundle.
func fillCommon(c *cli.Context, t *target, p plan, m *bundle.Common, started time.Time, imgs []bundle.Image) {
	m.SchemaVersion = bundle.SchemaVersion
	m.KitVersion = version
	m.KitCommit = sourceCommit(c.Context, t.source.dir)
	m.Command = p.command
	m.CreatedUTC = started.UTC()
	m.Engine = t.facts
	m.KitHost = bundle.KitHost{OS: runtime.GOOS, Arch: runtime.GOARCH, GoVersion: runtime.Version()}
	m.Images = imgs
	ep := t.engine.Endpoint()
	m.EngineContext, m.EngineEndpoint = ep.Context, ep.Host
	m.Platform, m.Emulated = t.platform, t.emulated
}

// sameImages refuses to resume with binaries other than the bundle's.
func sameImages(have, now []bundle.Image) error {
	digest := map[string]string{}
	for _, img := range have {
		digest[img.Role] = img.BinarySHA256
	}
	for _, img := range now {
		if d, ok := digest[img.Role]; ok && d != img.BinarySHA256 {
			return fmt.Errorf("cannot resume: the %s binary differs from the bundle's (%.12s now, %.12s then); resume from the same source, or start a new bundle", img.Role, img.BinarySHA256, d)
		}
	}
	return nil
}

// execute runs the matrix; an interrupt still leaves a valid partial bundle.
func (s *session) execute(ctx context.Context) error {
	defer s.engine.Close()
	err := s.matrix.Run(ctx, s.runs)
	if ctx.Err() != nil {
		mf := s.matrix.Plan.Bundle().Common()
		return interruptedError{fmt.Sprintf("interrupted: %d of %d runs kept in %s; continue with `logbench reproduce --resume %s`",
			mf.RunsCompleted, mf.RunsPlanned, s.matrix.Dir, s.matrix.Dir)}
	}
	return err
}

// bundleBytesPerRun is a generous estimate of what one run adds to a bundle (a 160-request
// run with a fast reader's timeline takes about 100 KB).
const bundleBytesPerRun = 1 << 20

// checkDisk refuses a matrix whose bundle would not fit where it is to be written.
func checkDisk(dir string, runs int) error {
	existing := dir
	for {
		if _, err := os.Stat(existing); err == nil {
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			return nil
		}
		existing = parent
	}
	free, err := freeBytes(existing)
	if err != nil {
		return nil // no figure to check against; the writes themselves will tell
	}
	need := int64(runs)*bundleBytesPerRun + 64<<20
	if free < need {
		return usagef("not enough free disk for the bundle at %s: %s free, %s needed for %d runs", dir, units.BytesSize(float64(free)), units.BytesSize(float64(need)), runs)
	}
	return nil
}

// freeBytes is what the file system holding dir has free for this user; a variable so
// that a test can make the disk look full.
var freeBytes = func(dir string) (int64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}

func appendOnce(list []string, s string) []string {
	for _, have := range list {
		if have == s {
			return list
		}
	}
	return append(list, s)
}

// prefixed writes each line to w with a prefix.
func prefixed(w io.Writer, prefix string) io.Writer {
	return &linePrefixer{w: w, prefix: prefix, atStart: true}
}

type linePrefixer struct {
	w       io.Writer
	prefix  string
	atStart bool
}

func (p *linePrefixer) Write(b []byte) (int, error) {
	for i, c := range b {
		if p.atStart {
			io.WriteString(p.w, p.prefix)
		}
		p.w.Write(b[i : i+1])
		p.atStart = c == '\n'
	}
	return len(b), nil
}
