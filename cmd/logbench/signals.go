package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
)

// interruptedStatus is the exit status of a command stopped by SIGINT or SIGTERM, engine
// commands and offline ones alike.
const interruptedStatus = 130

// offlineCommands only read bundles and write at most a page, an archive and its
// signature, each through writeOutput: nothing on an engine to stop or remove.
var offlineCommands = []string{"verify", "compare", "report", "archive", "experiments", "version", "completion", "help", "h"}

// commandOf is the command a command line names: its first argument that is no flag
// (the app has no flag that takes a value), "" for none.
func commandOf(args []string) string {
	for _, a := range args[min(1, len(args)):] {
		if a == "--" {
			return ""
		}
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

// interruptible is the context a command runs in, cancelled by the first SIGINT or
// SIGTERM. A command that acts on an engine stops on it and cleans up, within its own
// bounds, and a second signal waits for that. An offline command does not look at the
// context while it reads, checks or draws (a bundle can take seconds): the signal
// removes the temporary file writeOutput may have open and ends it at once, with the
// status every interrupted command exits with. stop lets signals act as before.
func interruptible(offline bool) (ctx context.Context, stop func()) {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-signals:
			cancel()
			if offline {
				removePendingOutputs()
				fmt.Fprintf(os.Stderr, "logbench: interrupted (%v); no file left half-written\n", sig)
				os.Exit(interruptedStatus)
			}
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(signals)
		close(done)
		cancel()
	}
}

// pendingOutputs are the temporary files writeOutput has open, which an interrupt
// removes before the command ends.
var pendingOutputs = struct {
	sync.Mutex
	paths map[string]bool
}{paths: map[string]bool{}}

func addPendingOutput(path string) {
	pendingOutputs.Lock()
	defer pendingOutputs.Unlock()
	pendingOutputs.paths[path] = true
}

func dropPendingOutput(path string) {
	pendingOutputs.Lock()
	defer pendingOutputs.Unlock()
	delete(pendingOutputs.paths, path)
}

// removePendingOutputs removes every temporary file still pending and keeps the lock:
// the process is about to end, and no other file may be begun meanwhile.
func removePendingOutputs() {
	pendingOutputs.Lock()
	for path := range pendingOutputs.paths {
		os.Remove(path)
	}
}
