// Command logbench reproduces the logging-wait experiment on a Docker Engine and keeps
// its results as checksummed bundles.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/logbench/logbench/kit/offline/printable"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := newApp().RunContext(ctx, experimentAsFirstArgument(os.Args))
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
		os.Exit(130)
	}
	os.Exit(1)
}
