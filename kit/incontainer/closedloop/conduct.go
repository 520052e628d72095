package closedloop

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/incontainer/control"
	"github.com/logbench/logbench/kit/incontainer/hostload"
	"github.com/logbench/logbench/kit/incontainer/loadgen"
)

// The conductor of one qps run: wait for the API's control port to say ready, warm up
// (the closed loop, or in a capacity search's step the open loop),
// let wrk load the API (when asked), reset the API's counters, offer the measured load, ask the API for its report (its
// counters per log sink), and read the date-named log file back from the shared volume,
// so that the run's result says what the API wrote and what is on disk.

// ConductParams are one qps run.
type ConductParams struct {
	Load         Params // Warmup is offered first, apart, before the reset
	Control      *control.Client
	ReadyTimeout time.Duration
	// EngineURL is the engine CPU helper's /sample ("": not measured).
	EngineURL string
	// ProcRoot is the proc file system the host's load is read from ("": not read).
	ProcRoot string
	// WrkDir is where the wrk container waits for its turn (RunWrk; "": no wrk phase),
	// WrkTimeout the longest wait for it.
	WrkDir     string
	WrkTimeout time.Duration
	// WrkAfter runs wrk after the measured load and the report in place of before it,
	// then asks the API for its report again and reads the file back again.
	WrkAfter bool
	// OpenRate, when above 0, offers the open loop at this many requests per second,
	// with Arrivals, for the warm-up and the measured load in place of Load's closed
	// loop (its URL, Warmup, Duration and Timeout still apply).
	OpenRate float64
	Arrivals string
	// Vegeta, with OpenRate, has vegeta's attacker and the kit's open loop offer half
	// the rate each, at once, on half the connections each, for the duration, after the
	// warm-up and before the reset: an independent open loop measuring the same seconds
	// as the kit's.
	Vegeta bool
}

// Conduct runs a qps run. Failures are in the result; the error is ctx's.
func Conduct(ctx context.Context, p ConductParams) (contract.QPSResult, error) {
	var out contract.QPSResult
	started := time.Now()
	if err := waitReady(ctx, p.Control, p.ReadyTimeout); err != nil {
		out.Failure = "the API never said ready: " + err.Error()
		return out, ctx.Err()
	}
	out.ReadyAfterS = time.Since(started).Seconds()
	open := loadgen.Plan{URL: p.Load.URL, Rate: p.OpenRate, Timeout: p.Load.Timeout, Arrivals: p.Arrivals}
	if p.OpenRate > 0 {
		if p.Load.Connections > 0 {
			open.Conns = loadgen.NewConns(p.Load.Connections, p.Load.Timeout)
			defer open.Conns.Close()
		}
		out.Warmup.SentTotal = loadgen.WarmUp(ctx, open, p.Load.Warmup)
		if ctx.Err() != nil {
			out.Failure = "warm-up: " + ctx.Err().Error()
			return out, ctx.Err()
		}
	} else if p.Load.Warmup > 0 {
		w := p.Load
		w.Duration, w.Warmup = p.Load.Warmup, 0
		res, err := Run(ctx, w)
		out.Warmup = res
		if err != nil {
			out.Failure = "warm-up: " + err.Error()
			return out, ctx.Err()
		}
	}
	// wrk loads the warm API now, alone, right before the kit's measured load and
	// before the reset, so that the API's counters since the reset are the kit's load
	// only and its totals (what the console and the file hold) include wrk's lines.
	if p.WrkDir != "" && !p.WrkAfter {
		runWrk(ctx, p, &out)
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
	}
	// vegeta, like wrk, loads the warm API before the reset: its lines are in the totals,
	// none in the measured load's counts; its attack ends once every response is in.
	if p.Vegeta && p.OpenRate > 0 {
		v, kit := vegetaBeside(ctx, p)
		out.Vegeta, out.VegetaKit = &v, &kit
		if ctx.Err() != nil {
			out.Failure = "vegeta: " + ctx.Err().Error()
			return out, ctx.Err()
		}
	}
	// The warm-up's requests still in flight when it ended are answered, and their lines
	// written, before the reset, so that none is counted as the measured load's.
	if out.Warmup.SentTotal > 0 {
		if _, err := settledReport(ctx, p.Control, out.Warmup.SentTotal); err != nil {
			out.Failure = "the API's report after the warm-up: " + err.Error()
			return out, ctx.Err()
		}
	}
	if err := p.Control.Post(ctx, "/reset"); err != nil {
		out.Failure = "resetting the API's counters: " + err.Error()
		return out, ctx.Err()
	}
	var engineBefore contract.EngineSample
	var engineErr error
	if p.EngineURL != "" {
		engineBefore, engineErr = getEngineSample(ctx, p.EngineURL)
	}
	var host *hostload.Sampler
	if p.ProcRoot != "" {
		host, _ = hostload.NewSampler(p.ProcRoot) // a host that cannot be read is said by an absent figure
		out.HostCPUs = runtime.NumCPU()
	}
	var sent int64
	var err error
	if p.OpenRate > 0 {
		r, n := loadgen.Measure(ctx, open, p.Load.Duration)
		out.Open, sent, err = &r, n, ctx.Err()
	} else {
		load := p.Load
		load.Warmup = 0
		out.Load, err = Run(ctx, load)
		sent = out.Load.SentTotal
	}
	if host != nil {
		if s, err := host.Sample(); err == nil {
			out.Host = &s
		}
	}
	if p.EngineURL != "" {
		var after contract.EngineSample
		if engineErr == nil {
			after, engineErr = getEngineSample(context.WithoutCancel(ctx), p.EngineURL)
		}
		e := EngineDelta(engineBefore, after)
		if engineErr != nil {
			e = contract.EngineCPU{Failure: engineErr.Error()}
		}
		out.Engine = &e
	}
	if err != nil {
		out.Failure = "load: " + err.Error()
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
	}
	// The report outlives an interrupt: what was measured is kept.
	reportCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	rep, err := settledReport(reportCtx, p.Control, sent)
	if err != nil {
		out.Failure = join(out.Failure, "the API's report: "+err.Error())
		return out, ctx.Err()
	}
	out.API = &rep
	if f, ok := rep.Sinks["file"]; ok {
		rb := ReadBack(f.Path, f.StartOffsetBytes)
		out.File = &rb
	}
	if p.WrkDir != "" && p.WrkAfter && ctx.Err() == nil {
		out.WrkAfterKit = true
		runWrk(ctx, p, &out)
		var after contract.AccessLogReport
		afterCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
		defer cancel()
		if err := p.Control.Get(afterCtx, "/report", &after); err != nil {
			out.Failure = join(out.Failure, "the API's report after wrk: "+err.Error())
			return out, ctx.Err()
		}
		out.APIAfterWrk = &after
		if f, ok := after.Sinks["file"]; ok {
			rb := ReadBack(f.Path, f.StartOffsetBytes)
			out.FileAfterWrk = &rb
		}
	}
	return out, ctx.Err()
}

// runWrk is the wrk phase and the host's load over it.
func runWrk(ctx context.Context, p ConductParams, out *contract.QPSResult) {
	var host *hostload.Sampler
	if p.ProcRoot != "" {
		host, _ = hostload.NewSampler(p.ProcRoot)
	}
	w := RunWrk(ctx, p.WrkDir, p.WrkTimeout)
	out.Wrk = &w
	if host != nil {
		if s, err := host.Sample(); err == nil {
			out.WrkHost = &s
		}
	}
}

// ReadBack counts the file at path, whole and from offset on.
func ReadBack(path string, offset int64) contract.FileReadback {
	out := contract.FileReadback{Path: path}
	if path == "" {
		out.Failure = "the API named no file"
		return out
	}
	f, err := os.Open(path)
	if err != nil {
		out.Failure = err.Error()
		return out
	}
	defer f.Close()
	whole, from := sha256.New(), sha256.New()
	var pos int64
	r := bufio.NewReaderSize(f, 1<<16)
	buf := make([]byte, 1<<16)
	for {
		n, err := r.Read(buf)
		chunk := buf[:n]
		whole.Write(chunk)
		out.Whole.Bytes += int64(n)
		lines := countLines(chunk)
		out.Whole.Lines += lines
		if pos+int64(n) > offset {
			tail := chunk
			if pos < offset {
				tail = chunk[offset-pos:]
			}
			from.Write(tail)
			out.FromOffset.Bytes += int64(len(tail))
			out.FromOffset.Lines += countLines(tail)
		}
		pos += int64(n)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			out.Failure = err.Error()
			return out
		}
	}
	if offset > pos {
		out.Failure = fmt.Sprintf("the file has %d bytes, fewer than the start offset %d", pos, offset)
	}
	out.Whole.SHA256 = hex.EncodeToString(whole.Sum(nil))
	out.FromOffset.SHA256 = hex.EncodeToString(from.Sum(nil))
	return out
}

func countLines(b []byte) int64 {
	var n int64
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}

func waitReady(ctx context.Context, c *control.Client, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var last error
	for {
		var st struct {
			Ready bool `json:"ready"`
		}
		err := c.Get(ctx, "/ready", &st)
		if err == nil && st.Ready {
			return nil
		}
		if err != nil {
			last = err
		}
		select {
		case <-ctx.Done():
			if last == nil {
				last = ctx.Err()
			}
			return last
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// settleBound is how long the conductor waits for the requests still in flight when the
// load ended to be answered and logged before it takes the API's report.
const settleBound = 2 * time.Second

// settledReport takes the API's report once it has answered every request the load
// sent since the reset (those in flight at the load's end are answered, and their access
// lines written, after it), or after settleBound, whichever comes first: otherwise a
// line written between the report and the file's read-back would set the two apart.
func settledReport(ctx context.Context, c *control.Client, sent int64) (contract.AccessLogReport, error) {
	deadline := time.Now().Add(settleBound)
	for {
		var rep contract.AccessLogReport
		if err := c.Get(ctx, "/report", &rep); err != nil {
			return rep, err
		}
		if rep.Requests >= sent || time.Now().After(deadline) {
			return rep, nil
		}
		select {
		case <-ctx.Done():
			return rep, nil
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// vegetaBeside has vegeta and the kit's open loop each offer half of p's rate at once,
// on half its connections each (one at least), so that each instrument's latencies are
// of the same seconds of the same API, and says what each measured.
func vegetaBeside(ctx context.Context, p ConductParams) (contract.VegetaRun, contract.OpenLoopResult) {
	conns := max(1, p.Load.Connections/2)
	half := loadgen.Plan{URL: p.Load.URL, Rate: p.OpenRate / 2, Timeout: p.Load.Timeout, Arrivals: p.Arrivals, Conns: loadgen.NewConns(conns, p.Load.Timeout)}
	defer half.Conns.Close()
	var kit contract.OpenLoopResult
	done := make(chan struct{})
	go func() {
		defer close(done)
		kit, _ = loadgen.Measure(ctx, half, p.Load.Duration)
	}()
	v := loadgen.Vegeta(ctx, p.Load.URL, p.OpenRate/2, p.Load.Duration, conns, p.Load.Timeout)
	<-done
	return v, kit
}
