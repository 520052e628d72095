// Package engine is the kit's only door to the Docker Engine: it builds images, runs a
// run's pod of containers with exact limits, copies results out and removes everything
// it made. It speaks only the Engine API, so a remote engine (DOCKER_HOST) works like
// a local one; it never touches the Docker host's file system.
package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/client"

	"github.com/logbench/logbench/kit/contract"
)

// Label marks everything the kit creates; its value is the run's ID.
const Label = "io.logbench.run"

// Engine is a connected Docker Engine.
type Engine struct {
	cli      *client.Client
	endpoint Endpoint

	// The key of the marks on what the kit creates (mark.go), loaded on first use.
	markOnce sync.Once
	mark     marker
	markErr  error
}

// Connect reaches the engine the choice selects (see Choice) and checks that it answers.
func Connect(ctx context.Context, choice Choice) (*Engine, error) {
	ep, err := choice.Resolve()
	if err != nil {
		return nil, err
	}
	return ConnectTo(ctx, ep)
}

// ConnectTo reaches a resolved endpoint and checks that it answers.
func ConnectTo(ctx context.Context, ep Endpoint) (*Engine, error) {
	opts, err := ep.endpoint.ClientOpts()
	if err != nil {
		return nil, fmt.Errorf("docker engine %s: %w", ep.Host, err)
	}
	cli, err := client.NewClientWithOpts(opts...)
	if err != nil {
		return nil, fmt.Errorf("docker engine %s: %w", ep.Host, err)
	}
	if _, err := cli.Ping(ctx); err != nil {
		cli.Close()
		return nil, fmt.Errorf("cannot reach the Docker Engine at %s (context %s, chosen by %s): %w", ep.Host, ep.Context, ep.ChosenBy, err)
	}
	return &Engine{cli: cli, endpoint: ep}, nil
}

// Endpoint is the engine's context and address, as chosen.
func (e *Engine) Endpoint() Endpoint { return e.endpoint }

// Close releases the connection.
func (e *Engine) Close() error { return e.cli.Close() }

// Facts reads the engine's description of its host.
func (e *Engine) Facts(ctx context.Context) (contract.EngineFacts, error) {
	info, err := e.cli.Info(ctx)
	if err != nil {
		return contract.EngineFacts{}, fmt.Errorf("engine info: %w", err)
	}
	v, err := e.cli.ServerVersion(ctx)
	if err != nil {
		return contract.EngineFacts{}, fmt.Errorf("engine version: %w", err)
	}
	kind, evidence := KindOf(v)
	return contract.EngineFacts{
		Kind:             kind,
		KindEvidence:     evidence,
		EngineAPIVersion: v.APIVersion,
		Host:             info.Name,
		EngineVersion:    info.ServerVersion,
		APIVersion:       e.cli.ClientVersion(),
		OS:               info.OperatingSystem,
		OSType:           info.OSType,
		Kernel:           info.KernelVersion,
		Architecture:     info.Architecture,
		Platform:         info.OSType + "/" + goArch(info.Architecture),
		CPUs:             info.NCPU,
		MemoryBytes:      info.MemTotal,
		CgroupVersion:    info.CgroupVersion,
		CgroupDriver:     info.CgroupDriver,
		StorageDriver:    info.Driver,
		SwapLimitSupport: info.SwapLimit,
		LogDrivers:       info.Plugins.Log,
		DefaultLogDriver: info.LoggingDriver,
	}, nil
}

// goArch maps the kernel's machine name to Go's and OCI's architecture name.
func goArch(machine string) string {
	switch machine {
	case "x86_64":
		return "amd64"
	case "aarch64", "arm64":
		return "arm64"
	case "armv7l":
		return "arm"
	}
	return machine
}

// Leftovers are what earlier invocations left on the engine.
type Leftovers struct {
	Containers []string
	Volumes    []string
}

// alreadyGone reports whether a removal failed only because the object is already gone or
// on its way out (another invocation is removing it).
func alreadyGone(err error) bool {
	return cerrdefs.IsNotFound(err) || strings.Contains(err.Error(), "already in progress")
}

// Empty reports whether nothing was found.
func (l Leftovers) Empty() bool { return len(l.Containers) == 0 && len(l.Volumes) == 0 }
