package logdriver

import "math"

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

// What each part of a path holds, in 128-byte lines. A Linux pipe holds 64 KiB: the
// container's stdout, the shim's pipe to the engine, and the log FIFO each.
const (
	PipeLines = 512
	// TCPPathLines is what a syslog path over TCP held on this kit's reference machine
	// before the writer blocked, with nobody reading the FIFO and a receiver's queue of
	// 100 (kit/host/images' receiver test: 29,891 to 32,220 lines in seven runs, rsyslog
	// and syslog-ng alike). Most of it is the engine's own: its 1 MiB buffer of a
	// container's stdout, and the kernel's TCP send buffer, which grows to the host's
	// net.ipv4.tcp_wmem maximum (4 MiB there). It is an estimate of another host's path;
	// the figures beside the model say how far it is off.
	TCPPathLines = 31_000
	tcpPathQueue = 100 // the queue TCPPathLines was measured with
	// UDPSocketLines are the datagrams a receiver's UDP socket holds unread (the
	// kernel's default receive buffer, measured there: 256).
	UDPSocketLines = 256
)

// Buffer is B of a run's path, in bytes: for TCP the measured path with the receiver's
// queue of queue lines and the FIFO, and the driver's ring of ring bytes (0 for a
// blocking driver), which sits before the socket; for UDP only what is past the
// socket, since the engine's send never waits: the socket, the queue and the FIFO. A
// file driver has no consumer of its own, and so no buffer that a consumer fills.
func Buffer(driver string, queue int, ring int64, lineBytes float64) float64 {
	switch driver {
	case SyslogTCP:
		return float64(TCPPathLines-tcpPathQueue+queue+PipeLines)*lineBytes + float64(ring)
	case SyslogUDP:
		return float64(UDPSocketLines+queue+PipeLines) * lineBytes
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
