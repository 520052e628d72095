// Command loadgen offers the load and conducts the run protocol. It runs inside the
// loadgen container and leaves the run's result as one JSON file.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/incontainer/conductor"
	"github.com/logbench/logbench/kit/incontainer/control"
)

func main() {
	a := contract.DefaultLoadgenArgs()
	a.Bind(flag.CommandLine)
	flag.Parse()
	if a.GOMAXPROCS > 0 {
		runtime.GOMAXPROCS(a.GOMAXPROCS)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if a.AsReader {
		os.Exit(runReader(ctx, a.ReaderFIFO, a.ReaderRate))
	}
	if a.NoReader && a.WithReader {
		fmt.Fprintln(os.Stderr, "loadgen: -no-reader and -with-reader: a run has a reader or none")
		os.Exit(contract.ExitNoResult)
	}
	if a.WithReader {
		var cancel context.CancelCauseFunc
		ctx, cancel = context.WithCancelCause(ctx)
		child, err := startReader(cancel, a.ReaderFIFO, a.ReaderRate)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadgen:", err)
			os.Exit(contract.ExitNoResult)
		}
		// os.Exit skips deferred calls: the reader is stopped by exit, below.
		exit = func(code int) { child.stop(); os.Exit(code) }
	}
	c := &conductor.Conductor{
		API:         control.NewClient(contract.APIControlPort),
		Reader:      control.NewClient(contract.ReaderPort),
		WorkloadURL: "http://" + control.Loopback(contract.WorkloadPort) + "/",
		Progress:    os.Stdout,
		Poll:        20 * time.Millisecond,
		EngineURL:   a.EngineCPUURL,
	}
	if a.NoReader {
		c.Reader = nil
	}
	if a.Sweep != "" {
		rates, err := parseRates(a.Sweep)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadgen: -sweep:", err)
			exit(contract.ExitNoResult)
		}
		res := c.Sweep(ctx, contract.SweepParams{Rates: rates, Step: a.SweepStep, MaxLagP99: a.SweepMaxLag, Trials: a.SweepTrials})
		if err := writeJSON(a.Result, res); err != nil {
			fmt.Fprintln(os.Stderr, "loadgen:", err)
			exit(contract.ExitNoResult)
		}
		return
	}
	res := c.Run(ctx, a.Run)
	if err := writeJSON(a.Result, res); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		exit(contract.ExitNoResult)
	}
	if res.Failure != "" {
		exit(contract.ExitRunFailed)
	}
	exit(contract.ExitVerified)
}

// exit ends the process; with a child reader, it stops the reader first.
var exit = os.Exit

func parseRates(s string) ([]float64, error) {
	var rates []float64
	for _, f := range strings.Split(s, ",") {
		r, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || r <= 0 {
			return nil, fmt.Errorf("bad rate %q", f)
		}
		rates = append(rates, r)
	}
	return rates, nil
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
	if err := json.NewEncoder(f).Encode(v); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
