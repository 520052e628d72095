// Package foreign conducts a run against a service the kit did not write: an image
// with no control port and no counters of its own. It waits until the service answers
// its URL with a 2xx status, warms it up, offers the load (the qps experiment's closed
// loop, or fifo-stall's open loop), samples the engine's CPU and the service's
// processes' CPU through the engine CPU helper around the measured interval, and
// counts the log files the service left in its log directory. Every request the
// service was sent is counted, so that its log lines can be set against them: what the
// lines say is not known and not checked.
package foreign

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/incontainer/closedloop"
	"github.com/logbench/logbench/kit/incontainer/hostload"
	"github.com/logbench/logbench/kit/incontainer/loadgen"
)

// Params are one run.
type Params struct {
	URL  string
	Load string // contract.LoadClosed or contract.LoadOpen
	// Closed is the closed loop's load, its Warmup first on the same connections.
	Closed closedloop.Params
	// The open loop: requests per second for Warmup (not measured), then Duration.
	Rate   float64
	Warmup time.Duration
	// Arrivals is the open loop's arrival process (loadgen.Constant or Poisson): the
	// warm-up's Poisson gaps are seeded with loadgen.WarmupSeed, the measured load's with
	// loadgen.MeasureSeed, the same in every run, so that runs differ by the service alone.
	Arrivals string
	Duration time.Duration
	Timeout  time.Duration
	// ReadyTimeout is the longest wait for a 2xx answer.
	ReadyTimeout time.Duration
	// ProbeOnly ends the run once the service has answered (the kit's check of its
	// port and path before the matrix).
	ProbeOnly bool
	// LogDir is where the service's log directory is mounted ("": no log file);
	// Skip are files in it that are not the service's (the conductor's result).
	LogDir string
	Skip   []string
	// Settle is how long the conductor waits after the load before counting the
	// files, for the service to write what it has buffered.
	Settle time.Duration
	// EngineURL is the engine CPU helper's /sample ("": not measured).
	EngineURL string
	// ProcRoot is the proc file system of the host's load ("": not read).
	ProcRoot string
}

// Conduct performs a run. Failures are in the result; the error is ctx's.
func Conduct(ctx context.Context, p Params) (contract.ForeignResult, error) {
	out := contract.ForeignResult{Load: p.Load}
	out.Ready = WaitReady(ctx, p.URL, p.ReadyTimeout)
	out.SentTotal = out.Ready.Probes
	if !out.Ready.OK {
		out.Failure = reason(out.Ready, p.URL, p.ReadyTimeout)
		return out, ctx.Err()
	}
	if p.ProbeOnly {
		return out, ctx.Err()
	}
	// The samples before the measured interval: the closed loop takes them from its
	// load's goroutines when the interval begins.
	var mu sync.Mutex
	var engineBefore contract.EngineSample
	var engineErr error
	var host *hostload.Sampler
	sampleBefore := func() {
		mu.Lock()
		defer mu.Unlock()
		if p.EngineURL != "" {
			engineBefore, engineErr = closedloop.FetchEngineSample(ctx, p.EngineURL)
		}
		if p.ProcRoot != "" {
			host, _ = hostload.NewSampler(p.ProcRoot)
		}
	}
	// The open loop's keep-alive connections, as many as the closed loop's, kept from
	// the warm-up into the measured load.
	open := loadgen.Plan{URL: p.URL, Rate: p.Rate, Timeout: p.Timeout, Arrivals: p.Arrivals}
	if p.Load == contract.LoadOpen {
		if p.Closed.Connections > 0 { // 0: a new connection per request, as earlier kits
			open.Conns = loadgen.NewConns(p.Closed.Connections, p.Timeout)
			defer open.Conns.Close()
		}
		if err := warmUp(ctx, open, p.Warmup, &out); err != nil {
			out.Failure = "warm-up: " + err.Error()
			return out, ctx.Err()
		}
		sampleBefore()
	}
	loadErr := measure(ctx, p, open, &out, sampleBefore)
	mu.Lock()
	defer mu.Unlock()
	if p.ProcRoot != "" {
		out.HostCPUs = runtime.NumCPU()
	}
	if host != nil {
		if s, err := host.Sample(); err == nil {
			out.Host = &s
		}
	}
	if p.EngineURL != "" {
		var after contract.EngineSample
		if engineErr == nil {
			after, engineErr = closedloop.FetchEngineSample(context.WithoutCancel(ctx), p.EngineURL)
		}
		e := closedloop.EngineDelta(engineBefore, after)
		if engineErr != nil {
			e = contract.EngineCPU{Failure: engineErr.Error()}
		}
		out.Engine = &e
	}
	if loadErr != nil {
		out.Failure = "load: " + loadErr.Error()
	}
	if p.LogDir != "" {
		if p.Settle > 0 {
			select {
			case <-time.After(p.Settle):
			case <-ctx.Done():
			}
		}
		out.Files, out.FilesFailure = CountFiles(p.LogDir, p.Skip)
	}
	return out, ctx.Err()
}

// warmUp offers the open loop's warm-up; every request of it has ended when it returns.
func warmUp(ctx context.Context, open loadgen.Plan, warmup time.Duration, out *contract.ForeignResult) error {
	out.SentTotal += loadgen.WarmUp(ctx, open, warmup)
	return ctx.Err()
}

// measure offers the measured load. The closed loop warms up and measures on the same
// connections, calling atStart when the measured interval begins, so that only the
// requests in flight when it stops are sent and perhaps not served.
func measure(ctx context.Context, p Params, open loadgen.Plan, out *contract.ForeignResult, atStart func()) error {
	switch p.Load {
	case contract.LoadClosed:
		l := p.Closed
		l.URL, l.AtMeasureStart = p.URL, atStart
		if l.Warmup <= 0 {
			atStart()
		}
		res, err := closedloop.Run(ctx, l)
		out.Closed = &res
		out.SentTotal += res.SentTotal
		return err
	case contract.LoadOpen:
		r, sent := loadgen.Measure(ctx, open, p.Duration)
		out.SentTotal += sent
		out.Open = &r
		return ctx.Err()
	}
	return fmt.Errorf("unknown load %q", p.Load)
}

// WaitReady asks url until it answers 2xx or timeout passes; every request counts.
func WaitReady(ctx context.Context, rawURL string, timeout time.Duration) contract.ForeignReady {
	started := time.Now()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 2 * time.Second}
	var r contract.ForeignReady
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
		if err != nil {
			r.LastError = err.Error()
			return r
		}
		r.Attempts++
		resp, err := client.Do(req)
		if err == nil {
			r.Probes++
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			r.LastStatus, r.LastError = resp.StatusCode, ""
			if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
				r.OK, r.AfterS = true, time.Since(started).Seconds()
				return r
			}
		} else {
			r.LastError = err.Error()
		}
		select {
		case <-ctx.Done():
			return r
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// reason says in one line why the service was not ready.
func reason(r contract.ForeignReady, rawURL string, timeout time.Duration) string {
	u, _ := url.Parse(rawURL)
	host, path := rawURL, "/"
	if u != nil {
		host, path = u.Host, u.RequestURI()
	}
	switch {
	case r.LastStatus != 0:
		return fmt.Sprintf("GET %s answered %d %s, not 2xx (for %s)", path, r.LastStatus, http.StatusText(r.LastStatus), timeout)
	case refused(r.LastError):
		return fmt.Sprintf("nothing listened on %s within %s", host, timeout)
	}
	return fmt.Sprintf("GET %s got no answer within %s: %s", path, timeout, r.LastError)
}

func refused(msg string) bool {
	return msg == "" || strings.Contains(msg, "connection refused") || strings.Contains(msg, "context deadline exceeded")
}

// CountFiles counts the lines and bytes of every regular file under dir but skip.
func CountFiles(dir string, skip []string) ([]contract.LogFile, string) {
	files := []contract.LogFile{}
	var failures []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			failures = append(failures, err.Error())
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		if !d.Type().IsRegular() || slices.Contains(skip, rel) {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			failures = append(failures, err.Error())
			return nil
		}
		defer f.Close()
		c := contract.LogFile{Path: rel}
		buf := make([]byte, 1<<16)
		for {
			n, err := f.Read(buf)
			c.Bytes += int64(n)
			for _, b := range buf[:n] {
				if b == '\n' {
					c.Lines++
				}
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				failures = append(failures, err.Error())
				break
			}
		}
		files = append(files, c)
		return nil
	})
	if err != nil {
		failures = append(failures, err.Error())
	}
	return files, strings.Join(failures, "; ")
}
