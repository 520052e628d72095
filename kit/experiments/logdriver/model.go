package logdriver

import "math"

// The model of a log path from the API's console to a consumer of rate C bytes a
// second, as fifo-stall's model is of a FIFO: the API produces P = rate x line bytes a
// second; what the consumer does not take fills the buffers on the way, B bytes in
// all. Once they are full,
//   - a blocking path holds the API's every write until the consumer has taken a line:
//     the API serves C/line requests a second, and a request sent at t after the stall
//     began at t_s = B/(P-C) waits (t-t_s)(P/C-1) longer than it would have;
//   - a non-blocking path (a non-blocking driver, or UDP, which never waits) drops what
//     does not fit: (P-C)T-B bytes of a run of T seconds.
//
// The buffers are named so that a difference from what is measured can be traced to
// one: the container's stdout pipe and the log FIFO (a pipe each), the receiver's
// queue, the sockets between the engine and the receiver, and the non-blocking
// driver's ring buffer (max-buffer-size).
type Model struct {
	RateRPS     float64 // requests a second, one line each
	LineBytes   float64
	ConsumerBps float64 // bytes a second; +Inf for a consumer as fast as it comes
	DurationS   float64
	Blocking    bool    // the path waits (a blocking driver over TCP or to a file)
	BufferBytes float64 // B
}

// PipeBytes is a Linux pipe's default capacity: the container's stdout and the FIFO.
const PipeBytes = 65536

// SocketBytes is what the sockets between the engine and a syslog receiver hold before
// the sender waits, as measured on this kit's reference kernel; it is an estimate, and
// the figures beside the model say how far it is off.
const SocketBytes = 0

// Buffer is B of a run's path: the pipes, the receiver's queue of queue messages (a line
// each), the sockets, and the driver's ring of ring bytes (0 for a blocking driver).
func Buffer(syslog bool, queue int, ring int64, lineBytes float64) float64 {
	b := float64(PipeBytes) + float64(ring)
	if syslog {
		b += float64(PipeBytes) + float64(queue)*lineBytes + SocketBytes
	}
	return b
}

// StallS is when the buffers are full, from the start of the load; +Inf when they never
// fill within the run (the consumer keeps up, or the run ends first).
func (m Model) StallS() float64 {
	excess := m.RateRPS*m.LineBytes - m.ConsumerBps
	if excess <= 0 {
		return math.Inf(1)
	}
	t := m.BufferBytes / excess
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
	if m.Blocking {
		return 0
	}
	excess := m.RateRPS*m.LineBytes - m.ConsumerBps
	if excess <= 0 {
		return 0
	}
	return math.Max(0, excess*m.DurationS-m.BufferBytes) / m.LineBytes
}
