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
	var p contract.RunParams
	flag.Float64Var(&p.Rate, "rate", 20, "requests per second")
	flag.DurationVar(&p.Duration, "duration", 8*time.Second, "load duration")
	flag.IntVar(&p.WarmupCount, "warmup", 2, "warm-up requests")
	flag.DurationVar(&p.RequestTimeout, "request-timeout", 60*time.Second, "timeout of one request")
	flag.DurationVar(&p.MaxRunTime, "max-run-time", 5*time.Minute, "stop condition on the whole run")
	flag.BoolVar(&p.MeasureTimer, "measure-timer", false, "measure the clock and timers before the warm-up")
	sweep := flag.String("sweep", "", "instead of a run, find the capacity: comma-separated rising rates (req/s)")
	sweepStep := flag.Duration("sweep-step", 2*time.Second, "load per sweep rate")
	sweepLag := flag.Duration("sweep-max-lag", time.Millisecond, "send-lag p99 a sweep rate must keep")
	sweepTrials := flag.Int("sweep-trials", 3, "trials at each sweep rate; most must hold it")
	procs := flag.Int("gomaxprocs", 0, "Go's GOMAXPROCS (0: Go's default for the container's CPU limit)")
	resultPath := flag.String("result", "/run/logbench/result.json", "where to write the result")
	withReader := flag.Bool("with-reader", false, "run the FIFO reader as a child process in this container (the shared client topology)")
	readerFIFO := flag.String("reader-fifo", "/run/logbench/log.fifo", "with -with-reader: the log FIFO")
	readerRate := flag.Int64("reader-rate-bytes", 0, "with -with-reader: the reader's bound in bytes per second (0: none)")
	asReader := flag.Bool("as-reader", false, "be the FIFO reader (how -with-reader starts its child)")
	flag.Parse()
	if *procs > 0 {
		runtime.GOMAXPROCS(*procs)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *asReader {
		os.Exit(runReader(ctx, *readerFIFO, *readerRate))
	}
	if *withReader {
		var cancel context.CancelCauseFunc
		ctx, cancel = context.WithCancelCause(ctx)
		child, err := startReader(cancel, *readerFIFO, *readerRate)
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
	}
	if *sweep != "" {
		rates, err := parseRates(*sweep)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadgen: -sweep:", err)
			exit(contract.ExitNoResult)
		}
		res := c.Sweep(ctx, contract.SweepParams{Rates: rates, Step: *sweepStep, MaxLagP99: *sweepLag, Trials: *sweepTrials})
		if err := writeJSON(*resultPath, res); err != nil {
			fmt.Fprintln(os.Stderr, "loadgen:", err)
			exit(contract.ExitNoResult)
		}
		return
	}
	res := c.Run(ctx, p)
	if err := writeJSON(*resultPath, res); err != nil {
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
