// Command logbench reproduces the logging-wait experiment on a Docker Engine and keeps
// its results as checksummed bundles.
package main

import (
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/logbench/logbench/kit/offline/printable"
)

func main() {
	args := experimentAsFirstArgument(os.Args)
	ctx, stop := interruptible(slices.Contains(offlineCommands, commandOf(args)))
	defer stop()
	err := newApp().RunContext(ctx, args)
	if err == nil {
		return
	}
	// An error may carry a name or value from a bundle: shown, never sent to the terminal.
	fmt.Fprintln(os.Stderr, "logbench:", printable.Cut(printable.Escape(err.Error(), true), maxErrorBytes))
	var usage usageError
	var interrupted interruptedError
	switch {
	case errors.As(err, &usage):
		os.Exit(2)
	case errors.As(err, &interrupted):
		os.Exit(interruptedStatus)
	}
	os.Exit(1)
}
