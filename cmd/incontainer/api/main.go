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
)

func main() {
	a := contract.DefaultAPIArgs()
	a.Bind(flag.CommandLine)
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if a.AccessLog != "" {
		srv, err := accesslog.New(accesslog.Options{Config: a.AccessLog, LogDir: a.LogDir, Stdout: os.Stdout})
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
		Mode:        contract.LogMode(a.Mode),
		FIFOPath:    a.FIFO,
		Stdout:      os.Stdout,
		MaxLogBytes: a.MaxLogBytes,
		LineBytes:   a.LineBytes,
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
