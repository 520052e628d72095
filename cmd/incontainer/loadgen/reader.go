package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/incontainer/control"
	"github.com/logbench/logbench/kit/incontainer/fiforeader"
)

// The shared client topology runs the FIFO reader and the load generator as two
// processes in one container, as published: this binary is the supervisor, and starts
// itself again as the reader (-as-reader), so that one image holds both programs.

// runReader is the reader process: what cmd/incontainer/reader does.
func runReader(ctx context.Context, fifoPath string, rateBytes int64) int {
	r := fiforeader.New(fiforeader.Config{FIFOPath: fifoPath, RateBytesPerSec: rateBytes, Control: control.Loopback(contract.ReaderPort)})
	if err := r.Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "reader:", err)
		return 1
	}
	return 0
}

// childReader is the reader process this one started.
type childReader struct {
	cmd  *exec.Cmd
	done chan struct{}
}

// startReader starts the reader as a child process; if it ends before it is stopped,
// cancel is called with why, so that the run fails saying so rather than waiting for a
// reader that is gone.
func startReader(cancel context.CancelCauseFunc, fifoPath string, rateBytes int64) (*childReader, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("starting the reader: %w", err)
	}
	a := contract.DefaultLoadgenArgs()
	a.AsReader, a.ReaderFIFO, a.ReaderRate = true, fifoPath, rateBytes
	cmd := exec.Command(self, a.Args()...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the reader: %w", err)
	}
	c := &childReader{cmd: cmd, done: make(chan struct{})}
	go func() {
		err := cmd.Wait()
		close(c.done)
		cancel(fmt.Errorf("the reader process ended during the run: %v", orExit(err)))
	}()
	return c, nil
}

// stop asks the reader to end, and kills it if it has not at once. By now the conductor
// has the reader's report; a reader blocked in a read of the FIFO does not see SIGTERM
// until the read returns, and waiting for it cost every run seconds.
func (c *childReader) stop() {
	c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.done:
	case <-time.After(100 * time.Millisecond):
		c.cmd.Process.Kill()
		<-c.done
	}
}

func orExit(err error) error {
	if err == nil {
		return errors.New("exit status 0")
	}
	return err
}
