// Package conductor runs the reference protocol of one run from inside the pod: wait
// for the API and the reader, warm up, wait until every warm-up byte is read, reset the
// counters, offer the open-loop load, note the API's CPU at the last response, wait for
// the drain, and collect everything into one contract.Result; with the engine helper,
// also the engine's own CPU and its daemon's memory from the reset to the drain's end.
// A run may have no reader (the engine's log driver is the log's consumer), or allow
// lines to be lost (contract.RunParams.LossAllowed).
package conductor

import (
	"cmp"
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
	// Reader is nil for a run without one: then the conductor neither waits for nor
	// reads a reader, and waits for no drain.
	API, Reader *control.Client
	WorkloadURL string
	Cgroup      cgroupstat.Reader
	Progress    io.Writer
	// Poll is how often to poll counters while waiting; each poll costs the API a
	// little CPU, so it stays coarse.
	Poll time.Duration
	// EngineURL is the engine helper's /sample ("": the engine is not measured), asked
	// at the reset, every EngineEvery through the load and the drain (0: a second), and
	// at the drain's end (Result.Engine).
	EngineURL   string
	EngineEvery time.Duration
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
	res.Failure = joinFailures(res.Failure, verify(res, c.Reader != nil))
	c.say("done: %s", orText(res.Failure, "verified"))
	return res
}

func (c *Conductor) run(ctx context.Context, p contract.RunParams, res *contract.Result) error {
	if p.LossAllowed && p.QuietPeriod <= 0 {
		return fmt.Errorf("loss allowed with a quiet period of %v: a drain would end at its first look", p.QuietPeriod)
	}
	c.say("waiting for %s", c.awaited())
	if err := c.waitReady(ctx); err != nil {
		return fmt.Errorf("waiting for %s: %w", c.awaited(), err)
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
	if err := c.waitDrained(ctx, p); err != nil {
		return fmt.Errorf("draining warm-up logs: %w", err)
	}
	if err := errors.Join(c.API.Post(ctx, contract.PathReset), c.readerDo(func() error { return c.Reader.Post(ctx, contract.PathReset) })); err != nil {
		return fmt.Errorf("resetting counters: %w", err)
	}
	var api contract.APIStatus
	var reader contract.ReaderStatus
	if err := errors.Join(c.API.Get(ctx, contract.PathStatus, &api), c.readerDo(func() error { return c.Reader.Get(ctx, contract.PathStatus, &reader) })); err != nil {
		return fmt.Errorf("counters after reset: %w", err)
	}
	res.APIAtReset, res.ReaderAtReset = api.Cgroup, reader.Cgroup
	endEngine := func(context.Context) {}
	res.LoadgenAtReset, _ = c.Cgroup.Read()
	if c.EngineURL != "" {
		engine := watchEngine(ctx, c.EngineURL, cmp.Or(c.EngineEvery, time.Second))
		// At the drain's end, or whenever the run ends before it.
		endEngine = func(ctx context.Context) {
			res.Engine, res.EngineRSSPeakBytes, res.EngineSamples = engine.end(ctx)
			endEngine = func(context.Context) {}
		}
		defer func() { endEngine(context.WithoutCancel(ctx)) }()
	}
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
		if err := c.waitDrained(ctx, p); err != nil {
			return fmt.Errorf("draining logs: %w", err)
		}
		return nil
	}()
	// Collect whatever there is, drained or not: a failed run is still evidence.
	reportCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	endEngine(reportCtx)
	if err := errors.Join(c.API.Get(reportCtx, contract.PathReport, &res.API), c.readerDo(func() error { return c.Reader.Get(reportCtx, contract.PathReport, &res.Reader) })); err != nil {
		return errors.Join(drainErr, fmt.Errorf("collecting reports: %w", err))
	}
	res.LoadgenAtEnd, _ = c.Cgroup.Read()
	if c.Reader != nil {
		res.LogsRead = logsRead(res)
		if n := len(res.Reader.Read); n > 0 {
			res.LastRead = res.Reader.Read[n-1].UnixNano
		}
	}
	return drainErr
}

// readerDo is do when the run has a reader, nothing when it has none.
func (c *Conductor) readerDo(do func() error) error {
	if c.Reader == nil {
		return nil
	}
	return do()
}

// awaited names what the conductor waits for to start.
func (c *Conductor) awaited() string {
	if c.Reader == nil {
		return "api"
	}
	return "api and reader"
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
		err := errors.Join(c.API.Get(ctx, contract.PathStatus, &api), c.readerDo(func() error { return c.Reader.Get(ctx, contract.PathStatus, &reader) }))
		if err == nil && api.Ready {
			return nil
		}
		if err := sleep(ctx, c.Poll); err != nil {
			return err
		}
	}
}

// waitDrained waits until the API has written all it generated and the reader has read
// all of it; with loss allowed, or until the reader has read nothing for the quiet
// period. Without a reader there is no drain to wait for.
func (c *Conductor) waitDrained(ctx context.Context, p contract.RunParams) error {
	if c.Reader == nil {
		return nil
	}
	lastRead, grew := int64(-1), time.Now()
	for {
		var api contract.APIStatus
		var reader contract.ReaderStatus
		if err := errors.Join(c.API.Get(ctx, contract.PathStatus, &api), c.Reader.Get(ctx, contract.PathStatus, &reader)); err != nil {
			return err
		}
		if api.Counters.Failure != "" {
			return fmt.Errorf("api: %s", api.Counters.Failure)
		}
		gen := api.Counters.Generated.Bytes
		if api.Counters.Written.Bytes == gen && reader.Counts.Bytes >= gen {
			return nil
		}
		if p.LossAllowed {
			if now := time.Now(); reader.Counts.Bytes != lastRead {
				lastRead, grew = reader.Counts.Bytes, now
			} else if quiet := now.Sub(grew); quiet >= p.QuietPeriod {
				c.say("drain: the reader read nothing for %v, %d of %d bytes written", quiet.Round(time.Millisecond), reader.Counts.Bytes, api.Counters.Written.Bytes)
				return nil
			}
		}
		if err := sleep(ctx, c.Poll); err != nil {
			return fmt.Errorf("%w (api wrote %d of %d bytes, reader read %d)", err, api.Counters.Written.Bytes, gen, reader.Counts.Bytes)
		}
	}
}

// verify checks the proof that no log byte was lost, or with loss allowed that none
// the reader read was damaged; without a reader, only the API's part of it. Failed
// requests are data (the errors column), not a reason to discard the run.
func verify(res contract.Result, withReader bool) string {
	var problems []string
	gen, wrote, read := res.API.Counters.Generated, res.API.Counters.Written, res.Reader.Counts
	if gen != wrote {
		problems = append(problems, fmt.Sprintf("api generated %d bytes/%d lines/%.12s but wrote %d/%d/%.12s", gen.Bytes, gen.Lines, gen.SHA256, wrote.Bytes, wrote.Lines, wrote.SHA256))
	}
	if account := res.Reader.Account; withReader {
		switch {
		case !res.Params.LossAllowed:
			if wrote != read {
				problems = append(problems, fmt.Sprintf("api wrote %d bytes/%d lines/%.12s but reader read %d/%d/%.12s", wrote.Bytes, wrote.Lines, wrote.SHA256, read.Bytes, read.Lines, read.SHA256))
			}
		case account == nil:
			problems = append(problems, "loss allowed, but the reader did not account its lines: a damaged line would pass unseen")
		}
		if account != nil && account.Corrupted > 0 {
			problems = append(problems, fmt.Sprintf("reader: %d corrupted lines", account.Corrupted))
		}
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
