package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/host/engine"
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
