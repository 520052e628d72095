package main

import (
	"cmp"
	"io"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/host/lab"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// plan is what a command that performs runs asks for.
type plan struct {
	command string
	exp     experiment.Plan
	// resumeDir is the bundle being resumed ("" for a new one).
	resumeDir string
	// precision is a new bundle's record of --precision (nil without it), offline the
	// experiment that judges it.
	precision *bundle.Precision
	offline   experiment.Offline
}

// prepare validates every input, reaches the engine, checks the disk and builds the
// images; only then is anything created on the engine.
func prepare(c *cli.Context, p plan) (*lab.Session, error) {
	if c.String("out") != "" {
		if _, err := outDir(c, source{}, "", time.Now()); err != nil {
			return nil, err
		}
	}
	// A resumed bundle's runs stay where they began: a cluster bundle on the node its
	// manifest names, any other on the engine the flags and environment choose.
	var t *target
	var err error
	if facts := p.exp.Bundle().Common().Engine; p.resumeDir != "" && facts.Kind == contract.EngineKubernetes && facts.Kubernetes != nil {
		t, err = reachResumedNode(c, *facts.Kubernetes)
	} else if c.IsSet("registry") {
		return nil, usagef("--registry is for a bundle whose runs ran on Kubernetes, whose nodes pull the images; %s ran on a %s engine", p.resumeDir, cmp.Or(facts.Kind, "Docker"))
	} else {
		t, err = connect(c)
	}
	if err != nil {
		return nil, err
	}
	s, err := t.prepare(c, p, "")
	if err != nil {
		t.Target.Engine.Close()
		return nil, err
	}
	return s, nil
}

// prepare readies p's matrix on t; dir is the bundle's folder ("": from --out, or a
// fresh one under results/).
func (t *target) prepare(c *cli.Context, p plan, dir string) (*lab.Session, error) {
	if err := t.CheckPlatform(c.Bool("emulated")); err != nil {
		return nil, err
	}
	if p.resumeDir != "" {
		dir = p.resumeDir
	}
	if dir == "" {
		var err error
		if dir, err = outDir(c, t.source, t.Facts.Host, time.Now()); err != nil {
			return nil, err
		}
	}
	probe := c.Bool("speed-probe")
	if p.resumeDir != "" { // as the bundle began
		probe = p.exp.Bundle().Common().SpeedProbe != nil
	}
	return lab.Prepare(c.Context, t.Target, p.exp, lab.Options{Command: p.command, Dir: dir, Resuming: p.resumeDir != "", SpeedProbe: probe,
		KitVersion: version, KitCommit: sourceCommit(c.Context, t.source.dir), Precision: p.precision, Offline: p.offline})
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
