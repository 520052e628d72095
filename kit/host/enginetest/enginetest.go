// Package enginetest decides whether a test that needs the Docker Engine runs. Such
// tests run when LOGBENCH_INTEGRATION=1; under CI (CI=true) they must run, and a test
// that would skip fails instead, because a skipped test proves nothing.
package enginetest

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/docker/docker/client"

	"github.com/logbench/logbench/kit/host/engine"
)

// Require returns a connected engine, or skips (fails under CI) the test.
func Require(t testing.TB) *engine.Engine {
	t.Helper()
	if testing.Short() && os.Getenv("CI") != "true" {
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
