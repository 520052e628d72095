package main

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/internal/fifostalltest"
	"github.com/logbench/logbench/kit/experiments/fifostall"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/client"

	"github.com/logbench/logbench/internal/enginetest"
	"github.com/logbench/logbench/kit/host/engine"
)

// The fault-injection suite: each test does the fault for real on the engine and checks
// the exit, the message, that nothing is left on the engine, and that the bundle with
// the failed run is still intact.

type appResult struct {
	out string
	err error
}

func startApp(t *testing.T, args ...string) <-chan appResult {
	done := make(chan appResult, 1)
	go func() {
		out, err := runApp(t, args...)
		done <- appResult{out, err}
	}()
	return done
}

// runningContainer waits for the kit's running container of role and returns its ID:
// one the kit made under this test's key (eng's), not another test's on the same engine.
func runningContainer(t *testing.T, cli *client.Client, eng *engine.Engine, role string) string {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second) // the first call may build images
	for time.Now().Before(deadline) {
		own, err := eng.FindOwn(context.Background(), "")
		if err != nil {
			t.Fatal(err)
		}
		list, err := cli.ContainerList(context.Background(), container.ListOptions{
			Filters: filters.NewArgs(filters.Arg("label", engine.Label), filters.Arg("status", "running")),
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range list {
			if !slices.Contains(own.Containers, c.ID) {
				continue
			}
			for _, name := range c.Names {
				if strings.HasSuffix(name, "-"+role) {
					return c.ID
				}
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no running %s container", role)
	return ""
}

// assertNoLeftovers checks that nothing of the bundle's runs is left on the engine.
// (Scoped to those runs: other tests may be using the engine at the same time.)
func assertNoLeftovers(t *testing.T, eng *engine.Engine, dir string) {
	t.Helper()
	b, err := fifostalltest.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range b.Runs {
		left, err := eng.FindOwn(context.Background(), r.Run.RunID)
		if err != nil || !left.Empty() {
			t.Fatalf("run %s left on the engine: %+v, %v", r.Run.RunID, left, err)
		}
	}
}

// failedRun loads the bundle and returns its only run, which must be marked failed.
func failedRun(t *testing.T, dir string) fifostall.RunRow {
	t.Helper()
	b, err := fifostalltest.Load(dir)
	if err != nil {
		t.Fatalf("the bundle of a failed run must stay intact: %v", err)
	}
	if len(b.Runs) != 1 || b.Runs[0].Run.Verified || b.Manifest.RunsVerified != 0 {
		t.Fatalf("want one failed run, have %+v", b.Manifest)
	}
	if c := b.Conditions; len(c) != 1 || c[0].RunsVerified != 0 || c[0].Requests != 0 {
		t.Fatalf("a failed run was pooled as data: %+v", c)
	}
	return b.Runs[0].Run
}

func TestFaultAKilledContainerFailsTheRun(t *testing.T) {
	cli := enginetest.Docker(t)
	eng := enginetest.Require(t)
	for _, role := range []string{"api", "reader", "loadgen"} {
		t.Run(role, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "bundle")
			done := startApp(t, "run", "--mode", "json-sync", "--reader", "fast", "--duration", "4s", "--client-topology", "split", "--out", dir)
			id := runningContainer(t, cli, eng, role)
			time.Sleep(2 * time.Second) // into the measured load
			if err := cli.ContainerKill(context.Background(), id, "KILL"); err != nil {
				t.Fatal(err)
			}
			res := <-done
			if res.err == nil || !strings.HasPrefix(res.err.Error(), "run failed:") {
				t.Fatalf("err = %v\n%s", res.err, res.out)
			}
			run := failedRun(t, dir)
			if want := role + " container exited with code 137"; !strings.Contains(run.Failure, want) {
				t.Fatalf("failure %q does not say %q", run.Failure, want)
			}
			assertNoLeftovers(t, eng, dir)
		})
	}
}

func TestFaultOOMKillIsNamed(t *testing.T) {
	eng := enginetest.Require(t)
	dir := filepath.Join(t.TempDir(), "bundle")
	// 200 records of 16 KiB a second pile up in the queue; 6 MiB (the engine's least) cannot hold them.
	out, err := runApp(t, "run", "--mode", "json-queue", "--reader", "slow", "--rate", "200", "--duration", "3s", "--api-memory", "6MiB", "--out", dir)
	if err == nil {
		t.Fatalf("the run did not fail:\n%s", out)
	}
	run := failedRun(t, dir)
	b, _ := fifostalltest.Load(dir)
	if b.Manifest.Engine.Kind == "podman" {
		// Podman 4.3 on cgroup v1 does not report the OOM kill (State.OOMKilled stays
		// false): the run fails all the same, on the API's exit by SIGKILL.
		if !strings.Contains(run.Failure, "api container exited with code 137") {
			t.Fatalf("failure %q does not name the API's kill", run.Failure)
		}
		assertNoLeftovers(t, eng, dir)
		return
	}
	if !strings.Contains(run.Failure, "api container killed for exceeding its memory limit (OOM)") {
		t.Fatalf("failure %q does not name the OOM kill", run.Failure)
	}
	for _, c := range b.Runs[0].Containers {
		if c.Role == "api" && !c.OOMKilled {
			t.Errorf("containers.csv does not flag the OOM kill: %+v", c)
		}
	}
	assertNoLeftovers(t, eng, dir)
}

func TestFaultALogNeverDrainedHitsTheRunTimeCap(t *testing.T) {
	cli := enginetest.Docker(t)
	eng := enginetest.Require(t)
	dir := filepath.Join(t.TempDir(), "bundle")
	done := startApp(t, "run", "--mode", "json-queue", "--reader", "slow", "--duration", "2s", "--max-run-time", "8s", "--client-topology", "split", "--out", dir)
	id := runningContainer(t, cli, eng, "reader")
	time.Sleep(1500 * time.Millisecond)
	if err := cli.ContainerPause(context.Background(), id); err != nil { // the reader stops reading
		t.Fatal(err)
	}
	res := <-done
	if res.err == nil {
		t.Fatalf("the run did not fail:\n%s", res.out)
	}
	run := failedRun(t, dir)
	if run.StopCondition != "run time cap of 8s reached" {
		t.Fatalf("stop condition %q, failure %q", run.StopCondition, run.Failure)
	}
	assertNoLeftovers(t, eng, dir)
}
