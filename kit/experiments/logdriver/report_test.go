package logdriver_test

import (
	"strings"
	"testing"

	"github.com/logbench/logbench/internal/reporttest"
	"github.com/logbench/logbench/kit/experiments/logdriver"
	"github.com/logbench/logbench/kit/internal/browsertest"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/verify"
)

const archivedBundle = "../../../results/2026-12-02-vm/log-driver.tar.gz"

func archived(t *testing.T, label string) *verify.Result {
	t.Helper()
	files, err := bundle.Open(archivedBundle)
	if err != nil {
		t.Fatal(err)
	}
	res := logdriver.Experiment.Verify(files)
	if !res.OK() {
		t.Fatalf("%s does not verify: %s", archivedBundle, res.Summary())
	}
	res.Name = label
	return res
}

// TestTheReportOfTheArchivedBundle: the page draws every figure, each condition named
// by the axes that differ between conditions alone, and renders in a browser with no
// text over another, one bundle or two.
func TestTheReportOfTheArchivedBundle(t *testing.T) {
	one := reporttest.Render(t, logdriver.Experiment, archived(t, "a"))
	for _, want := range []string{"<h1>logbench report: log-driver: a</h1>", "p99 latency from the scheduled send</text>", "log lines lost</text>",
		"syslog-udp/non-blocking/64KiB/slow"} {
		if !strings.Contains(one, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(one, ">go/syslog-udp") { // a label; verify's notes name whole conditions
		t.Errorf("a condition is named by an axis all conditions share (go)")
	}
	browsertest.SelfContained(t, one)
	browsertest.Chromium(t)
	two := reporttest.Render(t, logdriver.Experiment, archived(t, "a"), archived(t, "b"))
	for _, page := range []string{one, two} {
		for _, l := range browsertest.Check(t, page) {
			if l.Whiskers == 0 || l.Legends != l.SVGs {
				t.Errorf("%d whiskers; %d legends in %d plots", l.Whiskers, l.Legends, l.SVGs)
			}
		}
	}
}
