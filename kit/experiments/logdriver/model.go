package logdriver

import (
	"math"

	"github.com/logbench/logbench/kit/contract"
)

// The model of a log path from the API's console to a consumer of rate C bytes a
// second, as fifo-stall's model is of a FIFO: the API produces P = rate x line bytes a
// second; what the consumer does not take fills the buffers on the way, B bytes in
// all. Once they are full,
//   - a blocking path holds the API's every write until the consumer has taken a line:
//     the API serves C/line requests a second, and a request sent at t after the stall
//     began at t_s = B/(P-C) waits (t-t_s)(P/C-1) longer than it would have;
//   - a path that does not block (a non-blocking driver, or UDP, which never waits)
//     drops what does not fit: (P-C)T-B bytes of a run of T seconds.
//
// When the load ends, what the buffers hold, min((P-C)T, B), drains at C.
type Model struct {
	RateRPS     float64 // requests a second, one line each
	LineBytes   float64
	ConsumerBps float64 // bytes a second; +Inf for a consumer as fast as it comes
	DurationS   float64
	Blocking    bool    // the path waits (a blocking driver over TCP)
	BufferBytes float64 // B
}

// What each part of a path holds. A Linux pipe holds 64 KiB: the container's stdout,
// the shim's pipe to the engine, and the log FIFO each; the model counts one, in lines
// of 128 bytes (PipeLines), and in its bytes for longer lines.
const (
	PipeLines = 512
	pipeBytes = PipeLines * contract.NumberedLineBytes
	// SyslogHeaderBytes is what Docker's syslog driver puts before each line on the wire
	// with syslog-format rfc5424 and tag logbench, as measured on this kit's reference
	// machine: "<30>1 2026-12-03T02:54:15Z vm logbench 1453 logbench - ", 49 bytes and
	// the host's name (there "vm") and dockerd's PID (there 1453). The line follows with
	// its newline; a host with a longer name or PID sends a few bytes more a line.
	SyslogHeaderBytes = 55
	// TCPPathLines is what a syslog path over TCP held on this kit's reference machine
	// before the writer blocked, with nobody reading the FIFO and a receiver's queue of
	// 100, in lines of 128 bytes (kit/host/images' receiver test: 29,891 to 32,220 lines
	// in seven runs, rsyslog and syslog-ng alike). Most of it is the engine's own: its
	// send queue, and the kernel's TCP buffers, which grow to the host's
	// net.ipv4.tcp_wmem and tcp_rmem maximums (4 MiB and 6 MiB there). Those hold wire
	// bytes, each line with its syslog header: TCPPathBytes, which the model holds
	// constant (1,367 lines of 4 KiB, 345 of 16 KiB). With lines of 4 KiB the path held
	// 5.8 to 11.6 MB there when the load ended (the README's results): more, and from
	// run to run not the same, because the receiver's socket buffer grows under load
	// (to 5.5 MB in a run sampled; net.ipv4.tcp_rmem's maximum there is 32 MiB). It is
	// an estimate of another host's path; the figures beside the model say how far it
	// is off.
	TCPPathLines = 31_000
	TCPPathBytes = TCPPathLines * (contract.NumberedLineBytes + SyslogHeaderBytes)
	tcpPathQueue = 100 // the queue TCPPathLines was measured with
	// UDPSocketLines are the datagrams a receiver's UDP socket holds unread (the
	// kernel's default receive buffer, measured there: 256).
	UDPSocketLines = 256
)

// TCPLinesInFlight is how many lines of lineBytes the measured TCP path holds: its wire
// bytes over a line's on the wire, header included.
func TCPLinesInFlight(lineBytes float64) float64 {
	return TCPPathBytes / (lineBytes + SyslogHeaderBytes)
}

// pipeLinesOf is how many lines of lineBytes a pipe holds: whole lines of its 64 KiB,
// at least one (a longer line's write waits for the reader to take it in parts).
func pipeLinesOf(lineBytes float64) float64 { return math.Max(1, math.Floor(pipeBytes/lineBytes)) }

// Buffer is B of a run's path, in bytes of lines: for TCP the measured path in wire
// bytes (TCPLinesInFlight) with the receiver's queue of queue lines and the FIFO, and
// the driver's ring of ring bytes (0 for a blocking driver), which sits before the
// socket; for UDP only what is past the socket, since the engine's send never waits:
// the socket, the queue and the FIFO. A file driver has no consumer of its own, and so
// no buffer that a consumer fills.
func Buffer(driver string, queue int, ring int64, lineBytes float64) float64 {
	switch driver {
	case SyslogTCP:
		return (TCPLinesInFlight(lineBytes)-tcpPathQueue+float64(queue)+pipeLinesOf(lineBytes))*lineBytes + float64(ring)
	case SyslogUDP:
		return (UDPSocketLines + float64(queue) + pipeLinesOf(lineBytes)) * lineBytes
	}
	return 0
}

func (m Model) excess() float64 { return m.RateRPS*m.LineBytes - m.ConsumerBps }

// StallS is when the buffers are full, from the start of the load; +Inf when they never
// fill within the run (the consumer keeps up, or the run ends first).
func (m Model) StallS() float64 {
	if m.excess() <= 0 {
		return math.Inf(1)
	}
	t := m.BufferBytes / m.excess()
	if t >= m.DurationS {
		return math.Inf(1)
	}
	return t
}

// AddedP99Ms is the latency a blocking path adds to the 99th percentile of requests:
// the request sent at 0.99T waits (0.99T-t_s)(P/C-1). A path that does not block adds
// none.
func (m Model) AddedP99Ms() float64 {
	ts := m.StallS()
	if !m.Blocking || math.IsInf(ts, 1) {
		return 0
	}
	t := 0.99 * m.DurationS
	if t <= ts {
		return 0
	}
	return (t - ts) * (m.RateRPS*m.LineBytes/m.ConsumerBps - 1) * 1000
}

// LostLines are the lines a path that does not block drops in the run.
func (m Model) LostLines() float64 {
	if m.Blocking || m.excess() <= 0 {
		return 0
	}
	return math.Max(0, m.excess()*m.DurationS-m.BufferBytes) / m.LineBytes
}

// DrainS is how long the consumer reads after the load ends: what the buffers hold
// then, at its rate.
func (m Model) DrainS() float64 {
	if m.excess() <= 0 || math.IsInf(m.ConsumerBps, 1) {
		return 0
	}
	return math.Min(m.excess()*m.DurationS, m.BufferBytes) / m.ConsumerBps
}
