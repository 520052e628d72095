package contract

import (
	"flag"
	"io"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// parsed reads args back the way the program does: its defaults, then Bind and Parse.
func parsed[T any](t *testing.T, defaults T, bind func(*T, *flag.FlagSet), args []string) T {
	t.Helper()
	fs := flag.NewFlagSet("program", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	have := defaults
	bind(&have, fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return have
}

// TestEveryProgramReadsBackWhatTheHostWrites: a command line the host writes is read by
// the program as the very values it was written from, and every field is a flag.
func TestEveryProgramReadsBackWhatTheHostWrites(t *testing.T) {
	api := APIArgs{Mode: "json-sync", FIFO: "/x/fifo", MaxLogBytes: 1 << 20, AccessLog: "console+file", LogDir: "/x/logs", LineBytes: 4096}
	if have := parsed(t, DefaultAPIArgs(), (*APIArgs).Bind, api.Args()); have != api {
		t.Errorf("api: %s", cmp.Diff(api, have))
	}
	// The fifo-stall API's own flags, which the Python API takes too.
	fifo := APIArgs{Mode: "json-sync", FIFO: "/x/fifo", MaxLogBytes: 1 << 20, LogDir: DefaultAPIArgs().LogDir, LineBytes: NumberedLineBytes}
	if have := parsed(t, DefaultAPIArgs(), (*APIArgs).Bind, fifo.FIFOArgs()); have != fifo {
		t.Errorf("api, fifo-stall's flags: %s", cmp.Diff(fifo, have))
	}
	if n := len(fifo.FIFOArgs()); n != 3 {
		t.Errorf("lines of the usual length add a flag to fifo-stall's command line: %q", fifo.FIFOArgs())
	}
	// Longer numbered lines, which the three APIs take.
	fifo.Mode, fifo.LineBytes = "numbered", 16384
	if have := parsed(t, DefaultAPIArgs(), (*APIArgs).Bind, fifo.FIFOArgs()); have != fifo {
		t.Errorf("api, numbered lines of 16 KiB: %s", cmp.Diff(fifo, have))
	}
	reader := ReaderArgs{FIFO: "/y", RateBytes: 262144, Account: true, LineBytes: 4096}
	if have := parsed(t, DefaultReaderArgs(), (*ReaderArgs).Bind, reader.Args()); have != reader {
		t.Errorf("reader: %s", cmp.Diff(reader, have))
	}
	lg := LoadgenArgs{Run: RunParams{Rate: 12.5, Duration: 3 * time.Second, WarmupCount: 4, RequestTimeout: 7 * time.Second, MaxRunTime: time.Minute, MeasureTimer: true,
		LossAllowed: true, QuietPeriod: 1500 * time.Millisecond},
		Sweep: "100,200", SweepStep: time.Second, SweepMaxLag: 2 * time.Millisecond, SweepTrials: 5, GOMAXPROCS: 2, Result: "/r.json",
		WithReader: true, ReaderFIFO: "/f", ReaderRate: 1000, AsReader: true, NoReader: true, EngineCPUURL: "http://127.0.0.1:9003/sample"}
	if have := parsed(t, DefaultLoadgenArgs(), (*LoadgenArgs).Bind, lg.Args()); have != lg {
		t.Errorf("loadgen: %s", cmp.Diff(lg, have))
	}
	// A zero value is written too, and read back as zero, not as the default.
	if have := parsed(t, DefaultLoadgenArgs(), (*LoadgenArgs).Bind, LoadgenArgs{}.Args()); have != (LoadgenArgs{}) {
		t.Errorf("zero loadgen: %s", cmp.Diff(LoadgenArgs{}, have))
	}
	load := QPSLoadArgs{URL: "http://127.0.0.1:8081/health", Connections: 7, Pipelining: 2, Duration: 2500 * time.Millisecond, Warmup: 300 * time.Millisecond,
		Timeout: 3 * time.Second, CPULimit: 0.75, ControlPort: 9100, ReadyTimeout: 20 * time.Second, Result: "/q.json",
		EngineCPUURL: "http://127.0.0.1:9002/sample", Proc: "/host/proc", WrkDir: "/w", WrkAfter: true, WrkTimeout: 90 * time.Second,
		EngineCPUServer: "127.0.0.1:9002", PodCPU: true, EngineKind: EnginePodman, Foreign: "open", Rate: 42.5, LogDir: "/logs",
		Settle: time.Second, ProbeOnly: true}
	if have := parsed(t, DefaultQPSLoadArgs(), (*QPSLoadArgs).Bind, load.Args()); have != load {
		t.Errorf("qpsload: %s", cmp.Diff(load, have))
	}
	if have := parsed(t, DefaultQPSLoadArgs(), (*QPSLoadArgs).Bind, QPSLoadArgs{}.Args()); have != (QPSLoadArgs{}) {
		t.Errorf("zero qpsload: %s", cmp.Diff(QPSLoadArgs{}, have))
	}
	probe := ProbeArgs{Rounds: 3, Requests: 40, Syscalls: 700, Result: "/p.json"}
	if have := parsed(t, DefaultProbeArgs(), (*ProbeArgs).Bind, probe.Args()); have != probe {
		t.Errorf("probe: %s", cmp.Diff(probe, have))
	}
	if have := parsed(t, DefaultProbeArgs(), (*ProbeArgs).Bind, ProbeArgs{}.Args()); have != (ProbeArgs{}) {
		t.Errorf("zero probe: %s", cmp.Diff(ProbeArgs{}, have))
	}
	// line-cost's defaults are the measurement's (kit/incontainer/linecost.DefaultArgs,
	// whose test holds them to its configuration's): any other values read back alike.
	lc := LineCostArgs{Library: "zap", Line: "json-notime", Ways: "buffered,fsync", Lines: 1500, Trials: 3, Warmup: 2, Dir: "/d",
		Out: "/d/lc.json", QueueSize: 64, QueueFull: "drop"}
	defaults := LineCostArgs{Library: "slog", Line: "default", Ways: "format", Lines: 20000, Trials: 5, Warmup: 1, Dir: RunDir, Out: "-",
		QueueSize: 1024, QueueFull: "block"}
	if have := parsed(t, defaults, (*LineCostArgs).Bind, lc.Args()); have != lc {
		t.Errorf("linecost: %s", cmp.Diff(lc, have))
	}
	if have := parsed(t, defaults, (*LineCostArgs).Bind, LineCostArgs{}.Args()); have != (LineCostArgs{}) {
		t.Errorf("zero linecost: %s", cmp.Diff(LineCostArgs{}, have))
	}
}
