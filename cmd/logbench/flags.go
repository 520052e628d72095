package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/host/bases"
	"github.com/logbench/logbench/kit/host/debian"
	"github.com/logbench/logbench/kit/host/engine"
	"github.com/logbench/logbench/kit/host/lab"
)

// targetFlags choose where a command's runs go and where its bundle lands.
func targetFlags() []cli.Flag {
	return []cli.Flag{
		contextFlag(),
		&cli.StringFlag{Name: "platform", Usage: "image platform, linux/amd64 or linux/arm64 (default: the engine's)"},
		&cli.BoolFlag{Name: "emulated", Usage: "allow a --platform the engine runs only under emulation (qemu binfmt): the figures are marked as no measurement"},
		&cli.StringFlag{Name: "out", Usage: "bundle folder, which must not exist (default: results/<time>-<host>)"},
		&cli.BoolFlag{Name: "speed-probe", Value: true, Usage: "time fixed work before and after every run in the run's API limits, the CPU's arithmetic (SHA-256 of 32 MiB) and the request path (1,000 loopback HTTP requests, 50,000 one-byte writes), so that a slower host is told from a slower logger (probes.csv; --speed-probe=false: not timed)"},
		mirrorFlag(), snapshotFlag(),
		&cli.StringFlag{Name: "source", Usage: "the kit's source tree (default: the checkout around the working directory, the tree logbench was built in, or its module version)"},
	}
}

// mirrorFlag and snapshotFlag say where the Debian packages of the Python and Node
// bases come from, when the engine lacks a base.
func mirrorFlag() cli.Flag {
	return &cli.StringFlag{Name: "mirror", Usage: "Debian mirror the bases are built from (default: " + debian.DefaultMirror + ")"}
}

func snapshotFlag() cli.Flag {
	return &cli.StringFlag{Name: "snapshot", Usage: "build the bases from Debian's archive as it was at this date (2024-06-15) or time (20240615T000000Z), for the same bases bit for bit"}
}

// baseOptions validates --mirror and --snapshot.
func baseOptions(c *cli.Context) (bases.Options, error) {
	o := bases.Options{Mirror: c.String("mirror"), Snapshot: c.String("snapshot")}
	if o.Mirror != "" {
		u, err := url.Parse(o.Mirror)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return o, usagef("--mirror %q: want a Debian mirror's http:// or https:// URL, like %s", o.Mirror, debian.DefaultMirror)
		}
	}
	if s := o.Snapshot; s != "" {
		_, dayErr := time.Parse("2006-01-02", s)
		_, timeErr := time.Parse("20060102T150405Z", s)
		if dayErr != nil && timeErr != nil {
			return o, usagef("--snapshot %q: want a date (2024-06-15) or a snapshot time (20240615T000000Z)", s)
		}
	}
	return o, nil
}

// contextFlag chooses the engine as `docker --context` does.
func contextFlag() cli.Flag {
	return &cli.StringFlag{Name: "context", Usage: "docker context of the engine (default: as the docker CLI chooses: DOCKER_HOST, DOCKER_CONTEXT, the current context of docker context use, the local socket)"}
}

// engineChoice is how the docker CLI would choose the engine for this command.
func engineChoice(c *cli.Context) engine.Choice {
	home, _ := os.UserHomeDir()
	return engine.Choice{Context: c.String("context"), Getenv: os.Getenv, Home: home}
}

// connectEngine reaches the chosen engine; an unknown context or an engine that does
// not answer is bad input.
func connectEngine(c *cli.Context) (*engine.Engine, error) {
	eng, err := engine.Connect(c.Context, engineChoice(c))
	if err != nil {
		if c.Context.Err() != nil {
			return nil, interruptedError{Msg: "interrupted while reaching the engine"}
		}
		return nil, usageError{Msg: err.Error()}
	}
	return eng, nil
}

// platformFlag validates --platform; empty means the engine's.
func platformFlag(c *cli.Context, enginePlatform string) (string, error) {
	p := c.String("platform")
	if p == "" {
		p = enginePlatform
	}
	if p != "linux/amd64" && p != "linux/arm64" {
		return "", usagef("--platform %q: want linux/amd64 or linux/arm64", p)
	}
	return p, nil
}

// outDir validates --out, or makes a fresh name under results/: in the checkout the
// kit runs from, or in the working directory when the source is elsewhere (the module
// cache, the tree the binary was built in).
func outDir(c *cli.Context, src source, host string, now time.Time) (string, error) {
	dir := c.String("out")
	if dir == "" {
		root := ""
		if src.checkout {
			root = src.dir
		}
		dir = filepath.Join(root, "results", now.UTC().Format("20060102T150405Z")+"-"+lab.FolderName(host))
	}
	if _, err := os.Stat(dir); err == nil {
		return "", usagef("--out %s: already exists; choose a new folder", dir)
	}
	return dir, nil
}

// source is the kit's module source, which the in-container programs are compiled
// from and the images' Dockerfiles read from.
type source struct {
	dir string
	// checkout says it was found from the flag or the working directory: results go
	// there.
	checkout bool
}

// kitModule is the kit's module path.
const kitModule = "github.com/logbench/logbench"

// findSource finds the kit's module source, so that logbench works from any folder
// and when installed with `go install`: --source; the checkout around the working
// directory; the tree this binary was built from, if it is still there; the module of
// this binary's version, from the Go module cache (where `go install` put it).
func findSource(c *cli.Context) (source, error) {
	if dir := c.String("source"); dir != "" {
		return source{dir: dir, checkout: true}, checkSource(dir)
	}
	if dir, err := os.Getwd(); err == nil {
		for {
			if checkSource(dir) == nil {
				return source{dir: dir, checkout: true}, nil
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	if dir := builtFrom(); dir != "" {
		return source{dir: dir}, nil
	}
	dir, err := moduleSource(c.Context)
	if err != nil {
		return source{}, usagef("the kit's Go source was not found (it compiles the in-container programs from it): %v; run logbench from its checkout, pass --source, or install it with `go install %s/cmd/logbench@<version>`", err, kitModule)
	}
	return source{dir: dir}, nil
}

// builtFrom is the root of the module this binary was compiled in, when the build kept
// full paths (no -trimpath) and the tree still holds the kit.
func builtFrom() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return ""
	}
	dir := filepath.Dir(filepath.Dir(filepath.Dir(file))) // <root>/cmd/logbench/flags.go
	if checkSource(dir) != nil {
		return ""
	}
	return dir
}

// moduleSource is this binary's own module version in the Go module cache, downloaded
// by the go command if the cache lacks it. A build from a working tree has no version
// the go command can fetch.
func moduleSource(ctx context.Context) (string, error) {
	info, ok := debug.ReadBuildInfo()
	if !ok || info.Main.Path != kitModule {
		return "", errors.New("this binary carries no module version")
	}
	v := info.Main.Version
	if v == "" || v == "(devel)" || strings.HasSuffix(v, "+dirty") {
		return "", fmt.Errorf("this binary was built from a working tree (version %q), not installed from a module version", v)
	}
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", kitModule+"@"+v)
	cmd.Dir = os.TempDir() // outside any module
	out, err := cmd.Output()
	var mod struct{ Dir, Error string }
	if jsonErr := json.Unmarshal(out, &mod); jsonErr != nil && err == nil {
		err = jsonErr
	}
	switch {
	case mod.Error != "":
		return "", fmt.Errorf("go mod download %s@%s: %s", kitModule, v, mod.Error)
	case err != nil:
		return "", fmt.Errorf("go mod download %s@%s: %w", kitModule, v, err)
	}
	return mod.Dir, checkSource(mod.Dir)
}

func checkSource(dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || !strings.Contains(string(b), "module github.com/logbench/logbench\n") {
		return usagef("--source %s: not the logbench source tree", dir)
	}
	return nil
}
