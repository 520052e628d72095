package main

import (
	"context"
	"fmt"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/volume"
	"github.com/docker/docker/client"

	"github.com/logbench/logbench/internal/enginetest"
	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/host/engine"
)

// What a crashed invocation leaves is the kit's, and clean removes it; a container that
// only looks like the kit's, its labels copied from the kit's own, is not, and clean
// leaves it, running or stopped, with --force too. The kit is killed (SIGKILL: no
// cleanup) while its pod runs, so the leftovers are made by the kit itself.
func TestCleanRemovesWhatACrashedKitLeftAndNoLookalike(t *testing.T) {
	cli := enginetest.Docker(t)
	bin := buildKit(t)
	// This test's own key, shared by the kit it starts and the clean it runs, so that no
	// other run on this engine is the kit's to this test. The go command keeps its own
	// configuration where it was (the kit compiles the in-container programs).
	goenv, err := exec.Command("go", "env", "GOENV").Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOENV", strings.TrimSpace(string(goenv)))
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	eng := enginetest.Require(t) // under this test's key: its kit's containers are its own
	ctx := context.Background()
	before := map[string]bool{}
	if list, err := cli.ContainerList(ctx, container.ListOptions{All: true, Filters: filters.NewArgs(filters.Arg("label", engine.Label))}); err == nil {
		for _, c := range list {
			before[c.Labels[engine.Label]] = true
		}
	} else {
		t.Fatal(err)
	}

	// A run of five minutes' load, killed once its conductor runs (the deadline only
	// guards against a kit that never gets there: the first run may build images).
	kit := exec.Command(bin, "run", "--mode", "none", "--reader", "fast", "--duration", "5m", "--max-run-time", "6m", "--api", "go",
		"--speed-probe=false", "--out", filepath.Join(t.TempDir(), "bundle"))
	out, _, ended := watchProgress(t, kit, func([]string) bool { return false })
	runID, api := "", container.Summary{}
	for deadline := time.Now().Add(10 * time.Minute); runID == "" && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		select {
		case <-ended:
			kit.Wait()
			t.Fatalf("the kit ended before its pod ran:\n%s", out())
		default:
		}
		list, err := cli.ContainerList(ctx, container.ListOptions{Filters: filters.NewArgs(filters.Arg("label", engine.Label), filters.Arg("status", "running"))})
		if err != nil {
			t.Fatal(err)
		}
		own, err := eng.FindOwn(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		roles := map[string]container.Summary{}
		for _, c := range list {
			if id := c.Labels[engine.Label]; !before[id] && len(c.Names) > 0 && slices.Contains(own.Containers, c.ID) {
				roles[strings.TrimPrefix(c.Names[0], "/logbench-"+id+"-")] = c
			}
		}
		if conductor, ok := roles["loadgen"]; ok && roles["api"].ID != "" {
			runID, api = conductor.Labels[engine.Label], roles["api"]
		}
	}
	kit.Process.Kill()
	kit.Wait()
	if runID == "" {
		t.Fatalf("the kit's pod never ran:\n%s", out())
	}
	pod := "logbench-" + runID
	t.Cleanup(func() { removeByName(cli, pod+"-", pod) })

	// Lookalikes: the kit's labels, mark and all, copied onto containers and a volume of
	// someone else's, one container running the kit's own api image.
	stamp := time.Now().UnixNano()
	prod, stopped, data := fmt.Sprintf("postgres-prod-%d", stamp), fmt.Sprintf("copycat-%d", stamp), fmt.Sprintf("pgdata-%d", stamp)
	t.Cleanup(func() { removeByName(cli, "", prod, stopped, data) })
	copied := maps.Clone(api.Labels)
	if _, err := cli.VolumeCreate(ctx, volume.CreateOptions{Name: data, Labels: copied}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{prod, stopped} {
		created, err := cli.ContainerCreate(ctx, &container.Config{Image: api.ImageID, Entrypoint: []string{"/api"}, Cmd: []string{"-access-log", "none"}, Labels: copied},
			// The engine's own default open-file and process limits may be above the host's hard ones
			// (Podman's are, here): set them as the kit sets its own containers'.
			&container.HostConfig{NetworkMode: "none", ReadonlyRootfs: true, CapDrop: []string{"ALL"}, SecurityOpt: []string{"no-new-privileges"},
				Resources: container.Resources{Ulimits: []*container.Ulimit{{Name: "nofile", Soft: contract.DefaultNoFile, Hard: contract.DefaultNoFile},
					{Name: "nproc", Soft: contract.DefaultNProc, Hard: contract.DefaultNProc}}}}, nil, nil, name)
		if err != nil {
			t.Fatal(err)
		}
		if name == prod {
			if err := cli.ContainerStart(ctx, created.ID, container.StartOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	lookalikesStay := func(after string) {
		t.Helper()
		if ins, err := cli.ContainerInspect(ctx, prod); err != nil || !ins.State.Running {
			t.Errorf("after %s, %s is gone or stopped (%v)", after, prod, err)
		}
		if _, err := cli.ContainerInspect(ctx, stopped); err != nil {
			t.Errorf("after %s, %s is gone: %v", after, stopped, err)
		}
		if _, err := cli.VolumeInspect(ctx, data); err != nil {
			t.Errorf("after %s, %s is gone: %v", after, data, err)
		}
	}

	said, err := runApp(t, "clean")
	if err != nil {
		t.Fatalf("clean: %v\n%s", err, said)
	}
	for _, want := range []string{
		"(" + prod + "): not made by this kit on this host: its io.logbench.mark does not match",
		"(" + stopped + "): not made by this kit on this host: its io.logbench.mark does not match",
		"left volume " + data + ": not made by this kit on this host",
		"(" + pod + "-loadgen): running: clean --force",
		"left volume " + pod + ": in use",
	} {
		if !strings.Contains(said, want) {
			t.Errorf("clean does not say %q:\n%s", want, said)
		}
	}
	lookalikesStay("clean")

	said, err = runApp(t, "clean", "--force")
	if err != nil {
		t.Fatalf("clean --force: %v\n%s", err, said)
	}
	for _, want := range []string{"(" + pod + "-loadgen)\n", "(" + pod + "-api)\n", "removed volume " + pod + "\n", "left container"} {
		if !strings.Contains(said, want) {
			t.Errorf("clean --force does not say %q:\n%s", want, said)
		}
	}
	lookalikesStay("clean --force")
	list, err := cli.ContainerList(ctx, container.ListOptions{All: true, Filters: filters.NewArgs(filters.Arg("name", pod+"-"))})
	if err != nil || len(list) > 0 {
		t.Errorf("the kit's pod is still there after clean --force: %d containers (%v)", len(list), err)
	}
}

// removeByName force-removes containers whose name begins with prefix (when not
// empty) and the containers and volumes named.
func removeByName(cli *client.Client, prefix string, names ...string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if prefix != "" {
		list, _ := cli.ContainerList(ctx, container.ListOptions{All: true, Filters: filters.NewArgs(filters.Arg("name", prefix))})
		for _, c := range list {
			cli.ContainerRemove(ctx, c.ID, container.RemoveOptions{Force: true})
		}
	}
	for _, n := range names {
		if cli.ContainerRemove(ctx, n, container.RemoveOptions{Force: true}) != nil {
			cli.VolumeRemove(ctx, n, true)
		}
	}
}
