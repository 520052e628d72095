package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/internal/enginetest"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// The other platform than the engine's, run end to end under qemu's binfmt handler
// (Debian's qemu-user-static registers it with the F flag, so containers use it): one
// short run of each API, verified byte for byte, and marked as emulated.
func TestEmulatedRunOfEachAPI(t *testing.T) {
	facts, err := enginetest.Require(t).Facts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	foreign, handler := "linux/arm64", "qemu-aarch64"
	if facts.Platform == foreign {
		foreign, handler = "linux/amd64", "qemu-x86_64"
	}
	if b, err := os.ReadFile("/proc/sys/fs/binfmt_misc/" + handler); err != nil || !strings.HasPrefix(string(b), "enabled") {
		failOrSkip(t, "no "+handler+" binfmt handler: apt-get install qemu-user-static")
	}
	for _, tc := range []struct{ api, reader string }{{"go", "fast"}, {"python", "slow"}} {
		t.Run(tc.api, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "bundle")
			started := time.Now()
			out, err := runApp(t, "run", "--platform", foreign, "--emulated", "--api", tc.api, "--mode", "json-sync",
				"--reader", tc.reader, "--duration", "1s", "--out", dir)
			if err != nil {
				t.Fatalf("emulated run: %v\n%s", err, out)
			}
			t.Logf("emulated %s run on %s: %.1f s, image builds included", tc.api, foreign, time.Since(started).Seconds())
			for _, want := range []string{"sha-256       match", "verified      yes", "EMULATED: " + foreign} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			_, res, err := loadVerified(dir)
			if err != nil {
				t.Fatal(err)
			}
			m := res.Common
			if !m.Emulated || m.Platform != foreign || m.Engine.Platform != facts.Platform {
				t.Errorf("manifest: emulated %t, platform %s on a %s engine; want emulated %s on %s", m.Emulated, m.Platform, m.Engine.Platform, foreign, facts.Platform)
			}
			for _, img := range m.Images {
				if "linux/"+img.Architecture != foreign {
					t.Errorf("image %s is %s, want %s", img.Role, img.Architecture, foreign)
				}
			}
			assertRefusedAgainstNative(t, dir)
		})
	}
}

// assertRefusedAgainstNative checks that compare will not set an emulated bundle
// against the published (native) figures without --allow-emulated, and will with it.
func assertRefusedAgainstNative(t *testing.T, dir string) {
	t.Helper()
	_, err := runApp(t, "compare", "--published", dir)
	if _, ok := err.(usageError); !ok || !strings.Contains(err.Error(), "emulated") {
		t.Errorf("compare of an emulated bundle with the published figures: %v, want a refusal naming emulation", err)
	}
	if out, err := runApp(t, "compare", "--published", "--allow-emulated", dir); err != nil || !strings.Contains(out, "EMULATED") {
		t.Errorf("compare --allow-emulated: %v\n%s", err, out)
	}
}

// A logbench binary built with `go build` works from an empty folder: it finds the
// module it was built from, compiles the in-container programs from it, builds the
// images and performs a run whose bundle lands in that folder.
func TestLogbenchWorksFromAnyFolder(t *testing.T) {
	enginetest.Require(t)
	bin := filepath.Join(t.TempDir(), "logbench")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	empty := t.TempDir()
	for _, args := range [][]string{
		{"build"},
		{"run", "--api", "go", "--mode", "none", "--reader", "fast", "--duration", "1s"},
	} {
		cmd := exec.Command(bin, args...)
		cmd.Dir = empty
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("logbench %s from an empty folder: %v\n%s", strings.Join(args, " "), err, out)
		}
		if args[0] == "run" && !strings.Contains(string(out), "verified      yes") {
			t.Errorf("the run did not verify:\n%s", out)
		}
	}
	bundles, _ := filepath.Glob(filepath.Join(empty, "results", "*", bundle.ManifestFile))
	if len(bundles) != 1 {
		t.Errorf("want the run's bundle under %s/results, have %v", empty, bundles)
	}
}
