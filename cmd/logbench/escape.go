package main

import (
	"os"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	"github.com/logbench/logbench/kit/offline/printable"
)

// maxErrorBytes bounds the error main prints: the messages are cut where they are made,
// and this is the last guard.
const maxErrorBytes = 2000

// offlineMemoryLimit is the Go runtime's soft memory limit for the commands that read
// bundles. The bundle reader's size caps (bundle.MaxFileBytes) bound what is held; this
// makes the collector run before the heap doubles past it, so that the largest bundle
// the caps admit is verified in under 500 MB.
const offlineMemoryLimit = 320 << 20

// escapeOutput prepares a command that reads bundles (verify, compare, report,
// archive). Its output goes through printable's escaping: it prints names and values
// that come from bundles (modes, host names, file names), and a control character among
// them is shown, not sent to the terminal. And its memory is held to
// offlineMemoryLimit, unless GOMEMLIMIT says otherwise.
func escapeOutput(c *cli.Context) {
	c.App.Writer = printable.NewWriter(c.App.Writer)
	c.App.ErrWriter = printable.NewWriter(c.App.ErrWriter)
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(offlineMemoryLimit)
	}
}
