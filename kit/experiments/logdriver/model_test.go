package logdriver

import (
	"math"
	"testing"
)

// TestModelAgainstHandComputedCases: each case worked out by hand.
func TestModelAgainstHandComputedCases(t *testing.T) {
	cases := []struct {
		name                 string
		m                    Model
		stallS, p99Ms, lines float64
	}{
		// 1,000 lines of 128 B a second into 64,000 B/s: 64,000 B/s too many, a 640,000 B
		// buffer is full at 10 s; the request at 0.99*20 = 19.8 s waits (19.8-10)(2-1).
		{"blocking, half speed", Model{RateRPS: 1000, LineBytes: 128, ConsumerBps: 64000, DurationS: 20, Blocking: true, BufferBytes: 640000}, 10, 9800, 0},
		// The same path not blocking drops 64,000*20 - 640,000 = 640,000 B: 5,000 lines.
		{"non-blocking, half speed", Model{RateRPS: 1000, LineBytes: 128, ConsumerBps: 64000, DurationS: 20, BufferBytes: 640000}, 10, 0, 5000},
		// A consumer that keeps up: nothing fills, nothing waits, nothing is lost.
		{"keeps up", Model{RateRPS: 100, LineBytes: 128, ConsumerBps: 12800, DurationS: 20, Blocking: true, BufferBytes: 1}, math.Inf(1), 0, 0},
		{"fast consumer", Model{RateRPS: 5000, LineBytes: 128, ConsumerBps: math.Inf(1), DurationS: 20, BufferBytes: 1}, math.Inf(1), 0, 0},
		// The buffer outlasts the run: 8 s of 100,000 B/s too many is 800,000 B < 1 MB.
		{"run ends first", Model{RateRPS: 1000, LineBytes: 128, ConsumerBps: 28000, DurationS: 8, Blocking: true, BufferBytes: 1 << 20}, math.Inf(1), 0, 0},
		// The stall begins after the 99th percentile request: p99 adds nothing yet.
		{"stall after p99", Model{RateRPS: 1000, LineBytes: 128, ConsumerBps: 64000, DurationS: 10, Blocking: true, BufferBytes: 636000}, 9.9375, 0, 0},
	}
	for _, c := range cases {
		if got := c.m.StallS(); !(got == c.stallS || math.Abs(got-c.stallS) < 1e-9) {
			t.Errorf("%s: stall at %v s, want %v", c.name, got, c.stallS)
		}
		if got := c.m.AddedP99Ms(); math.Abs(got-c.p99Ms) > 1e-6 {
			t.Errorf("%s: p99 added %v ms, want %v", c.name, got, c.p99Ms)
		}
		if got := c.m.LostLines(); math.Abs(got-c.lines) > 1e-9 {
			t.Errorf("%s: %v lines lost, want %v", c.name, got, c.lines)
		}
	}
}

// TestBufferNamesItsParts: a file driver's path is the console's pipe and the ring; a
// syslog path adds the FIFO, the receiver's queue and the sockets.
func TestBufferNamesItsParts(t *testing.T) {
	if got := Buffer(false, 1000, 0, 128); got != PipeBytes {
		t.Errorf("file, blocking: %v, want the pipe's %d", got, PipeBytes)
	}
	if got, want := Buffer(true, 1000, 1<<20, 128), float64(2*PipeBytes+1<<20+1000*128+SocketBytes); got != want {
		t.Errorf("syslog, non-blocking: %v, want %v", got, want)
	}
}
