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
	a := contract.DefaultReaderArgs()
	a.Bind(flag.CommandLine)
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	r := fiforeader.New(fiforeader.Config{
		FIFOPath:        a.FIFO,
		RateBytesPerSec: a.RateBytes,
		Control:         control.Loopback(contract.ReaderPort),
		Account:         a.Account,
		LineBytes:       a.LineBytes,
	})
	if err := r.Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "reader:", err)
		os.Exit(1)
	}
}
