package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/experiments/fifostall"
)

// TestOneMarkForUntrusted: a figure not to be trusted as it stands is marked "?" in
// verify's text, in compare's (where "~" is "no change") and in reproduce's table
// (fifostall.NotResolved); no "~" stands for it anywhere.
func TestOneMarkForUntrusted(t *testing.T) {
	const bundle = "../../results/2026-11-30-vm2/fifo-py.tar.gz"
	if fifostall.NotResolved != "?" {
		t.Errorf("reproduce's table marks an unresolved p99 %q", fifostall.NotResolved)
	}
	out, err := runApp(t, "verify", bundle)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "(marked ?)") || strings.Contains(out, "marked ~") {
		t.Errorf("verify does not mark with ?:\n%s", out)
	}
	stdout, _, err := runAppSplit(t, "compare", bundle, "--published")
	if err != nil {
		t.Fatal(err)
	}
	marked := regexp.MustCompile(`[0-9]\?`)
	if !marked.MatchString(stdout) || !strings.Contains(stdout, "? marked") {
		t.Errorf("compare marks no figure with ?:\n%s", stdout)
	}
	if regexp.MustCompile(`~[0-9]`).MatchString(stdout + out) {
		t.Errorf("a ~ before a figure:\n%s\n%s", out, stdout)
	}
}
