// Package enginetest decides whether a test that needs the Docker Engine runs. Such
// tests run when LOGBENCH_INTEGRATION=1; under CI (CI=true) they must run, and a test
// that would skip fails instead, because a skipped test proves nothing. -short asks for
// the unit tests alone, under CI too: scripts/test runs them so, with the race
// detector, before it runs the engine's tests without -short.
package enginetest

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/client"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/host/engine"
	"github.com/logbench/logbench/kit/host/images"
)

// Require returns a connected engine, or skips (fails under CI) the test.
func Require(t testing.TB) *engine.Engine {
	t.Helper()
	if testing.Short() {
		t.Skip("needs the Docker Engine; not in -short mode")
	}
	if os.Getenv("LOGBENCH_INTEGRATION") != "1" && os.Getenv("CI") != "true" {
		t.Skip("needs the Docker Engine: set LOGBENCH_INTEGRATION=1")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	home, _ := os.UserHomeDir()
	eng, err := engine.Connect(ctx, engine.Choice{Getenv: os.Getenv, Home: home})
	if err != nil {
		t.Fatalf("integration test needs the Docker Engine: %v", err)
	}
	t.Cleanup(func() { eng.Close() })
	return eng
}

// Docker returns a raw client for tests that act on the engine behind the kit's back:
// killing or pausing a container mid-run, or leaving something behind.
func Docker(t testing.TB) *client.Client {
	t.Helper()
	Require(t)
	cli, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	return cli
}

// Builder is the kit's image builder on eng, for tests that build the kit's images,
// with the module's root (found above the test's folder) as its source, and the
// engine's own platform.
func Builder(t testing.TB, eng *engine.Engine, progress io.Writer) (*images.Builder, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	facts, err := eng.Facts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = parent
	}
	return &images.Builder{Engine: eng, SourceDir: dir, Env: os.Environ(), Progress: progress}, facts.Platform
}

// EndlessPod runs a pod whose conductor never ends (the kit's Go API, image, which
// serves until it is stopped) on pods with stopAfter as its StopAfter, and holds the run
// to what the kit does to a pod past its time: no error, a failure that says the kit
// stopped it after stopAfter, no result. It returns the pod, for its leftovers.
func EndlessPod(ctx context.Context, t testing.TB, pods experiment.Pods, image string, stopAfter time.Duration) experiment.PodSpec {
	t.Helper()
	spec := experiment.PodSpec{RunID: fmt.Sprintf("overdue-%d", time.Now().UnixNano()), Conductor: "api", MountPath: contract.RunDir,
		ResultPath: contract.RunDir + "/result.json", User: contract.User, PidsLimit: 64, StopAfter: stopAfter,
		Containers: []experiment.ContainerSpec{{Role: "api", Image: image, NanoCPUs: 250_000_000, MemoryBytes: 128 << 20}}}
	res, err := pods.RunPod(ctx, spec, io.Discard)
	if err != nil {
		t.Fatalf("RunPod: %v", err)
	}
	t.Logf("the run's failure: %s", res.Failure)
	if want := fmt.Sprintf("stopped by the kit: the api container still ran %v after its start, past what the plan allows", stopAfter); !strings.HasPrefix(res.Failure, want) {
		t.Errorf("the pod's failure %q, want it to begin %q", res.Failure, want)
	}
	if res.Result != nil {
		t.Errorf("a result from a conductor that wrote none: %q", res.Result)
	}
	return spec
}
