// Command qpsload offers closed-loop load (kit/incontainer/closedloop) to one URL, as
// autocannon -c 10 -d 5 -p 1 does, and writes the result as one JSON file.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/logbench/logbench/kit/incontainer/closedloop"
)

// Exit statuses.
const (
	exitOK          = 0
	exitNoResult    = 1 // the result could not be written
	exitBadFlags    = 2
	exitInterrupted = 3 // interrupted: the result written covers the load until then
)

func main() {
	var p closedloop.Params
	flag.StringVar(&p.URL, "url", "http://127.0.0.1:8080/", "the URL to load (plain http)")
	flag.IntVar(&p.Connections, "connections", 10, "keep-alive connections")
	flag.IntVar(&p.Pipelining, "pipelining", 1, "requests in flight per connection")
	flag.DurationVar(&p.Duration, "duration", 5*time.Second, "measured interval")
	flag.DurationVar(&p.Warmup, "warmup", 0, "load before the measured interval, not counted")
	flag.DurationVar(&p.Timeout, "timeout", closedloop.DefaultTimeout, "per request, from its send")
	flag.Float64Var(&p.CPULimitCores, "cpu-limit", 0, "cores the generator may use, for the saturation rule (0: GOMAXPROCS)")
	resultPath := flag.String("result", "/run/logbench/qps.json", "where to write the result")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "qpsload: unexpected argument %q\n", flag.Arg(0))
		os.Exit(exitBadFlags)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := closedloop.Run(ctx, p)
	status := exitOK
	switch {
	case errors.Is(err, context.Canceled):
		status = exitInterrupted
	case err != nil:
		fmt.Fprintln(os.Stderr, "qpsload:", err)
		os.Exit(exitBadFlags)
	}
	if err := writeJSON(*resultPath, res); err != nil {
		fmt.Fprintln(os.Stderr, "qpsload:", err)
		os.Exit(exitNoResult)
	}
	os.Exit(status)
}

// writeJSON writes v to path through a temporary file, so that a reader never sees
// half a result.
func writeJSON(path string, v any) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
