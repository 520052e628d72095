// Package images turns the in-container programs into images: it cross-compiles each
// static Go binary for the target platform and builds its image from images/<role>
// through the engine, reusing an image whose inputs have not changed.
package images

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/host/engine"
)

// Roles are the in-container Go programs, each with cmd/incontainer/<role> and
// images/<role>: the fifo-stall experiment's three, and the qps experiment's
// closed-loop load generator.
var Roles = []string{"api", "reader", "loadgen", "qpsload"}

// Extras are programs a role's image holds beside its own, each from
// cmd/incontainer/<name> and at /<name>: the API image also holds the line-cost
// measurement, run in its place so that it is measured in the same image and limits,
// and the speed probe, run before and after every run with the API's limits. Every
// image that conducts a run holds files, which hands the run's folder back on
// Kubernetes (kit/host/kube), where no engine copies a file out of a container.
var Extras = map[string][]string{"api": {"linecost", "probe", "files"}, "loadgen": {"files"}, "qpsload": {"files"}}

// LocalTag is the stable name of a role's most recently built image for the engine's
// own platform: the name compose/ runs.
func LocalTag(role string) string { return "logbench/" + role + ":local" }

// PlatformTag is the stable name of a role's most recently built image for platform
// ("logbench/api:local-arm64"). Every build sets it; only a build for the engine's own
// platform also moves LocalTag, so building another platform never replaces the
// images compose/ runs.
func PlatformTag(role, platform string) string {
	_, arch, _ := strings.Cut(platform, "/")
	return LocalTag(role) + "-" + arch
}

// Built is one image ready to run.
type Built struct {
	Role string `json:"role"`
	engine.Image
	Platform     string `json:"platform"`
	BinarySHA256 string `json:"binary_sha256"`
	Reused       bool   `json:"reused"` // an unchanged image was already on the engine
}

// Builder builds the kit's images.
type Builder struct {
	Engine *engine.Engine
	// SourceDir is the root of the kit's module (holding go.mod, cmd/ and images/).
	SourceDir string
	// Env is the environment of the go command (the toolchain needs HOME, GOPATH, ...).
	Env      []string
	Progress io.Writer
}

// Build makes sure every role's image exists for platform ("linux/amd64") and
// returns them by role.
func (b *Builder) Build(ctx context.Context, platform string) (map[string]Built, error) {
	goos, goarch, ok := strings.Cut(platform, "/")
	if !ok || goos != "linux" {
		return nil, fmt.Errorf("platform %q: want linux/<arch>", platform)
	}
	tmp, err := os.MkdirTemp("", "logbench-build-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if err := b.compile(ctx, goarch, tmp); err != nil {
		return nil, err
	}
	facts, err := b.Engine.Facts(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]Built{}
	for _, role := range Roles {
		img, err := b.image(ctx, role, platform, filepath.Join(tmp, role))
		if err != nil {
			return nil, err
		}
		// Stable names for running by hand (compose/), always the latest build.
		tags := []string{PlatformTag(role, platform)}
		if platform == facts.Platform {
			tags = append(tags, LocalTag(role))
		}
		for _, tag := range tags {
			if err := b.Engine.Tag(ctx, img.ID, tag); err != nil {
				return nil, err
			}
		}
		out[role] = img
	}
	return out, nil
}

// compile builds every role's binary into dir with one go command, which compiles
// them in parallel and from its cache when nothing changed.
func (b *Builder) compile(ctx context.Context, goarch, dir string) error {
	fmt.Fprintf(b.Progress, "compiling %s for linux/%s\n", strings.Join(Roles, ", "), goarch)
	args := []string{"build", "-trimpath", "-ldflags=-s -w -buildid=", "-o", dir + string(filepath.Separator)}
	seen := map[string]bool{}
	for _, role := range Roles {
		for _, prog := range append([]string{role}, Extras[role]...) {
			if !seen[prog] {
				seen[prog] = true
				args = append(args, "./cmd/incontainer/"+prog)
			}
		}
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = b.SourceDir
	cmd.Env = append(append([]string(nil), b.Env...), "GOOS=linux", "GOARCH="+goarch, "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("compiling: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

func (b *Builder) image(ctx context.Context, role, platform, binPath string) (Built, error) {
	bin, err := os.ReadFile(binPath)
	if err != nil {
		return Built{}, err
	}
	dockerfile, err := os.ReadFile(filepath.Join(b.SourceDir, "images", role, "Dockerfile"))
	if err != nil {
		return Built{}, fmt.Errorf("image %s: %w", role, err)
	}
	binSum := sha256.Sum256(bin)
	built := Built{Role: role, Platform: platform, BinarySHA256: hex.EncodeToString(binSum[:])}

	files := map[string]engine.ContextFile{
		"Dockerfile":                     {Body: dockerfile, Mode: 0o644},
		"rootfs/" + role:                 {Body: bin, Mode: 0o755},
		"rootfs" + contract.RunDir + "/": {Dir: true, Mode: 0o755},
	}
	labels := map[string]string{"io.logbench.role": role, "io.logbench.binary-sha256": built.BinarySHA256}
	for _, x := range Extras[role] {
		body, err := os.ReadFile(filepath.Join(filepath.Dir(binPath), x))
		if err != nil {
			return Built{}, err
		}
		sum := sha256.Sum256(body)
		files["rootfs/"+x] = engine.ContextFile{Body: body, Mode: 0o755}
		labels["io.logbench."+x+"-sha256"] = hex.EncodeToString(sum[:])
	}
	// The extras are in the same rootfs/ folder: the Dockerfile's one COPY takes them.
	img, reused, err := b.ensure(ctx, "logbench/"+role, "", engine.BuildSpec{Platform: platform, Files: files, Labels: labels})
	if err != nil {
		return Built{}, err
	}
	built.Reused = reused
	built.Image = img
	return built, nil
}

// ensure builds spec as repo:<hash of its inputs>, unless the engine already has that
// tag: the tag names the platform, every file of the context and extra (what else the
// image is made of, such as its base's ID), so an unchanged image is not rebuilt.
func (b *Builder) ensure(ctx context.Context, repo, extra string, spec engine.BuildSpec) (engine.Image, bool, error) {
	inputs := sha256.New()
	fmt.Fprintf(inputs, "%s\x00%s\x00", spec.Platform, extra)
	names := make([]string, 0, len(spec.Files))
	for name := range spec.Files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		f := spec.Files[name]
		fmt.Fprintf(inputs, "%s\x00%o\x00%t\x00%x\x00", name, f.Mode, f.Dir, sha256.Sum256(f.Body))
	}
	spec.Tag = repo + ":" + hex.EncodeToString(inputs.Sum(nil))[:16]
	if img, ok, err := b.Engine.LookupImage(ctx, spec.Tag); err != nil || ok {
		return img, ok, err
	}
	fmt.Fprintf(b.Progress, "building image %s\n", spec.Tag)
	img, err := b.Engine.Build(ctx, spec, io.Discard)
	return img, false, err
}
