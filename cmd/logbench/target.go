package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"

	"github.com/docker/go-units"
	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiments/fifostall"
	"github.com/logbench/logbench/kit/host/bases"
	"github.com/logbench/logbench/kit/host/engine"
	"github.com/logbench/logbench/kit/host/images"
	"github.com/logbench/logbench/kit/offline/bundle"
)

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
