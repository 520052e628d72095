package conductor

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"syscall"
	"time"

	"github.com/logbench/logbench/kit/contract"
	"github.com/logbench/logbench/kit/incontainer/closedloop"
)

// The engine's own cost. A log driver's work is done outside every container of the
// pod: dockerd reads the API's stdout, encodes each line and holds what its consumer
// has not taken yet. The engine helper, in the host's PID namespace, samples the
// engine's processes (closedloop.EngineHandler); the conductor asks it at the reset,
// about once a second through the load and the drain, for the daemon's peak memory,
// and at the drain's end, for the CPU between the two ends.

// engineSampleTimeout bounds one request to the helper: a sample is a walk of the
// host's /proc, milliseconds even under load.
const engineSampleTimeout = 5 * time.Second

// engineStartWait is how long the first sample is tried again while nothing listens:
// the helper starts just before the conductor and may not listen yet. A helper that
// answers with an error is not asked again.
const engineStartWait = 3 * time.Second

// engineWatch samples the engine from the reset to the end of the drain.
type engineWatch struct {
	url    string
	mu     sync.Mutex
	before contract.EngineSample
	err    error // the first sample's failure: nothing else is asked then
	peak   int64
	n      int
	stop   context.CancelFunc
	done   chan struct{}
}

// watchEngine takes the first sample and samples every `every` after it until end.
func watchEngine(ctx context.Context, url string, every time.Duration) *engineWatch {
	w := &engineWatch{url: url, done: make(chan struct{})}
	w.before, w.err = firstSample(ctx, url)
	if w.err != nil {
		close(w.done)
		w.stop = func() {}
		return w
	}
	w.note(w.before)
	sampling, stop := context.WithCancel(ctx)
	w.stop = stop
	go func() {
		defer close(w.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-sampling.Done():
				return
			case <-t.C:
			}
			one, cancel := context.WithTimeout(sampling, engineSampleTimeout)
			s, err := closedloop.FetchEngineSample(one, url)
			cancel()
			if err == nil {
				w.note(s) // a sample missed between the ends only thins the peak's watch
			}
		}
	}()
	return w
}

func firstSample(ctx context.Context, url string) (contract.EngineSample, error) {
	deadline := time.Now().Add(engineStartWait)
	for {
		one, cancel := context.WithTimeout(ctx, engineSampleTimeout)
		s, err := closedloop.FetchEngineSample(one, url)
		cancel()
		if err == nil || !errors.Is(err, syscall.ECONNREFUSED) || time.Now().After(deadline) || ctx.Err() != nil {
			return s, err
		}
		if sleep(ctx, 100*time.Millisecond) != nil {
			return s, err
		}
	}
}

func (w *engineWatch) note(s contract.EngineSample) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.peak = max(w.peak, s.DaemonRSSBytes())
	w.n++
}

// end stops the sampling, takes the last sample (ctx is the collection's, alive after
// the run's) and says the engine's CPU between the ends, the daemon's peak memory and
// how many samples saw it. A failed sample is the measurement's failure, not the run's.
func (w *engineWatch) end(ctx context.Context) (*contract.EngineCPU, int64, int) {
	w.stop()
	<-w.done
	if w.err != nil {
		return &contract.EngineCPU{Failure: fmt.Sprintf("engine sample at the reset: %v", w.err)}, 0, 0
	}
	one, cancel := context.WithTimeout(ctx, engineSampleTimeout)
	after, err := closedloop.FetchEngineSample(one, w.url)
	cancel()
	if err != nil {
		return &contract.EngineCPU{Before: w.before, Failure: fmt.Sprintf("engine sample at the drain's end: %v", err)}, w.peak, w.n
	}
	w.note(after)
	e := closedloop.EngineDelta(w.before, after)
	return &e, w.peak, w.n
}
