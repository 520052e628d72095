// Command qpsload is the conductor of a qps run: it waits for the API to be ready,
// warms it up, resets its counters, offers closed-loop load (kit/incontainer/closedloop)
// as autocannon -c 10 -d 5 -p 1 does, collects the API's counters per log sink through
// its control port, reads the log file back from the shared volume, and writes the
// result as one JSON file.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/incontainer/closedloop"
	"github.com/logbench/logbench/kit/incontainer/control"
)

func main() {
	var p closedloop.Params
	flag.StringVar(&p.URL, "url", fmt.Sprintf("http://127.0.0.1:%d/", contract.WorkloadPort), "the URL to load (plain http)")
	flag.IntVar(&p.Connections, "connections", 10, "keep-alive connections")
	flag.IntVar(&p.Pipelining, "pipelining", 1, "requests in flight per connection")
	flag.DurationVar(&p.Duration, "duration", 5*time.Second, "measured interval")
	flag.DurationVar(&p.Warmup, "warmup", time.Second, "load before the API's counters are reset, not counted")
	flag.DurationVar(&p.Timeout, "timeout", closedloop.DefaultTimeout, "per request, from its send")
	flag.Float64Var(&p.CPULimitCores, "cpu-limit", 0, "cores the generator may use, for the saturation rule (0: GOMAXPROCS)")
	controlPort := flag.Int("control-port", contract.APIControlPort, "the API's control port on loopback")
	readyTimeout := flag.Duration("ready-timeout", time.Minute, "longest wait for the API to say ready")
	resultPath := flag.String("result", "/run/logbench/result.json", "where to write the result")
	engineURL := flag.String("engine-cpu-url", "", "the engine CPU helper's /sample, read before and after the measured interval (empty: not measured)")
	procRoot := flag.String("proc", "/proc", "the proc file system of the host's load (and, with -engine-cpu-server, of the engine's processes)")
	wrkDir := flag.String("wrk-dir", "", "after the measured load, start the wrk container waiting in this folder and wait for it (empty: no wrk phase)")
	wrkTimeout := flag.Duration("wrk-timeout", 2*time.Minute, "longest wait for the wrk phase")
	engineServer := flag.String("engine-cpu-server", "", "serve the engine's CPU at this address instead (the helper, in the host's PID namespace)")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "qpsload: unexpected argument %q\n", flag.Arg(0))
		os.Exit(2)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *engineServer != "" {
		if _, err := closedloop.SampleEngine(*procRoot); err != nil {
			fmt.Fprintln(os.Stderr, "qpsload:", err)
			os.Exit(1)
		}
		srv := &http.Server{Addr: *engineServer, Handler: closedloop.EngineHandler(*procRoot)}
		go func() { <-ctx.Done(); srv.Close() }()
		if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(os.Stderr, "qpsload:", err)
			os.Exit(1)
		}
		return
	}
	res, err := closedloop.Conduct(ctx, closedloop.ConductParams{Load: p, Control: control.NewClient(*controlPort), ReadyTimeout: *readyTimeout,
		EngineURL: *engineURL, ProcRoot: *procRoot, WrkDir: *wrkDir, WrkTimeout: *wrkTimeout})
	if err != nil {
		res.Failure = joinText(res.Failure, "interrupted")
	}
	if err := writeJSON(*resultPath, res); err != nil {
		fmt.Fprintln(os.Stderr, "qpsload:", err)
		os.Exit(contract.ExitNoResult)
	}
	if res.Wrk != nil {
		// wrk's own words, for whoever watches the run; the kit parses them from the result.
		fmt.Printf("wrk (%.2f s, exit %d):\n%s", res.Wrk.WallS, res.Wrk.ExitCode, res.Wrk.Output)
	}
	if res.Failure != "" {
		fmt.Fprintln(os.Stderr, "qpsload:", res.Failure)
		os.Exit(contract.ExitRunFailed)
	}
	fmt.Printf("%d requests in %.2f s: %.0f req/s (mean of per-second counts), p99 %.2f ms, generator %.2f cores\n",
		res.Load.Requests, res.Load.MeasuredS, res.Load.RequestsPerSMean, res.Load.LatencyP99Ms, res.Load.GeneratorCPUCores)
	os.Exit(contract.ExitVerified)
}

func joinText(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
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
