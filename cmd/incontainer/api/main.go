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
	"github.com/logbench/logbench/kit/incontainer/accesslog"
	"github.com/logbench/logbench/kit/incontainer/apiserver"
	"github.com/logbench/logbench/kit/incontainer/control"
	"github.com/logbench/logbench/kit/incontainer/logmode"
)

func main() {
	mode := flag.String("mode", string(logmode.None), "logging mode")
	fifoPath := flag.String("fifo", "/run/logbench/log.fifo", "log FIFO")
	maxLog := flag.Int64("max-log-bytes", 0, "output-volume stop condition (0: none)")
	access := flag.String("access-log", "", "serve the qps experiment's API instead, with this access-log configuration: none, console, file or console+file")
	logDir := flag.String("log-dir", "/run/logbench/logs", "with -access-log: directory of the date-named log file")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *access != "" {
		srv, err := accesslog.New(accesslog.Options{Config: *access, LogDir: *logDir, Stdout: os.Stdout})
		if err == nil {
			err = srv.Run(ctx, control.Loopback(contract.WorkloadPort), control.Loopback(contract.APIControlPort))
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "api:", err)
			os.Exit(1)
		}
		return
	}
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
