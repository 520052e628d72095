"""The logging modes: the records each one builds and how it hands them to the logging
module. logging.StreamHandler (write + flush per record) for the synchronous modes,
QueueHandler + QueueListener with a bounded queue for json-queue.

The mode names and record sizes are the Go API's (kit/incontainer/logmode), and so is
the log-driver experiment's numbered line (kit/contract/lines.go), byte for byte.
"""

import hashlib
import json
import logging
import logging.handlers
import queue
import threading
import time

from logbench_tally import OutputCapReached

# The modes, in published order, and their record sizes.
NONE = "none"
SHORT1 = "short1"
SHORT10 = "short10"
JSON_ONLY = "json-only"
JSON_PREBUILT_SYNC = "json-prebuilt-sync"
JSON_SYNC = "json-sync"
JSON_QUEUE = "json-queue"
MODES = [NONE, SHORT1, SHORT10, JSON_ONLY, JSON_PREBUILT_SYNC, JSON_SYNC, JSON_QUEUE]

# The log-driver experiment's mode: one numbered line per request, written synchronously.
# The API takes it; fifo-stall does not publish it (kit/contract/logmode.go).
NUMBERED = "numbered"
KNOWN_MODES = MODES + [NUMBERED]

SHORT_LINE_BYTES = 128
JSON_RECORD_BYTES = 16384
NUMBERED_LINE_BYTES = 128
QUEUE_CAPACITY = 256


def bytes_per_request(mode):
    """How many log bytes mode writes for one request, newline included."""
    return {SHORT1: SHORT_LINE_BYTES, SHORT10: 10 * SHORT_LINE_BYTES,
            JSON_PREBUILT_SYNC: JSON_RECORD_BYTES, JSON_SYNC: JSON_RECORD_BYTES,
            JSON_QUEUE: JSON_RECORD_BYTES, NUMBERED: NUMBERED_LINE_BYTES}.get(mode, 0)


class QueueFull(Exception):
    pass


# --- logging handlers ---------------------------------------------------------------

class Errors(threading.local):
    """The last logging error on this thread: the stock handlers report errors through
    handleError and never raise, so the request path asks here instead."""
    error = None

    def take(self):
        err, self.error = self.error, None
        return err


class CountingStreamHandler(logging.StreamHandler):
    """StreamHandler's emit (write + flush per record), counting what was written once
    the flush returned, and counting an output error instead of printing it."""

    def __init__(self, stream, counters, errors):
        super().__init__(stream)
        self.counters = counters
        self.errors = errors

    def emit(self, record):
        try:
            msg = self.format(record) + self.terminator
            self.stream.write(msg)
            self.flush()
        except RecursionError:
            raise
        except Exception as exc:
            self.counters.write_failed(exc)
            self.errors.error = exc
            return
        self.counters.wrote(msg.encode("utf-8"))


class CountingQueueHandler(logging.handlers.QueueHandler):
    """QueueHandler with a non-blocking put. The stock one prints a traceback through
    handleError and drops the record when the queue is full: here the drop is counted
    and fails the run."""

    def __init__(self, q, counters, errors):
        super().__init__(q)
        self.counters = counters
        self.errors = errors

    def emit(self, record):
        try:
            self.enqueue(self.prepare(record))  # prepare formats on the caller's side
        except queue.Full:
            self.counters.dropped()
            self.errors.error = QueueFull("log queue full: record dropped")
        except Exception as exc:
            self.counters.write_failed(exc)
            self.errors.error = exc


class Listener(logging.handlers.QueueListener):
    """QueueListener whose stop waits for room in a full queue instead of failing."""

    def enqueue_sentinel(self):
        self.queue.put(self._sentinel)


# --- records ------------------------------------------------------------------------

def _short_line():
    line = "INFO api: request served method=GET path=/ status=200 "
    return line + "-" * (SHORT_LINE_BYTES - 1 - len(line))


SHORT_LINE = _short_line()  # 127 characters; the handler adds the newline


def record_time(unix_ns):
    """UTC time in the fixed-width layout 2006-01-02T15:04:05.000000000Z."""
    sec, ns = divmod(unix_ns, 1_000_000_000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(sec)) + ".%09dZ" % ns


class RecordBuilder:
    """Builds the large synthetic JSON record with json.dumps, sized so that every
    record has exactly JSON_RECORD_BYTES bytes with its newline."""

    def __init__(self):
        self.payload = ""
        empty = len(self.build(0, 0)) + 1
        self.payload = "x" * (JSON_RECORD_BYTES - empty)
        if len(self.build(0, 0)) + 1 != JSON_RECORD_BYTES:
            raise RuntimeError("json record is not %d bytes" % JSON_RECORD_BYTES)

    def build(self, unix_ns, seq):
        """One record, without the newline (the handler's terminator adds it)."""
        return json.dumps({
            "ts": record_time(unix_ns),
            "level": "INFO",
            "msg": "request served",
            "seq": "%012d" % seq,
            "payload": self.payload,
        }, separators=(",", ":"))


# The numbered line (kit/contract/lines.go's NumberedLineOf): "logbench seq=" and twelve
# digits, a space, '-' up to " sum=", and the first 8 hex digits of the SHA-256 of every
# byte before " sum=": line_bytes with the newline, NUMBERED_LINE_BYTES unless a run
# asks for longer lines (MIN_ to MAX_NUMBERED_LINE_BYTES).
_NUMBERED_SUM = " sum="
_NUMBERED_HEAD = len("logbench seq=") + 12 + 1
_NUMBERED_FIXED = _NUMBERED_HEAD + len(_NUMBERED_SUM) + 8 + 1
MIN_NUMBERED_LINE_BYTES = NUMBERED_LINE_BYTES
MAX_NUMBERED_LINE_BYTES = 65536
MAX_NUMBERED_SEQ = 999_999_999_999


def check_line_bytes(line_bytes):
    """Refuses a line length the format has no line of (contract.CheckNumberedLineBytes)."""
    if not MIN_NUMBERED_LINE_BYTES <= line_bytes <= MAX_NUMBERED_LINE_BYTES:
        raise ValueError("a numbered line of %d bytes: want %d to %d" % (
            line_bytes, MIN_NUMBERED_LINE_BYTES, MAX_NUMBERED_LINE_BYTES))


def numbered_body(seq, line_bytes=NUMBERED_LINE_BYTES):
    """Line seq of line_bytes without its newline (the handler's terminator adds it)."""
    if not 0 <= seq <= MAX_NUMBERED_SEQ:
        raise ValueError("numbered line %d out of [0, %d]" % (seq, MAX_NUMBERED_SEQ))
    check_line_bytes(line_bytes)
    head = "logbench seq=%012d %s" % (seq, "-" * (line_bytes - _NUMBERED_FIXED))
    return head + _NUMBERED_SUM + hashlib.sha256(head.encode("ascii")).hexdigest()[:8]


def numbered_line(seq, line_bytes=NUMBERED_LINE_BYTES):
    """Line seq of line_bytes as the bytes written, newline included."""
    return (numbered_body(seq, line_bytes) + "\n").encode("ascii")


# --- the modes ----------------------------------------------------------------------

class ModeLogger:
    """Does one mode's logging work for a request, through the logging module."""

    def __init__(self, mode, stream, counters, queue_capacity=QUEUE_CAPACITY, line_bytes=NUMBERED_LINE_BYTES):
        if mode not in KNOWN_MODES:
            raise ValueError("unknown logging mode %r (known: %s)" % (mode, ", ".join(KNOWN_MODES)))
        check_line_bytes(line_bytes)
        self.mode = mode
        self.line_bytes = line_bytes  # the numbered mode's
        # Taking a line's number and writing the line are one step, so that the lines
        # reach the output in their numbers' order. From 0 at start, never reset.
        self.numbering = threading.Lock()
        self.next_line = 0
        self.counters = counters
        self.errors = Errors()
        self.listener = None
        self.queue = None
        self.logger = logging.getLogger("logbench.api.%s.%d" % (mode, id(self)))
        self.logger.setLevel(logging.INFO)
        self.logger.propagate = False
        out = CountingStreamHandler(stream, counters, self.errors)
        out.setFormatter(logging.Formatter("%(message)s"))
        if mode == JSON_QUEUE:
            self.queue = queue.Queue(maxsize=queue_capacity)
            handler = CountingQueueHandler(self.queue, counters, self.errors)
            handler.setFormatter(logging.Formatter("%(message)s"))
            # Only the output handler runs on the listener's thread.
            self.listener = Listener(self.queue, out)
            self.listener.start()
        else:
            handler = out
        self.logger.addHandler(handler)
        self.builder = None
        if mode in (JSON_ONLY, JSON_SYNC, JSON_QUEUE, JSON_PREBUILT_SYNC):
            self.builder = RecordBuilder()
        self.prebuilt = None
        if mode == JSON_PREBUILT_SYNC:
            self.prebuilt = self.builder.build(time.time_ns(), 0)

    def _log(self, line):
        """Hands one record to logging; raises what went wrong on the request path."""
        self.counters.generate((line + "\n").encode("utf-8"))
        self.logger.info(line)
        err = self.errors.take()
        if err is not None:
            raise err

    def log(self, seq):
        """Does request seq's logging work; returns (generate_ns, log_call_ns, error)."""
        mode, clock = self.mode, time.perf_counter_ns
        generate_ns = 0
        if mode == NONE:
            return 0, 0, None
        if mode == NUMBERED:
            return self._log_numbered()
        if mode in (SHORT1, SHORT10, JSON_PREBUILT_SYNC):
            line = self.prebuilt if mode == JSON_PREBUILT_SYNC else SHORT_LINE
            times = 10 if mode == SHORT10 else 1
        else:
            start = clock()
            line = self.builder.build(time.time_ns(), seq)
            generate_ns = clock() - start
            if mode == JSON_ONLY:
                return generate_ns, 0, None
            times = 1
        start = clock()
        try:
            for _ in range(times):
                self._log(line)
        except Exception as exc:
            return generate_ns, clock() - start, exc
        return generate_ns, clock() - start, None

    def _log_numbered(self):
        """Writes the next numbered line. Building it is the generation; waiting for the
        number and writing are the logging call, as in the Go API."""
        clock = time.perf_counter_ns
        start = clock()
        with self.numbering:
            numbered = clock()
            line = numbered_body(self.next_line, self.line_bytes)
            built = clock()
            err = None
            try:
                self._log(line)
            except OutputCapReached as exc:
                err = exc  # never generated: its number is the next line's
            except Exception as exc:
                err = exc
                self.next_line += 1
            else:
                self.next_line += 1
            done = clock()
        return built - numbered, (numbered - start) + (done - built), err

    def close(self):
        """Stops the queue listener after it has written what is queued."""
        if self.listener is not None:
            self.listener.stop()
            self.listener = None
        for h in list(self.logger.handlers):
            self.logger.removeHandler(h)
