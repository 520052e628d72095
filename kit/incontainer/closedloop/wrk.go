package closedloop

import (
	"context"
	"errors"
	"fmt"
	"github.com/logbench/logbench/kit/contract"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The wrk phase of a qps run: between the conductor's warm-up and its own measured
// load, Debian's wrk loads the same API container from the same network namespace,
// alone, as an independent check of the load generator. The wrk container (kit/experiments/qps) makes a FIFO in the shared
// volume and blocks reading it, so that it costs nothing while the conductor
// measures; the conductor's write is its turn. It then writes wrk's output and exit
// status to the volume and stays up until the pod is removed (a container that ended
// first would end the run).

// RunWrk starts the wrk container waiting in dir and waits for it, at most timeout.
func RunWrk(ctx context.Context, dir string, timeout time.Duration) contract.WrkRun {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	fifo := filepath.Join(dir, contract.WrkStartFIFO)
	// Non-blocking: an open for writing fails (ENXIO) until the reader is there, so a
	// wrk container that never came up is a failure after the timeout, not a hang.
	var f *os.File
	for {
		var err error
		f, err = os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.ENXIO) && !errors.Is(err, os.ErrNotExist) {
			return contract.WrkRun{Failure: "starting wrk: " + err.Error()}
		}
		if sleep(ctx, 50*time.Millisecond) != nil {
			return contract.WrkRun{Failure: "starting wrk: the wrk container never waited on " + fifo}
		}
	}
	started := time.Now()
	_, err := f.WriteString("go\n")
	f.Close()
	if err != nil {
		return contract.WrkRun{Failure: "starting wrk: " + err.Error()}
	}
	exitPath := filepath.Join(dir, contract.WrkExit)
	for {
		body, err := os.ReadFile(exitPath)
		if err == nil {
			out := contract.WrkRun{WallS: time.Since(started).Seconds()}
			code, err := strconv.Atoi(strings.TrimSpace(string(body)))
			if err != nil {
				out.Failure = fmt.Sprintf("wrk's exit status %q: %v", body, err)
			}
			out.ExitCode = code
			o, err := os.ReadFile(filepath.Join(dir, contract.WrkOutput))
			if err != nil {
				out.Failure = join(out.Failure, "wrk's output: "+err.Error())
			}
			out.Output = string(o)
			if code != 0 {
				out.Failure = join(out.Failure, fmt.Sprintf("wrk exited with status %d", code))
			}
			return out
		}
		if sleep(ctx, 100*time.Millisecond) != nil {
			return contract.WrkRun{Failure: fmt.Sprintf("wrk did not end within %s", timeout)}
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}
