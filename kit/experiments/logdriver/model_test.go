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

// TestBufferNamesItsParts: a TCP path is the measured path with the run's queue, the
// FIFO and the driver's ring; a UDP path only what is past the socket; a file driver
// has none a consumer fills.
func TestBufferNamesItsParts(t *testing.T) {
	if got := Buffer(JSONFile, 1000, 1<<20, 128); got != 0 {
		t.Errorf("json-file: %v, want 0", got)
	}
	if got, want := Buffer(SyslogTCP, 1000, 1<<20, 128), float64((31000-100+1000+512)*128+1<<20); got != want {
		t.Errorf("syslog-tcp, non-blocking: %v, want %v", got, want)
	}
	if got, want := Buffer(SyslogUDP, 100, 1<<20, 128), float64((256+100+512)*128); got != want {
		t.Errorf("syslog-udp: %v, want %v", got, want)
	}
}

// TestDrainIsWhatTheBuffersHoldAtTheConsumersRate: 48,000 B/s too many for 8 s is
// 384,000 B, read at 16,000 B/s in 24 s; a buffer of 111,104 B drains in 6.944 s.
func TestDrainIsWhatTheBuffersHoldAtTheConsumersRate(t *testing.T) {
	m := Model{RateRPS: 500, LineBytes: 128, ConsumerBps: 16000, DurationS: 8, Blocking: true, BufferBytes: 4e6}
	if got := m.DrainS(); math.Abs(got-24) > 1e-9 {
		t.Errorf("drain %v s, want 24", got)
	}
	m.BufferBytes = 111104
	if got := m.DrainS(); math.Abs(got-6.944) > 1e-9 {
		t.Errorf("drain %v s, want 6.944", got)
	}
	m.ConsumerBps = math.Inf(1)
	if got := m.DrainS(); got != 0 {
		t.Errorf("a fast consumer drains in %v s", got)
	}
}
