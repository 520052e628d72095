package bases_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/pkg/stdcopy"

	"github.com/logbench/logbench/internal/enginetest"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/host/bases"
	"github.com/logbench/logbench/kit/host/debian"
	"github.com/logbench/logbench/kit/host/engine"
)

// nobody is the user the root file system is built as when the test runs as root.
const nobody = 65534

// helperEnv switches TestHelperBuildsRootfs on in the subprocess.
const helperEnv = "LOGBENCH_BASES_HELPER"

// TestPythonBaseBuildsWithoutRootOrDebootstrap builds the Python base's root file
// system for the engine's platform and for linux/arm64 in a subprocess that is not
// root (uid 65534 when the test runs as root) and has an empty PATH, so neither
// debootstrap nor any other program can be found; then imports both and runs
// python3 --version in the native one. A second build of the native one, from the
// cache, must give the same rootfs digest.
func TestPythonBaseBuildsWithoutRootOrDebootstrap(t *testing.T) {
	eng := enginetest.Require(t)
	docker := enginetest.Docker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	facts, err := eng.Facts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cache := nobodyCache(t)
	platforms := []string{facts.Platform}
	if facts.Platform != "linux/arm64" {
		platforms = append(platforms, "linux/arm64")
	}
	base := bases.Python
	base.Repository = "logbench/python-base-test"
	for _, platform := range platforms {
		arch, err := debian.ArchOf(platform)
		if err != nil {
			t.Fatal(err)
		}
		started := time.Now()
		rootfs, res := buildAsNobody(t, arch, cache)
		t.Logf("%s: rootfs of %d packages, %d entries, %.1f MB, sha256 %s, built as a non-root user in %s",
			platform, len(res.Packages), res.Files, float64(res.RootfsBytes)/1e6, res.RootfsSHA256, time.Since(started).Round(time.Millisecond))
		if sum := sha256.Sum256(rootfs); hex.EncodeToString(sum[:]) != res.RootfsSHA256 {
			t.Fatalf("the result's digest is not the stream's")
		}
		started = time.Now()
		built, err := base.Import(ctx, eng, platform, bytes.NewReader(rootfs), res)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { docker.ImageRemove(context.Background(), built.Tag, image.RemoveOptions{PruneChildren: true}) })
		t.Logf("%s: imported %s %s (%s, %.1f MB) in %s; Python %s", platform, built.Tag, built.ID[:19], built.Architecture,
			float64(built.SizeBytes)/1e6, time.Since(started).Round(time.Millisecond), built.Versions[bases.PythonVersionLabel])
		if "linux/"+built.Architecture != platform || !strings.HasPrefix(built.Versions[bases.PythonVersionLabel], "3.11") {
			t.Fatalf("built %+v", built)
		}
		labels, err := eng.ImageLabels(ctx, built.Tag)
		if err != nil || labels[bases.RootfsSHA256Label] != res.RootfsSHA256 {
			t.Fatalf("labels %v, %v", labels, err)
		}
		if platform != facts.Platform {
			continue
		}
		if out := run(t, ctx, built.Tag, "python3", "--version"); !strings.HasPrefix(out, "Python 3.11") {
			t.Fatalf("python3 --version: %q", out)
		} else {
			t.Logf("python3 --version in the base: %s", strings.TrimSpace(out))
		}
		// The layer the engine stored is the stream as built: its diff ID is the digest.
		ins, err := docker.ImageInspect(ctx, built.Tag)
		if err != nil || len(ins.RootFS.Layers) != 1 || ins.RootFS.Layers[0] != "sha256:"+res.RootfsSHA256 {
			t.Errorf("layers %v, %v; want sha256:%s", ins.RootFS.Layers, err, res.RootfsSHA256)
		}
		started = time.Now()
		again, err := debian.Options{Arch: arch, CacheDir: cache, KnownRelease: bases.KnownRelease}.Build(ctx, base.Spec, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: rebuilt from the cache in %s, sha256 %s", platform, time.Since(started).Round(time.Millisecond), again.RootfsSHA256)
		if again.RootfsSHA256 != res.RootfsSHA256 && again.InReleaseSHA256 == res.InReleaseSHA256 {
			t.Errorf("two builds from one Release differ: %s, %s", res.RootfsSHA256, again.RootfsSHA256)
		}
	}
}

// TestHelperBuildsRootfs is the subprocess of the test above; it does nothing in a
// normal run.
func TestHelperBuildsRootfs(t *testing.T) {
	if os.Getenv(helperEnv) == "" {
		t.Skip("the subprocess of TestPythonBaseBuildsWithoutRootOrDebootstrap")
	}
	if os.Geteuid() == 0 {
		t.Fatal("the builder runs as root")
	}
	if p, err := exec.LookPath("debootstrap"); err == nil {
		t.Fatalf("debootstrap is reachable: %s", p)
	}
	out := os.Getenv("OUT")
	f, err := os.Create(filepath.Join(out, "rootfs.tar"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := debian.Options{Arch: os.Getenv("ARCH"), CacheDir: os.Getenv("CACHE"), KnownRelease: bases.KnownRelease}.Build(context.Background(), bases.Python.Spec, f)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	if err := os.WriteFile(filepath.Join(out, "result.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// buildAsNobody runs TestHelperBuildsRootfs in a subprocess without root and PATH.
func buildAsNobody(t *testing.T, arch, cache string) ([]byte, debian.Result) {
	t.Helper()
	bin, out := shareable(t)
	cmd := exec.Command(bin, "-test.run=^TestHelperBuildsRootfs$", "-test.count=1")
	cmd.Env = []string{helperEnv + "=1", "PATH=/nonexistent", "HOME=" + out, "OUT=" + out, "ARCH=" + arch, "CACHE=" + cache}
	if os.Geteuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	}
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("builder subprocess: %v\n%s", err, b)
	}
	var res debian.Result
	b, err := os.ReadFile(filepath.Join(out, "result.json"))
	if err == nil {
		err = json.Unmarshal(b, &res)
	}
	if err != nil {
		t.Fatal(err)
	}
	rootfs, err := os.ReadFile(filepath.Join(out, "rootfs.tar"))
	if err != nil {
		t.Fatal(err)
	}
	return rootfs, res
}

// shareable copies the test binary where the unprivileged user can run it (the go
// command's build folder is private) and makes it an output folder it can write.
func shareable(t *testing.T) (bin, out string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "logbench-bases-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	must(t, os.Chmod(dir, 0o755))
	self, err := os.ReadFile(os.Args[0])
	must(t, err)
	bin = filepath.Join(dir, "bases.test")
	must(t, os.WriteFile(bin, self, 0o755))
	out = filepath.Join(dir, "out")
	must(t, os.Mkdir(out, 0o755))
	if os.Geteuid() == 0 {
		must(t, os.Chown(out, nobody, nobody))
	}
	return bin, out
}

// nobodyCache is a download cache the unprivileged user owns, kept across runs so that
// only the first run downloads. Being in a shared temporary folder is safe: every
// cached file is checked by its SHA-256 from the signed index when read.
func nobodyCache(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		dir, err := os.UserCacheDir()
		must(t, err)
		return filepath.Join(dir, "logbench", "debian")
	}
	dir := filepath.Join(os.TempDir(), "logbench-debian-cache-65534")
	if err := os.Mkdir(dir, 0o700); err != nil && !os.IsExist(err) {
		t.Fatal(err)
	}
	must(t, os.Chown(dir, nobody, nobody))
	info, err := os.Lstat(dir)
	must(t, err)
	if st, ok := info.Sys().(*syscall.Stat_t); !info.IsDir() || !ok || st.Uid != nobody {
		t.Fatalf("%s is not a folder of uid %d", dir, nobody)
	}
	return dir
}

// run runs cmd in a container of ref and returns its output.
func run(t *testing.T, ctx context.Context, ref string, cmd ...string) string {
	t.Helper()
	docker := enginetest.Docker(t)
	// The kit's process limits, as on every container it makes: an engine's defaults may
	// exceed the host's hard limits (Podman's do here).
	c, err := docker.ContainerCreate(ctx, &container.Config{Image: ref, Cmd: cmd},
		&container.HostConfig{NetworkMode: "none", Resources: container.Resources{Ulimits: engine.Ulimits(experiment.PodSpec{})}}, nil, nil, "")
	must(t, err)
	defer docker.ContainerRemove(context.Background(), c.ID, container.RemoveOptions{Force: true})
	wait, errs := docker.ContainerWait(ctx, c.ID, container.WaitConditionNextExit)
	must(t, docker.ContainerStart(ctx, c.ID, container.StartOptions{}))
	select {
	case w := <-wait:
		if w.StatusCode != 0 {
			t.Errorf("%v exited %d", cmd, w.StatusCode)
		}
	case err := <-errs:
		t.Fatal(err)
	}
	logs, err := docker.ContainerLogs(ctx, c.ID, container.LogsOptions{ShowStdout: true, ShowStderr: true})
	must(t, err)
	defer logs.Close()
	var stdout, stderr bytes.Buffer
	stdcopy.StdCopy(&stdout, &stderr, logs)
	return stdout.String() + stderr.String()
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
