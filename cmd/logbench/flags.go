package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/docker/go-units"
	"github.com/urfave/cli/v2"
)

// targetFlags choose where a command's runs go and where its bundle lands.
func targetFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "platform", Usage: "image platform, linux/amd64 or linux/arm64 (default: the engine's)"},
		&cli.StringFlag{Name: "out", Usage: "bundle folder, which must not exist (default: results/<time>-<host>)"},
		&cli.StringFlag{Name: "source", Usage: "the kit's source tree (default: found from the working directory)"},
	}
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

// outDir validates --out, or makes a fresh name under results/.
func outDir(c *cli.Context, source, host string, now time.Time) (string, error) {
	dir := c.String("out")
	if dir == "" {
		dir = filepath.Join(source, "results", now.UTC().Format("20060102T150405Z")+"-"+safeName(host))
	}
	if _, err := os.Stat(dir); err == nil {
		return "", usagef("--out %s: already exists; choose a new folder", dir)
	}
	return dir, nil
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, s)
}

// findSource walks up from the working directory to the kit's go.mod.
func findSource(c *cli.Context) (string, error) {
	if dir := c.String("source"); dir != "" {
		return dir, checkSource(dir)
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if checkSource(dir) == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", usagef("the kit's source tree was not found above the working directory: run logbench from its checkout, or pass --source")
		}
		dir = parent
	}
}

func checkSource(dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil || !strings.Contains(string(b), "module github.com/logbench/logbench\n") {
		return usagef("--source %s: not the logbench source tree", dir)
	}
	return nil
}

func formatBytes(n int64) string { return fmt.Sprintf("%s (%d bytes)", units.BytesSize(float64(n)), n) }
