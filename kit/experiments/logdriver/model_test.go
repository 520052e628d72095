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

// TestTheTCPPathIsCountedInWireBytes: each line crosses the socket with its syslog
// header, so the measured path (31,000 lines of 128 bytes, 183 on the wire: 5,673,000
// bytes) holds 5,673,000/(4,096+55) = 1,366.66 lines of 4 KiB and 5,673,000/16,439 =
// 345.10 of 16 KiB; a 64 KiB pipe holds 16 and 4 of them.
func TestTheTCPPathIsCountedInWireBytes(t *testing.T) {
	if TCPPathBytes != 5_673_000 || SyslogHeaderBytes != 55 {
		t.Fatalf("TCPPathBytes %d, SyslogHeaderBytes %d", TCPPathBytes, SyslogHeaderBytes)
	}
	for _, c := range []struct {
		line, lines, buffer float64
	}{
		{128, 31000, (31000 - 100 + 100 + 512) * 128},
		{4096, 5673000.0 / 4151, (5673000.0/4151 - 100 + 100 + 16) * 4096},
		{16384, 5673000.0 / 16439, (5673000.0/16439 - 100 + 100 + 4) * 16384},
		{65536, 5673000.0 / 65591, (5673000.0/65591 - 100 + 100 + 1) * 65536},
	} {
		if got := TCPLinesInFlight(c.line); math.Abs(got-c.lines) > 1e-9 {
			t.Errorf("%v-byte lines: %v in flight, want %v", c.line, got, c.lines)
		}
		if got := Buffer(SyslogTCP, 100, 0, c.line); math.Abs(got-c.buffer) > 1e-6 {
			t.Errorf("%v-byte lines: buffer %v, want %v", c.line, got, c.buffer)
		}
	}
	if got, want := Buffer(SyslogUDP, 100, 1<<20, 4096), float64((256+100+16)*4096); got != want {
		t.Errorf("syslog-udp, 4 KiB lines: %v, want %v", got, want)
	}
}

// TestTheStallOfLongLines: the run the page reports, 400 lines of 4 KiB a second for 15 s
// into 768 KiB/s through TCP with a queue of 100. P = 1,638,400 B/s, C = 786,432 B/s:
// 851,968 B/s too many. Blocking, B = (1,366.66+16) x 4,096 = 5,663,369.8 B is full at
// 6.6474 s; the request at 14.85 s waits (14.85-6.6474)(1,638,400/786,432-1) = 8.886 s;
// the consumer drains B in 7.2013 s. Non-blocking with a 1 MiB ring, B = 6,711,945.8 B:
// 851,968 x 15 - 6,711,945.8 = 6,067,574.2 B lost, 1,481.34 lines; drain 8.5347 s.
func TestTheStallOfLongLines(t *testing.T) {
	b := (5673000.0/4151 + 16) * 4096
	m := Model{RateRPS: 400, LineBytes: 4096, ConsumerBps: 768 << 10, DurationS: 15, Blocking: true, BufferBytes: Buffer(SyslogTCP, 100, 0, 4096)}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"buffer", m.BufferBytes, b},
		{"stall", m.StallS(), b / 851968},
		{"p99 added", m.AddedP99Ms(), (14.85 - b/851968) * (1638400.0/786432 - 1) * 1000},
		{"drain", m.DrainS(), b / 786432},
	} {
		if math.Abs(c.got-c.want) > 1e-6 {
			t.Errorf("blocking %s: %v, want %v", c.name, c.got, c.want)
		}
	}
	if math.Abs(m.AddedP99Ms()-8886) > 1 || math.Abs(m.DrainS()-7.2013) > 1e-3 {
		t.Errorf("blocking: %v ms added, %v s drain; want about 8,886 and 7.2013", m.AddedP99Ms(), m.DrainS())
	}
	m.Blocking, m.BufferBytes = false, Buffer(SyslogTCP, 100, 1<<20, 4096)
	if math.Abs(m.LostLines()-(851968*15-b-(1<<20))/4096) > 1e-6 || math.Abs(m.LostLines()-1481.34) > 0.01 {
		t.Errorf("non-blocking: %v lines lost, want 1,481.34", m.LostLines())
	}
	if math.Abs(m.DrainS()-8.5347) > 1e-3 {
		t.Errorf("non-blocking: drain %v s, want 8.5347", m.DrainS())
	}
}
