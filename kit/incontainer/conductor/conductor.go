// Package conductor runs the reference protocol of one run from inside the pod: wait
// for the API and the reader, warm up, wait until every warm-up byte is read, reset the
// counters, offer the open-loop load, note the API's CPU at the last response, wait for
// the drain, and collect everything into one contract.Result.
package conductor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/incontainer/cgroupstat"
	"github.com/logbench/logbench/kit/incontainer/control"
	"github.com/logbench/logbench/kit/incontainer/hostload"
	"github.com/logbench/logbench/kit/incontainer/loadgen"
	"github.com/logbench/logbench/kit/incontainer/procinfo"
)

// Conductor drives one run.
type Conductor struct {
	API, Reader *control.Client
	WorkloadURL string
	Cgroup      cgroupstat.Reader
	Progress    io.Writer
	// Poll is how often to poll counters while waiting; each poll costs the API a
	// little CPU, so it stays coarse.
	Poll time.Duration
}

// Run conducts the protocol. It returns a contract.Result whenever anything was measured; a
// run that went wrong says so in Result.Failure.
func (c *Conductor) Run(ctx context.Context, p contract.RunParams) contract.Result {
	res := contract.Result{Params: p, Loadgen: procinfo.Read()}
	ctx, cancel := context.WithTimeout(ctx, p.MaxRunTime)
	defer cancel()
	err := c.run(ctx, p, &res)
	if err != nil {
		res.Failure = err.Error()
		if errors.Is(err, context.DeadlineExceeded) {
			res.StopCondition = fmt.Sprintf("run time cap of %v reached", p.MaxRunTime)
		}
	}
	res.Failure = joinFailures(res.Failure, verify(res))
	c.say("done: %s", orText(res.Failure, "verified"))
	return res
}

func (c *Conductor) run(ctx context.Context, p contract.RunParams, res *contract.Result) error {
	c.say("waiting for api and reader")
	if err := c.waitReady(ctx); err != nil {
		return fmt.Errorf("waiting for api and reader: %w", err)
	}

	if p.MeasureTimer {
		t := loadgen.MeasureTimer(200)
		res.Timer = &t
	}
	c.say("warm-up: %d requests", p.WarmupCount)
	warmStart := time.Now()
	res.WarmupStart = warmStart.UnixNano()
	res.Warmup = loadgen.Offer(ctx, loadgen.Plan{URL: c.WorkloadURL, Rate: p.Rate, Count: p.WarmupCount,
		Start: warmStart, FirstSeq: -int64(p.WarmupCount), Timeout: p.RequestTimeout})
	if _, err := c.waitDrained(ctx); err != nil {
		return fmt.Errorf("draining warm-up logs: %w", err)
	}
	if err := errors.Join(c.API.Post(ctx, contract.PathReset), c.Reader.Post(ctx, contract.PathReset)); err != nil {
		return fmt.Errorf("resetting counters: %w", err)
	}
	var api contract.APIStatus
	var reader contract.ReaderStatus
	if err := errors.Join(c.API.Get(ctx, contract.PathStatus, &api), c.Reader.Get(ctx, contract.PathStatus, &reader)); err != nil {
		return fmt.Errorf("counters after reset: %w", err)
	}
	res.APIAtReset, res.ReaderAtReset = api.Cgroup, reader.Cgroup
	res.LoadgenAtReset, _ = c.Cgroup.Read()
	if sampler, err := hostload.NewSampler("/proc"); err == nil {
		sampling, stopSampling := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			res.HostLoad = sampler.Every(sampling, time.Second)
		}()
		defer func() { stopSampling(); <-done }()
	}

	c.say("load: %d requests at %g req/s", p.Count(), p.Rate)
	start := time.Now().Add(20 * time.Millisecond) // time for the scheduler to be on time for the first
	res.LoadStart = start.UnixNano()
	restoreGC := quietGC()
	res.Requests = loadgen.Offer(ctx, loadgen.Plan{URL: c.WorkloadURL, Rate: p.Rate, Count: p.Count(),
		Start: start, Timeout: p.RequestTimeout})
	restoreGC()
	for _, o := range res.Requests {
		res.LastResponse = max(res.LastResponse, o.Done)
	}
	if err := c.API.Get(ctx, contract.PathStatus, &api); err != nil {
		return fmt.Errorf("api counters at the last response: %w", err)
	}
	res.APIAtLastResponse = api.Cgroup

	c.say("drain: %d log bytes generated", api.Counters.Generated.Bytes)
	drainErr := func() error {
		if _, err := c.waitDrained(ctx); err != nil {
			return fmt.Errorf("draining logs: %w", err)
		}
		return nil
	}()
	// Collect whatever there is, drained or not: a failed run is still evidence.
	reportCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := errors.Join(c.API.Get(reportCtx, contract.PathReport, &res.API), c.Reader.Get(reportCtx, contract.PathReport, &res.Reader)); err != nil {
		return errors.Join(drainErr, fmt.Errorf("collecting reports: %w", err))
	}
	res.LoadgenAtEnd, _ = c.Cgroup.Read()
	res.LogsRead = logsRead(res)
	return drainErr
}

// logsRead is the time of the read that brought the reader level with everything the
// API generated; with nothing to read, the logs are read when the last response is.
// It takes a pointer: a copy of the whole result would read HostLoad while the host
// sampler may still be writing it.
func logsRead(res *contract.Result) int64 {
	total := res.API.Counters.Generated.Bytes
	if total == 0 {
		return res.LastResponse
	}
	for _, s := range res.Reader.Read {
		if s.Bytes >= total {
			return s.UnixNano
		}
	}
	return 0
}

func (c *Conductor) waitReady(ctx context.Context) error {
	for {
		var api contract.APIStatus
		var reader contract.ReaderStatus
		err := errors.Join(c.API.Get(ctx, contract.PathStatus, &api), c.Reader.Get(ctx, contract.PathStatus, &reader))
		if err == nil && api.Ready {
			return nil
		}
		if err := sleep(ctx, c.Poll); err != nil {
			return err
		}
	}
}

// waitDrained waits until the API has written all it generated and the reader has read
// all of it.
func (c *Conductor) waitDrained(ctx context.Context) (int64, error) {
	for {
		var api contract.APIStatus
		var reader contract.ReaderStatus
		if err := errors.Join(c.API.Get(ctx, contract.PathStatus, &api), c.Reader.Get(ctx, contract.PathStatus, &reader)); err != nil {
			return 0, err
		}
		if api.Counters.Failure != "" {
			return 0, fmt.Errorf("api: %s", api.Counters.Failure)
		}
		gen := api.Counters.Generated.Bytes
		if api.Counters.Written.Bytes == gen && reader.Counts.Bytes >= gen {
			return gen, nil
		}
		if err := sleep(ctx, c.Poll); err != nil {
			return 0, fmt.Errorf("%w (api wrote %d of %d bytes, reader read %d)", err, api.Counters.Written.Bytes, gen, reader.Counts.Bytes)
		}
	}
}

// verify checks the proof that no log byte was lost. Failed requests are data (the
// errors column), not a reason to discard the run.
func verify(res contract.Result) string {
	var problems []string
	gen, wrote, read := res.API.Counters.Generated, res.API.Counters.Written, res.Reader.Counts
	if gen != wrote {
		problems = append(problems, fmt.Sprintf("api generated %d bytes/%d lines/%.12s but wrote %d/%d/%.12s", gen.Bytes, gen.Lines, gen.SHA256, wrote.Bytes, wrote.Lines, wrote.SHA256))
	}
	if wrote != read {
		problems = append(problems, fmt.Sprintf("api wrote %d bytes/%d lines/%.12s but reader read %d/%d/%.12s", wrote.Bytes, wrote.Lines, wrote.SHA256, read.Bytes, read.Lines, read.SHA256))
	}
	if n := res.API.Counters.QueueDrops; n > 0 {
		problems = append(problems, fmt.Sprintf("%d records dropped by the full queue", n))
	}
	if f := res.API.Counters.Failure; f != "" {
		problems = append(problems, "api: "+f)
	}
	return strings.Join(problems, "; ")
}

func joinFailures(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "" || strings.Contains(a, b):
		return a
	}
	return a + "; " + b
}

func orText(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}

func (c *Conductor) say(format string, args ...any) {
	if c.Progress != nil {
		fmt.Fprintf(c.Progress, format+"\n", args...)
	}
}

// loadMemoryLimit bounds the heap while the collector waits (quietGC): far below the
// container's limit, far above what a run's load allocates (tens of kilobytes a
// request).
const loadMemoryLimit = 64 << 20

// quietGC keeps the garbage collector from starting a cycle during the measured load
// unless the heap nears loadMemoryLimit: a cycle's stop-the-world phases and its
// worker taking a processor land on scheduled sends as send lag. It collects first, so
// the load starts with an empty heap, and returns what puts the collector back.
func quietGC() (restore func()) {
	runtime.GC()
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(loadMemoryLimit)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
