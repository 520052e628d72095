package closedloop

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"runtime"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// drive runs every connection from one event loop on one thread, as wrk does: one
// epoll_wait returns every connection whose response has arrived, and each gets its
// next request before the loop waits again. A goroutine per connection on Go's
// netpoller costs a wake-up, a park and a scheduler pass per request on top; against
// the Node API on this kind of machine, that generator spent 19-31 µs of CPU per
// request where wrk spent 7-12, and under a CPU hog read half of wrk's rate on the same
// API, a difference of the instrument, not of the API.
func (sh *shared) drive(ctx context.Context, workers []*worker) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	l, err := newLoop(ctx, sh, workers)
	if err != nil {
		sh.noteError(err)
		for _, w := range workers {
			w.fail(time.Now(), err, 1)
		}
		return
	}
	defer l.close()
	// Ending ctx wakes the loop through an eventfd it watches.
	stopWake := context.AfterFunc(ctx, func() {
		var one = [8]byte{1}
		unix.Write(l.wake, one[:])
	})
	defer stopWake()
	l.run()
}

// conn is one connection's state in the loop.
type conn struct {
	w          *worker
	fd         int // -1 while not connected
	connecting bool
	watching   uint32      // the events epoll watches for it
	redialAt   time.Time   // a failed connect waits RedialDelay
	done       bool        // nothing more to send on any connection of this worker
	queue      []time.Time // send times of the requests in flight, oldest first
	out        []byte      // bytes of requests not yet written
	in         []byte      // bytes read and not yet parsed
}

type loop struct {
	ctx    context.Context
	sh     *shared
	ep     int
	wake   int
	addr   unix.Sockaddr
	family int
	conns  []*conn
	byFD   map[int]*conn
	buf    []byte
	wait   func(ep int, events []unix.EpollEvent, msec int) (int, error)
}

func newLoop(ctx context.Context, sh *shared, workers []*worker) (*loop, error) {
	tcp, err := net.ResolveTCPAddr("tcp", sh.tg.addr)
	if err != nil {
		return nil, err
	}
	l := &loop{ctx: ctx, sh: sh, byFD: map[int]*conn{}, buf: make([]byte, 64<<10), wait: rawEpollWait}
	if runtime.GOMAXPROCS(0) < 2 {
		l.wait = unix.EpollWait // the only processor: the runtime must know the loop waits
	}
	if ip4 := tcp.IP.To4(); ip4 != nil {
		sa := &unix.SockaddrInet4{Port: tcp.Port}
		copy(sa.Addr[:], ip4)
		l.addr, l.family = sa, unix.AF_INET
	} else {
		sa := &unix.SockaddrInet6{Port: tcp.Port}
		copy(sa.Addr[:], tcp.IP.To16())
		l.addr, l.family = sa, unix.AF_INET6
	}
	if l.ep, err = unix.EpollCreate1(unix.EPOLL_CLOEXEC); err != nil {
		return nil, os.NewSyscallError("epoll_create1", err)
	}
	if l.wake, err = unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC); err != nil {
		unix.Close(l.ep)
		return nil, os.NewSyscallError("eventfd", err)
	}
	if err := unix.EpollCtl(l.ep, unix.EPOLL_CTL_ADD, l.wake, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(l.wake)}); err != nil {
		l.close()
		return nil, os.NewSyscallError("epoll_ctl", err)
	}
	for _, w := range workers {
		l.conns = append(l.conns, &conn{w: w, fd: -1})
	}
	return l, nil
}

func (l *loop) close() {
	for _, c := range l.conns {
		l.hangUp(c)
	}
	unix.Close(l.wake)
	unix.Close(l.ep)
}

func (l *loop) run() {
	for _, c := range l.conns {
		l.dial(c)
	}
	events := make([]unix.EpollEvent, len(l.conns)+1)
	for l.ctx.Err() == nil {
		now := time.Now()
		wait, live := l.housekeep(now)
		if !live {
			return // every connection has sent its share of a request budget
		}
		n, err := l.wait(l.ep, events, wait)
		if err != nil && !errors.Is(err, unix.EINTR) {
			l.sh.noteError(os.NewSyscallError("epoll_wait", err))
			return
		}
		for _, ev := range events[:max(n, 0)] {
			c := l.byFD[int(ev.Fd)]
			if c == nil {
				continue // the eventfd: ctx ended, seen at the loop's top
			}
			l.ready(c, ev.Events)
		}
	}
	// Stopped: what is still in flight was neither answered nor failed.
	for _, c := range l.conns {
		c.w.inFlight += int64(len(c.queue))
		c.queue = c.queue[:0]
	}
}

// housekeep times out the requests that waited too long, redials connections whose
// pause is over, and returns epoll_wait's timeout in milliseconds (until the nearest
// deadline or redial, at most 100 ms so that a slow ctx is seen) and whether any
// connection still has work.
func (l *loop) housekeep(now time.Time) (int, bool) {
	next := now.Add(100 * time.Millisecond)
	live := false
	for _, c := range l.conns {
		if c.done {
			continue
		}
		live = true
		switch {
		case c.fd < 0 && !now.Before(c.redialAt):
			l.dial(c)
		case c.fd < 0:
			next = earliest(next, c.redialAt)
		case len(c.queue) > 0:
			deadline := c.queue[0].Add(l.sh.p.Timeout)
			if !now.Before(deadline) {
				l.failAt(c, os.ErrDeadlineExceeded, now)
				continue
			}
			next = earliest(next, deadline)
		}
	}
	ms := int((next.Sub(now) + time.Millisecond - 1) / time.Millisecond)
	return max(ms, 0), live
}

func earliest(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// dial starts a non-blocking connect; the connection is ready when it turns writable.
func (l *loop) dial(c *conn) {
	fd, err := unix.Socket(l.family, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		l.connectFailed(c, os.NewSyscallError("socket", err))
		return
	}
	// As Go's net package and wrk do: a request is one small write, sent at once.
	unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1)
	if err := unix.Connect(fd, l.addr); err != nil && !errors.Is(err, unix.EINPROGRESS) {
		unix.Close(fd)
		l.connectFailed(c, os.NewSyscallError("connect", err))
		return
	}
	if err := unix.EpollCtl(l.ep, unix.EPOLL_CTL_ADD, fd, &unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLOUT | unix.EPOLLRDHUP, Fd: int32(fd)}); err != nil {
		unix.Close(fd)
		l.connectFailed(c, os.NewSyscallError("epoll_ctl", err))
		return
	}
	c.fd, c.connecting, c.watching = fd, true, unix.EPOLLIN|unix.EPOLLOUT|unix.EPOLLRDHUP
	l.byFD[fd] = c
}

func (l *loop) connectFailed(c *conn, err error) {
	c.w.fail(time.Now(), err, 1)
	c.redialAt = time.Now().Add(RedialDelay)
}

// ready handles one connection's events.
func (l *loop) ready(c *conn, events uint32) {
	if c.connecting {
		if events&(unix.EPOLLOUT|unix.EPOLLERR|unix.EPOLLHUP) == 0 {
			return
		}
		soErr, err := unix.GetsockoptInt(c.fd, unix.SOL_SOCKET, unix.SO_ERROR)
		if err == nil && soErr != 0 {
			err = os.NewSyscallError("connect", unix.Errno(soErr))
		}
		if err != nil {
			l.hangUp(c)
			l.connectFailed(c, err)
			return
		}
		c.connecting = false
		c.w.connects++
		l.watch(c, unix.EPOLLIN|unix.EPOLLRDHUP)
		if !l.sendFirst(c) {
			return
		}
	}
	if events&unix.EPOLLOUT != 0 && len(c.out) > 0 {
		if !l.flush(c) {
			return
		}
	}
	if events&(unix.EPOLLIN|unix.EPOLLRDHUP|unix.EPOLLHUP|unix.EPOLLERR) != 0 {
		l.read(c)
	}
}

// sendFirst writes a fresh connection's first Pipelining requests; false when the
// connection ended (nothing to send, or the write failed).
func (l *loop) sendFirst(c *conn) bool {
	n := 0
	for n < l.sh.p.Pipelining && l.ctx.Err() == nil && l.sh.take() {
		n++
	}
	if n == 0 {
		l.retire(c)
		return false
	}
	now := time.Now()
	for range n {
		c.out = append(c.out, l.sh.tg.request...)
		c.queue = append(c.queue, now)
	}
	c.w.sent += int64(n)
	return l.flush(c)
}

// send writes one more request, sent at now.
func (l *loop) send(c *conn, now time.Time) bool {
	c.queue = append(c.queue, now)
	c.out = append(c.out, l.sh.tg.request...)
	c.w.sent++
	return l.flush(c)
}

// flush writes what is pending; a short write waits for the socket to turn writable.
func (l *loop) flush(c *conn) bool {
	for len(c.out) > 0 {
		n, err := unix.Write(c.fd, c.out)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if errors.Is(err, unix.EAGAIN) {
			l.watch(c, unix.EPOLLIN|unix.EPOLLOUT|unix.EPOLLRDHUP)
			return true
		}
		if err != nil {
			l.fail(c, os.NewSyscallError("write", err))
			return false
		}
		c.out = c.out[n:]
	}
	c.out = c.out[:0]
	l.watch(c, unix.EPOLLIN|unix.EPOLLRDHUP)
	return true
}

// watch changes the events epoll watches for c, with a system call only when they
// change: not once per request.
func (l *loop) watch(c *conn, events uint32) {
	if c.watching == events {
		return
	}
	c.watching = events
	unix.EpollCtl(l.ep, unix.EPOLL_CTL_MOD, c.fd, &unix.EpollEvent{Events: events, Fd: int32(c.fd)})
}

// read takes what the socket holds and completes every whole response in it. A read
// that holds whole responses only, the usual case, is parsed where it was read; only a
// response's first part waits in c.in for the rest.
func (l *loop) read(c *conn) {
	for {
		n, err := unix.Read(c.fd, l.buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if errors.Is(err, unix.EAGAIN) {
			return
		}
		if err != nil {
			l.fail(c, os.NewSyscallError("read", err))
			return
		}
		eof := n == 0
		c.w.bytes += int64(n)
		data := l.buf[:n]
		if len(c.in) > 0 {
			data = append(c.in, data...)
		}
		rest, open := l.complete(c, data, eof)
		if !open {
			return
		}
		// Kept at the start of c's own buffer (a copy within it when rest is part of it).
		c.in = append(c.in[:0], rest...)
		if n < len(l.buf) {
			return
		}
	}
}

// complete completes the whole responses at the start of data, sending the next
// request after each, and returns what is left of data and whether c is still open.
// eof says the server has closed the connection after data.
func (l *loop) complete(c *conn, data []byte, eof bool) ([]byte, bool) {
	for len(data) > 0 || eof {
		if len(data) == 0 { // the server closed between responses
			if len(c.queue) > 0 {
				l.fail(c, io.ErrUnexpectedEOF)
			} else {
				l.hangUp(c) // redialled by housekeep
			}
			return nil, false
		}
		if len(c.queue) == 0 {
			l.fail(c, errors.New("response without a request"))
			return nil, false
		}
		r, err := parseResponse(data)
		if errors.Is(err, errIncomplete) && !eof {
			return data, true
		}
		if errors.Is(err, errIncomplete) {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			l.fail(c, err)
			return nil, false
		}
		if r.status < 200 && r.status != 101 {
			data = data[r.size:] // an interim response (100 Continue): the final one follows
			continue
		}
		if r.untilClose {
			if !eof {
				return data, true // the body runs to the connection's end
			}
			r.size = len(data)
		}
		done := time.Now()
		c.w.complete(done, done.Sub(c.queue[0]), r.status)
		data = data[r.size:]
		// Oldest first, in place: no allocation per request.
		copy(c.queue, c.queue[1:])
		c.queue = c.queue[:len(c.queue)-1]
		if r.close {
			// Requests written after this one will not be answered.
			if len(c.queue) > 0 {
				l.fail(c, errors.New("server closed the connection with requests in flight"))
				return nil, false
			}
			l.hangUp(c)
			if l.ctx.Err() == nil {
				l.dial(c)
			}
			return nil, false
		}
		if l.ctx.Err() == nil && l.sh.take() {
			// The response's arrival is the next request's send time: one clock read
			// serves both.
			if !l.send(c, done) {
				return nil, false
			}
		} else if len(c.queue) == 0 {
			l.retire(c)
			return nil, false
		}
	}
	return data, true
}

// fail ends a connection with its requests in flight counted as errors (or, once
// the load is stopping, as in flight); housekeep redials it at once.
func (l *loop) fail(c *conn, err error) { l.failAt(c, err, time.Now()) }

// failAt is fail at a moment already read. A request past its deadline is counted as
// a timeout and as an error at the same moment and in the same branch, so that the
// timeouts stay a part of the errors even when the interval ends or the load stops
// between the two (seen: 16 timeouts against 14 errors on a busy host).
func (l *loop) failAt(c *conn, err error, at time.Time) {
	if l.ctx.Err() != nil { // stopping: what was in flight is neither answered nor failed
		c.w.inFlight += int64(len(c.queue))
	} else {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			c.w.countTimeouts(at, len(c.queue))
		}
		c.w.fail(at, err, max(len(c.queue), 1))
	}
	l.hangUp(c)
}

// retire closes a connection that has nothing more to send.
func (l *loop) retire(c *conn) {
	l.hangUp(c)
	c.done = true
}

func (l *loop) hangUp(c *conn) {
	if c.fd >= 0 {
		unix.EpollCtl(l.ep, unix.EPOLL_CTL_DEL, c.fd, nil)
		unix.Close(c.fd)
		delete(l.byFD, c.fd)
	}
	c.fd, c.connecting = -1, false
	c.queue, c.out, c.in = c.queue[:0], c.out[:0], c.in[:0]
}

// rawEpollWait is epoll_wait as a raw system call. Through the runtime's syscall
// entry, every wait hands the thread's processor to the runtime's monitor, which then
// polls every 20 µs: 23,000 nanosleeps and 3,500 futex calls for 40,000 requests,
// and the generator's CPU per request about twice wrk's (strace -c and the shell's
// times, against the Node API). Raw, the runtime sees a running goroutine, so it is
// used only when another processor runs the process's other goroutines (GOMAXPROCS
// at least 2); a wait lasts at most 100 ms and ends early with EINTR when the runtime
// preempts the loop.
func rawEpollWait(ep int, events []unix.EpollEvent, msec int) (int, error) {
	n, _, errno := unix.RawSyscall6(unix.SYS_EPOLL_PWAIT, uintptr(ep), uintptr(unsafe.Pointer(&events[0])), uintptr(len(events)), uintptr(msec), 0, 0)
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}
