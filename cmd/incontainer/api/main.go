// Command api is the Go API under test. It runs inside the api container.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/incontainer/apiserver"
	"github.com/logbench/logbench/kit/incontainer/control"
	"github.com/logbench/logbench/kit/incontainer/logmode"
)

func main() {
	mode := flag.String("mode", string(logmode.None), "logging mode")
	fifoPath := flag.String("fifo", "/run/logbench/log.fifo", "log FIFO")
	maxLog := flag.Int64("max-log-bytes", 0, "output-volume stop condition (0: none)")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv, err := apiserver.New(apiserver.Config{
		Mode:        logmode.Mode(*mode),
		FIFOPath:    *fifoPath,
		MaxLogBytes: *maxLog,
		Workload:    control.Loopback(contract.WorkloadPort),
		Control:     control.Loopback(contract.APIControlPort),
	})
	if err == nil {
		err = srv.Run(ctx)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "api:", err)
		os.Exit(1)
	}
}
