package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/urfave/cli/v2"
)

// buildFacts is what a binary knows of its own making, from the Go toolchain's build
// information (runtime/debug.ReadBuildInfo): which version of the kit, from which
// commit, with uncommitted changes or not, built by which Go.
type buildFacts struct {
	Version  string // the module version, "(devel)" for a build from a working tree
	Revision string // the VCS commit, "" when the build recorded none
	Time     string // the commit's time
	Dirty    bool   // the working tree had uncommitted changes
	Go       string // the Go version and platform
}

// readBuildFacts reads this binary's.
func readBuildFacts() buildFacts { return factsOf(debug.ReadBuildInfo()) }

// factsOf reads a build's information (ok false: none); -ldflags "-X
// main.version=..." overrides the version.
func factsOf(info *debug.BuildInfo, ok bool) buildFacts {
	f := buildFacts{Version: "(devel)", Go: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH}
	if ok {
		if info.Main.Version != "" {
			f.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				f.Revision = s.Value
			case "vcs.time":
				f.Time = s.Value
			case "vcs.modified":
				f.Dirty = s.Value == "true"
			}
		}
	}
	if version != "dev" {
		f.Version = version
	}
	return f
}

// printVersion prints this build's facts, one a line: `logbench version` and
// `logbench --version` alike.
func printVersion(w io.Writer) { writeFacts(w, readBuildFacts()) }

func writeFacts(w io.Writer, f buildFacts) {
	fmt.Fprintf(w, "logbench %s\n", f.Version)
	switch {
	case f.Revision == "":
		fmt.Fprintf(w, "revision: unknown (built without VCS information: go run, go test, or -buildvcs=false)\n")
	case f.Dirty:
		fmt.Fprintf(w, "revision: %s, dirty (uncommitted changes)\n", f.Revision)
	default:
		fmt.Fprintf(w, "revision: %s\n", f.Revision)
	}
	if f.Time != "" {
		fmt.Fprintf(w, "committed: %s\n", f.Time)
	}
	fmt.Fprintf(w, "go: %s\n", f.Go)
}

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print the kit's version, the commit it was built from (dirty: with uncommitted changes) and the Go that built it",
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("version takes no arguments, got %q", c.Args().First())
			}
			printVersion(c.App.Writer)
			return nil
		},
	}
}
