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
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := newApp().RunContext(ctx, os.Args)
	if err == nil {
		return
	}
	fmt.Fprintln(os.Stderr, "logbench:", err)
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
