package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/docker/go-units"
	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/bench"
	"github.com/logbench/logbench/kit/bundle"
	"github.com/logbench/logbench/kit/engine"
	"github.com/logbench/logbench/kit/images"
)

// session is everything a command that performs runs has prepared before the first.
type session struct {
	engine *engine.Engine
	matrix *bench.Matrix
	runs   []bench.PlannedRun
}

// target is a reachable engine, the platform to build for, and the kit's source.
type target struct {
	engine   *engine.Engine
	facts    engine.Facts
	platform string
	source   string
}

// connect finds the source tree, reaches the engine and settles the platform.
func connect(c *cli.Context) (*target, error) {
	source, err := findSource(c)
	if err != nil {
		return nil, err
	}
	eng, err := engine.Connect(c.Context)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	facts, err := eng.Facts(c.Context)
	if err == nil {
		var platform string
		if platform, err = platformFlag(c, facts.Platform); err == nil {
			return &target{engine: eng, facts: facts, platform: platform, source: source}, nil
		}
	}
	eng.Close()
	return nil, err
}

// buildImages builds (or finds unchanged) every image and says which.
func (t *target) buildImages(c *cli.Context) (map[string]images.Built, []bundle.Image, error) {
	out := c.App.Writer
	say(out, "engine %s on %s (%s, %d CPUs, cgroup v%s)", t.facts.EngineVersion, t.facts.Host, t.facts.Platform, t.facts.CPUs, t.facts.CgroupVersion)
	builder := &images.Builder{Engine: t.engine, SourceDir: t.source, Env: os.Environ(), Progress: prefixed(out, "build: ")}
	built, err := builder.Build(c.Context, t.platform)
	if err != nil {
		return nil, nil, err
	}
	var imgs []bundle.Image
	for _, role := range images.Roles {
		b := built[role]
		state := "built"
		if b.Reused {
			state = "unchanged"
		}
		say(out, "image %-7s %s %s (%s, %s, %s)", role, b.ID[:19], state, b.Architecture, units.BytesSize(float64(b.SizeBytes)), images.LocalTag(role))
		imgs = append(imgs, bundle.Image{Role: role, Tag: b.Tag, ID: b.ID, Architecture: b.Architecture, SizeBytes: b.SizeBytes, BinarySHA256: b.BinarySHA256})
	}
	return built, imgs, nil
}

// prepare validates every input, reaches the engine and builds the images; only then
// is anything created on the engine.
func prepare(c *cli.Context, command string, conds []bench.Condition, rounds int, params bundle.Params, settings bench.Settings) (*session, error) {
	if c.String("out") != "" {
		if _, err := outDir(c, "", "", time.Now()); err != nil {
			return nil, err
		}
	}
	t, err := connect(c)
	if err != nil {
		return nil, err
	}
	if t.platform != t.facts.Platform {
		// Emulated runs would measure the emulator, not the host.
		t.engine.Close()
		return nil, usagef("--platform %s: this engine runs %s; build other platforms with `logbench build --platform`", t.platform, t.facts.Platform)
	}
	started := time.Now()
	dir, err := outDir(c, t.source, t.facts.Host, started)
	if err == nil {
		var built map[string]images.Built
		var imgs []bundle.Image
		if built, imgs, err = t.buildImages(c); err == nil {
			return newSession(c.App.Writer, t, command, conds, rounds, params, settings, dir, started, built, imgs), nil
		}
	}
	t.engine.Close()
	return nil, err
}

func newSession(out io.Writer, t *target, command string, conds []bench.Condition, rounds int, params bundle.Params, settings bench.Settings,
	dir string, started time.Time, built map[string]images.Built, imgs []bundle.Image) *session {
	params.Rounds = rounds
	params.Platform = t.platform
	for _, cond := range conds {
		params.Modes = appendOnce(params.Modes, string(cond.Mode))
		params.Readers = appendOnce(params.Readers, cond.Reader)
	}
	b := &bundle.Bundle{Manifest: bundle.Manifest{
		SchemaVersion: bundle.SchemaVersion,
		KitVersion:    version,
		Command:       command,
		CreatedUTC:    started.UTC(),
		Parameters:    params,
		Engine:        t.facts,
		KitHost:       bundle.KitHost{OS: runtime.GOOS, Arch: runtime.GOARCH, GoVersion: runtime.Version()},
		Images:        imgs,
	}}
	runner := &bench.Runner{Engine: t.engine, Images: built, Settings: settings, Progress: prefixed(out, "  ")}
	return &session{
		engine: t.engine,
		matrix: &bench.Matrix{Runner: runner, Bundle: b, Dir: dir},
		runs:   bench.Plan(conds, rounds),
	}
}

// execute runs the matrix; an interrupt still leaves a valid partial bundle.
func (s *session) execute(ctx context.Context) error {
	defer s.engine.Close()
	err := s.matrix.Run(ctx, s.runs)
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted: %d of %d runs kept in %s", s.matrix.Bundle.Manifest.RunsCompleted, len(s.runs), s.matrix.Dir)
	}
	return err
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
