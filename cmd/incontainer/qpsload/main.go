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
	"runtime"
	"strings"
	"syscall"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/incontainer/closedloop"
	"github.com/logbench/logbench/kit/incontainer/control"
	"github.com/logbench/logbench/kit/incontainer/foreign"
	"github.com/logbench/logbench/kit/incontainer/loadgen"
)

func main() {
	a := contract.DefaultQPSLoadArgs()
	a.Bind(flag.CommandLine)
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "qpsload: unexpected argument %q\n", flag.Arg(0))
		os.Exit(2)
	}
	if err := loadgen.CheckArrivals(a.Arrivals); err != nil {
		fmt.Fprintln(os.Stderr, "qpsload: -"+err.Error())
		os.Exit(2)
	}
	// The generator's event loop waits in a raw system call and leaves the process's
	// other goroutines to a second processor (kit/incontainer/closedloop); a CPU limit
	// of one CPU would give the runtime only the one.
	runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0)))
	p := closedloop.Params{URL: a.URL, Connections: a.Connections, Pipelining: a.Pipelining, Duration: a.Duration, Warmup: a.Warmup,
		Timeout: a.Timeout, CPULimitCores: a.CPULimit}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if a.EngineCPUServer != "" {
		if _, err := closedloop.SampleEngine(a.Proc, a.EngineKind); err != nil {
			fmt.Fprintln(os.Stderr, "qpsload:", err)
			os.Exit(1)
		}
		handler := closedloop.EngineHandler(a.Proc, a.EngineKind)
		if a.PodCPU {
			owner, err := os.Hostname()
			if err != nil {
				fmt.Fprintln(os.Stderr, "qpsload:", err)
				os.Exit(1)
			}
			handler = closedloop.EngineHandlerWithPod(a.Proc, a.EngineKind, owner)
		}
		srv := &http.Server{Addr: a.EngineCPUServer, Handler: handler}
		go func() { <-ctx.Done(); srv.Close() }()
		if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(os.Stderr, "qpsload:", err)
			os.Exit(1)
		}
		return
	}
	if a.Foreign != "" {
		p.URL = strings.TrimSpace(p.URL)
		fp := foreign.Params{URL: p.URL, Load: a.Foreign, Closed: p, Rate: a.Rate, Arrivals: a.Arrivals, Warmup: p.Warmup, Duration: p.Duration, Timeout: p.Timeout,
			ReadyTimeout: a.ReadyTimeout, ProbeOnly: a.ProbeOnly, LogDir: a.LogDir, Settle: a.Settle, EngineURL: a.EngineCPUURL, ProcRoot: a.Proc}
		if a.LogDir != "" {
			if rel, err := filepath.Rel(a.LogDir, a.Result); err == nil && !strings.HasPrefix(rel, "..") {
				fp.Skip = []string{rel, rel + ".tmp"}
			}
		}
		res, err := foreign.Conduct(ctx, fp)
		if err != nil {
			res.Failure = joinText(res.Failure, "interrupted")
		}
		if err := writeJSON(a.Result, res); err != nil {
			fmt.Fprintln(os.Stderr, "qpsload:", err)
			os.Exit(contract.ExitNoResult)
		}
		if res.Failure != "" {
			fmt.Fprintln(os.Stderr, "qpsload:", res.Failure)
			os.Exit(contract.ExitRunFailed)
		}
		fmt.Printf("%d requests sent in all, ready after %.2f s\n", res.SentTotal, res.Ready.AfterS)
		os.Exit(contract.ExitVerified)
	}
	cp := closedloop.ConductParams{Load: p, Control: control.NewClient(a.ControlPort), ReadyTimeout: a.ReadyTimeout,
		EngineURL: a.EngineCPUURL, ProcRoot: a.Proc, WrkDir: a.WrkDir, WrkTimeout: a.WrkTimeout, WrkAfter: a.WrkAfter}
	if a.Open {
		cp.OpenRate, cp.Arrivals, cp.Vegeta = a.Rate, a.Arrivals, a.Vegeta
	}
	res, err := closedloop.Conduct(ctx, cp)
	if err != nil {
		res.Failure = joinText(res.Failure, "interrupted")
	}
	if err := writeJSON(a.Result, res); err != nil {
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
	if o := res.Open; o != nil {
		fmt.Printf("%d of %d scheduled requests answered 2xx in %.2f s at %g req/s, p99 %.2f ms from the scheduled send, send lag p99 %.2f ms\n",
			o.Status2xx, o.Scheduled, o.DurationS, o.RateRPS, o.LatencyP99Ms, o.SendLagP99Ms)
		os.Exit(contract.ExitVerified)
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
