package main

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionSaysWhatTheBuildRecorded: `version`, `--version` and `help version` all
// work, the first two alike, and the facts come from the build information: the
// module's version, the commit, its dirty flag and the Go that built it.
func TestVersionSaysWhatTheBuildRecorded(t *testing.T) {
	cmd, err := runApp(t, "version")
	if err != nil {
		t.Fatal(err)
	}
	flag, err := runApp(t, "--version")
	if err != nil {
		t.Fatal(err)
	}
	if cmd != flag {
		t.Errorf("version and --version differ:\n%s\n%s", cmd, flag)
	}
	for _, want := range []string{"logbench ", "\nrevision: ", "\ngo: " + runtime.Version()} {
		if !strings.Contains(cmd, want) {
			t.Errorf("version lacks %q:\n%s", want, cmd)
		}
	}
	if help, err := runApp(t, "help", "version"); err != nil || !strings.Contains(help, "logbench version") {
		t.Errorf("help version: %v\n%s", err, help)
	}
	if _, err := runApp(t, "version", "extra"); err == nil {
		t.Error("version took an argument")
	}

	var b strings.Builder
	writeFacts(&b, factsOf(&debug.BuildInfo{Main: debug.Module{Path: kitModule, Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.time", Value: "2026-12-01T10:00:00Z"}, {Key: "vcs.modified", Value: "true"},
	}}, true))
	for _, want := range []string{"logbench v1.2.3\n", "revision: 0123abcd, dirty", "committed: 2026-12-01T10:00:00Z\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	writeFacts(&b, factsOf(nil, false))
	if !strings.Contains(b.String(), "logbench (devel)\nrevision: unknown") {
		t.Errorf("no build information:\n%s", b.String())
	}
}
