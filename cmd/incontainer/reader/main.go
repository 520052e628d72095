// Command reader reads the log FIFO. It runs inside the reader container.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/incontainer/control"
	"github.com/logbench/logbench/kit/incontainer/fiforeader"
)

func main() {
	fifoPath := flag.String("fifo", "/run/logbench/log.fifo", "log FIFO")
	rate := flag.Int64("rate-bytes", 0, "upper bound on bytes read per second (0: unlimited)")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	r := fiforeader.New(fiforeader.Config{
		FIFOPath:        *fifoPath,
		RateBytesPerSec: *rate,
		Control:         control.Loopback(contract.ReaderPort),
	})
	if err := r.Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "reader:", err)
		os.Exit(1)
	}
}
