package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docker/docker/client"

	"github.com/logbench/logbench/internal/enginetest"
	"github.com/logbench/logbench/kit/host/images"
	"github.com/logbench/logbench/kit/host/lab"
)

// Bad input about engines and platforms: one line, exit 2, nothing started.
func TestBadInputEnginesAndPlatforms(t *testing.T) {
	emptyConfig := t.TempDir() // a docker CLI config folder with no contexts
	tarFile := filepath.Join(t.TempDir(), "images.tar")
	if err := os.WriteFile(tarFile, []byte("not a tar"), 0o644); err != nil {
		t.Fatal(err)
	}
	noConfig := []string{"DOCKER_CONFIG=" + emptyConfig, "DOCKER_HOST=", "DOCKER_CONTEXT="}
	for _, tc := range []struct {
		name string
		env  []string
		args []string
		want []string
	}{
		{"--context of no context", noConfig, []string{"run", "--context", "nope"}, []string{`"nope"`, "--context", "docker context ls"}},
		{"DOCKER_CONTEXT of no context", append(noConfig, "DOCKER_CONTEXT=nope"), []string{"reproduce"}, []string{`"nope"`, "DOCKER_CONTEXT"}},
		{"calibrate", noConfig, []string{"calibrate", "--context", "nope"}, []string{`"nope"`}},
		{"build", noConfig, []string{"build", "--context", "nope"}, []string{`"nope"`}},
		{"clean", noConfig, []string{"clean", "--context", "nope"}, []string{`"nope"`}},
		{"load", noConfig, []string{"load", "--context", "nope", tarFile}, []string{`"nope"`}},
		{"--engine of no context", noConfig, []string{"reproduce", "--engine", "nope"}, []string{"--engine nope", `"nope"`}},
		{"--engine of no engine protocol", noConfig, []string{"reproduce", "--engine", "gopher://x"}, []string{"--engine gopher://x"}},
		{"--engine with --context", noConfig, []string{"reproduce", "--context", "default", "--engine", "default"}, []string{"--context and --engine"}},
		{"--registry without a cluster", noConfig, []string{"reproduce", "--engine", "default", "--registry", "127.0.0.1:5000/lab"}, []string{"--registry is for --engine k8s:CONTEXT"}},
		{"--registry of no registry", noConfig, []string{"reproduce", "--engine", "k8s:nope", "--registry", "http://127.0.0.1:5000/lab"}, []string{"--registry", "want HOST[:PORT]/PATH"}},
		{"--mirror of no URL", noConfig, []string{"run", "--mirror", "ftp:/nowhere"}, []string{"--mirror"}},
		{"--snapshot of no date", noConfig, []string{"build", "--snapshot", "yesterday"}, []string{"--snapshot"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "bundle")
			args := tc.args
			if args[0] == "run" || args[0] == "reproduce" {
				args = append(args, "--out", dir)
			}
			stdout, stderr, code := runMain(t, tc.env, args...)
			assertRefused(t, stdout, stderr, code, tc.want...)
			assertNoFolder(t, dir)
		})
	}
}

// An engine among several that does not answer stops reproduce before anything starts;
// --emulated on the engine's own platform is refused.
func TestBadInputUnreachableEngineAmongSeveralAndNeedlessEmulation(t *testing.T) {
	facts, err := enginetest.Require(t).Facts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	socket := filepath.Join(t.TempDir(), "no-engine.sock")
	dir := filepath.Join(t.TempDir(), "bundles")
	stdout, stderr, code := runMain(t, nil, "reproduce", "--engine", "default", "--engine", "unix://"+socket, "--out", dir)
	assertRefused(t, stdout, stderr, code, "--engine unix://"+socket, "cannot reach the Docker Engine")
	assertNoFolder(t, dir)

	stdout, stderr, code = runMain(t, nil, "run", "--platform", facts.Platform, "--emulated", "--out", dir)
	assertRefused(t, stdout, stderr, code, "--emulated", "natively")
	assertNoFolder(t, dir)
}

// secondEngine starts a second Docker daemon on this machine, with its own config,
// data, state and socket and no network of its own, and stops it (by its own PID) when
// the test ends. It returns the socket's address.
func secondEngine(t *testing.T) string {
	t.Helper()
	enginetest.Require(t)
	dockerd, err := exec.LookPath("dockerd")
	if err != nil {
		failOrSkip(t, "a second engine needs dockerd on PATH")
	}
	if os.Geteuid() != 0 {
		failOrSkip(t, "a second engine needs root to start dockerd")
	}
	// Short paths: a unix socket's path has a length limit.
	dir, err := os.MkdirTemp("", "lb-d2-")
	if err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "daemon.json")
	if err := os.WriteFile(config, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	socket := filepath.Join(dir, "docker.sock")
	logFile, err := os.Create(filepath.Join(dir, "dockerd.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(dockerd, "--config-file", config, "--data-root", filepath.Join(dir, "data"),
		"--exec-root", filepath.Join(dir, "exec"), "--pidfile", filepath.Join(dir, "dockerd.pid"),
		"-H", "unix://"+socket, "--bridge", "none", "--iptables=false")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(keepDefaultBridge(t))
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		logFile.Close()
		os.RemoveAll(dir)
	})
	host := "unix://" + socket
	cli, err := client.NewClientWithOpts(client.WithHost(host), client.WithAPIVersionNegotiation())
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	for deadline := time.Now().Add(30 * time.Second); ; {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, err := cli.Ping(ctx)
		cancel()
		if err == nil {
			return host
		}
		select {
		case err := <-done:
			log, _ := os.ReadFile(logFile.Name())
			t.Fatalf("the second dockerd exited: %v\n%s", err, log)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the second dockerd does not answer at %s: %v", host, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// failOrSkip skips a test that cannot run here, and fails it under CI.
func failOrSkip(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatal(why)
	}
	t.Skip(why)
}

// One command runs the same short matrix on this machine's engine and on a second,
// fresh one (which has no images: the kit builds them there, FROM scratch), and writes
// a bundle for each and their comparison. Then images saved from the first engine load
// into the second.
func TestTwoEnginesInOneCommand(t *testing.T) {
	second := secondEngine(t)
	root := filepath.Join(t.TempDir(), "engines")
	out, err := runApp(t, "reproduce", "--engine", "default", "--engine", second,
		"--modes", "none", "--readers", "fast", "--reps", "1", "--duration", "1s", "--api", "go", "--calibrate=false", "--retries", "0", "--out", root)
	if err != nil {
		t.Fatalf("reproduce on two engines: %v\n%s", err, out)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		}
	}
	if len(dirs) != 2 {
		t.Fatalf("want a bundle per engine, have %v", dirs)
	}
	endpoints := map[string]bool{}
	for _, dir := range dirs {
		_, res, err := loadVerified(dir)
		if err != nil {
			t.Fatal(err)
		}
		m := res.Common
		if !m.Complete || m.RunsVerified != 1 {
			t.Errorf("%s: complete %t, %d runs verified, want complete with 1", dir, m.Complete, m.RunsVerified)
		}
		endpoints[m.EngineEndpoint] = true
	}
	if !endpoints[second] || len(endpoints) != 2 {
		t.Errorf("the manifests name the engines %v, want this machine's and %s", endpoints, second)
	}
	cmp, err := os.ReadFile(filepath.Join(root, lab.ComparisonFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		if label := filepath.Base(dir); !strings.Contains(string(cmp), label) {
			t.Errorf("the comparison does not name %s:\n%s", label, cmp)
		}
	}
	if !strings.Contains(out, string(cmp)) {
		t.Error("the comparison was not written to the output as well")
	}

	t.Run("save and load", func(t *testing.T) {
		tarFile := filepath.Join(t.TempDir(), "images.tar")
		if out, err := runApp(t, "build", "--platform", "linux/arm64", "--save", tarFile); err != nil {
			t.Fatalf("build --save: %v\n%s", err, out)
		}
		t.Setenv("DOCKER_HOST", second)
		out, err := runApp(t, "load", tarFile)
		if err != nil {
			t.Fatalf("load: %v\n%s", err, out)
		}
		cli, err := client.NewClientWithOpts(client.WithHost(second), client.WithAPIVersionNegotiation())
		if err != nil {
			t.Fatal(err)
		}
		defer cli.Close()
		for _, role := range images.Roles {
			ins, err := cli.ImageInspect(context.Background(), images.PlatformTag(role, "linux/arm64"))
			if err != nil {
				t.Fatalf("after load: %v\n%s", err, out)
			}
			if ins.Architecture != "arm64" {
				t.Errorf("%s is %s, want arm64", images.PlatformTag(role, "linux/arm64"), ins.Architecture)
			}
			// The second engine is amd64: the arm64 images must not take its :local names.
			if ins, err := cli.ImageInspect(context.Background(), images.LocalTag(role)); err == nil && ins.Architecture != "amd64" {
				t.Errorf("%s is %s after loading arm64 images on an amd64 engine", images.LocalTag(role), ins.Architecture)
			}
		}
	})
}

// keepDefaultBridge notes the host's docker0 and returns what puts it back: a dockerd
// started with --bridge none deletes the default bridge of the host it shares a network
// namespace with, which the first engine needs for any container on its default
// network (a build step, unless it asks for none). The first engine does not make it
// again until it restarts, so the test does, as it was.
func keepDefaultBridge(t *testing.T) func() {
	t.Helper()
	before, err := exec.Command("ip", "-o", "-4", "addr", "show", "dev", "docker0").Output()
	if err != nil || len(before) == 0 {
		return func() {} // no bridge to keep (or no ip command)
	}
	fields := strings.Fields(string(before)) // "3: docker0 inet 172.17.0.1/16 brd ..."
	addr := ""
	for i, f := range fields {
		if f == "inet" && i+1 < len(fields) {
			addr = fields[i+1]
		}
	}
	mtu := "1500"
	if link, err := exec.Command("ip", "-o", "link", "show", "dev", "docker0").Output(); err == nil {
		if f := strings.Fields(string(link)); slices.Contains(f, "mtu") {
			mtu = f[slices.Index(f, "mtu")+1]
		}
	}
	return func() {
		if exec.Command("ip", "link", "show", "dev", "docker0").Run() == nil {
			return
		}
		for _, args := range [][]string{{"link", "add", "docker0", "type", "bridge"}, {"addr", "add", addr, "dev", "docker0"},
			{"link", "set", "docker0", "mtu", mtu}, {"link", "set", "docker0", "up"}} {
			if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
				t.Errorf("putting the host's docker0 back (ip %s): %v: %s", strings.Join(args, " "), err, out)
				return
			}
		}
	}
}
