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

// prepare validates every input, reaches the engine and builds the images; only then
// is anything created on the engine.
func prepare(c *cli.Context, command string, conds []bench.Condition, rounds int, params bundle.Params, settings bench.Settings) (*session, error) {
	out := c.App.Writer
	source, err := findSource(c)
	if err != nil {
		return nil, err
	}
	if c.String("out") != "" {
		if _, err := outDir(c, source, "", time.Now()); err != nil {
			return nil, err
		}
	}
	eng, err := engine.Connect(c.Context)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	facts, err := eng.Facts(c.Context)
	if err != nil {
		eng.Close()
		return nil, err
	}
	platform, err := platformFlag(c, facts.Platform)
	if err != nil {
		eng.Close()
		return nil, err
	}
	started := time.Now()
	dir, err := outDir(c, source, facts.Host, started)
	if err != nil {
		eng.Close()
		return nil, err
	}
	say(out, "engine %s on %s (%s, %d CPUs, cgroup v%s)", facts.EngineVersion, facts.Host, facts.Platform, facts.CPUs, facts.CgroupVersion)

	builder := &images.Builder{Engine: eng, SourceDir: source, Env: os.Environ(), Progress: prefixed(out, "build: ")}
	built, err := builder.Build(c.Context, platform)
	if err != nil {
		eng.Close()
		return nil, err
	}
	var imgs []bundle.Image
	for _, role := range images.Roles {
		b := built[role]
		state := "built"
		if b.Reused {
			state = "unchanged"
		}
		say(out, "image %-7s %s %s (%s, %s)", role, b.ID[:19], state, b.Architecture, units.BytesSize(float64(b.SizeBytes)))
		imgs = append(imgs, bundle.Image{Role: role, Tag: b.Tag, ID: b.ID, Architecture: b.Architecture, SizeBytes: b.SizeBytes, BinarySHA256: b.BinarySHA256})
	}

	params.Rounds = rounds
	params.Platform = platform
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
		Engine:        facts,
		KitHost:       bundle.KitHost{OS: runtime.GOOS, Arch: runtime.GOARCH, GoVersion: runtime.Version()},
		Images:        imgs,
	}}
	runner := &bench.Runner{Engine: eng, Images: built, Settings: settings, Progress: prefixed(out, "  ")}
	return &session{
		engine: eng,
		matrix: &bench.Matrix{Runner: runner, Bundle: b, Dir: dir},
		runs:   bench.Plan(conds, rounds),
	}, nil
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
