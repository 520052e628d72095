package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/host/bases"
	"github.com/logbench/logbench/kit/host/engine"
	"github.com/logbench/logbench/kit/host/images"
	"github.com/logbench/logbench/kit/host/lab"
)

// target is a reached engine as the lab runs plans on it, with what only the command
// line needs of it: the engine's own client (save, load, clean), the kit's source, and
// where the bases come from.
type target struct {
	*lab.Target
	engine *engine.Engine
	source source
	bases  bases.Options
}

// connect finds the source tree, reaches the engine the flags choose and settles the
// platform.
func connect(c *cli.Context) (*target, error) {
	ep, err := engineChoice(c).Resolve()
	if err != nil {
		return nil, usageError{Msg: err.Error()}
	}
	return reach(c, ep, c.App.Writer)
}

// reach reaches one resolved engine for the commands that run plans (reproduce, run);
// a variable so that a test can put a fake engine behind the whole command.
var reach = connectTo

// connectTo is connect for one resolved engine; out gets its progress lines.
func connectTo(c *cli.Context, ep engine.Endpoint, out io.Writer) (*target, error) {
	o, err := planOptions(c)
	if err != nil {
		return nil, err
	}
	eng, err := engine.ConnectTo(c.Context, ep)
	if err != nil {
		if c.Context.Err() != nil {
			return nil, interruptedError{Msg: "interrupted while reaching the engine"}
		}
		return nil, usageError{Msg: err.Error()}
	}
	return o.target(c, eng, out, eng.Facts, func(facts contract.EngineFacts, platform string, imgs images.ForPlans) *lab.Target {
		return &lab.Target{Engine: eng, Facts: facts, Context: ep.Context, Endpoint: ep.Host, Platform: platform, Images: imgs, Out: out}
	})
}

// options are what a plan's target takes from the flags before any engine is reached:
// how the base images are made, and the source tree the kit's images build from.
type options struct {
	bases  bases.Options
	source source
}

func planOptions(c *cli.Context) (options, error) {
	baseOpts, err := baseOptions(c)
	if err != nil {
		return options{}, err
	}
	src, err := findSource(c)
	return options{baseOpts, src}, err
}

// target reads the facts of the engine the plans run on and settles the platform, then
// has at make the lab's target around the images, which are built on docker (the local
// engine, for a cluster). docker is closed when it fails.
func (o options) target(c *cli.Context, docker *engine.Engine, out io.Writer, factsOf func(context.Context) (contract.EngineFacts, error),
	at func(facts contract.EngineFacts, platform string, imgs images.ForPlans) *lab.Target) (*target, error) {
	facts, err := factsOf(c.Context)
	if err == nil {
		var platform string
		if platform, err = platformFlag(c, facts.Platform); err == nil {
			builder := &images.Builder{Engine: docker, SourceDir: o.source.dir, Env: os.Environ(), Progress: prefixed(out, "build: ")}
			return &target{Target: at(facts, platform, images.ForPlans{Builder: builder, Bases: o.bases}), engine: docker, source: o.source, bases: o.bases}, nil
		}
	}
	docker.Close()
	return nil, err
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
