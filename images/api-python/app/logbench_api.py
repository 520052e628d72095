"""The API under test, in Python 3.11 with the standard library only, as published.

One asyncio event loop serves HTTP/1.1 on the workload port, one connection per
request. Every request does the same small hash computation and returns the same JSON
body; only the logging work changes with the mode. Logging goes through the logging
module to a FIFO: logging.StreamHandler (write + flush per record) for the synchronous
modes, QueueHandler + QueueListener with a bounded queue for json-queue.

A control server on its own thread serves the counters, so that the conductor can read
them while the event loop is stalled on a blocked FIFO write. Its JSON documents carry
the same field names as the Go kit's (kit/contract, kit/incontainer/logmode, kit/incontainer/tally,
kit/incontainer/cgroupstat).
"""

import argparse
import asyncio
import hashlib
import json
import logging
import logging.handlers
import os
import queue
import signal
import stat
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# Loopback ports and names shared with the kit (kit/contract).
WORKLOAD_PORT = 8080
CONTROL_PORT = 9001
SEQ_HEADER = "x-logbench-seq"

# The modes, in published order, and their record sizes (kit/incontainer/logmode).
NONE = "none"
SHORT1 = "short1"
SHORT10 = "short10"
JSON_ONLY = "json-only"
JSON_PREBUILT_SYNC = "json-prebuilt-sync"
JSON_SYNC = "json-sync"
JSON_QUEUE = "json-queue"
MODES = [NONE, SHORT1, SHORT10, JSON_ONLY, JSON_PREBUILT_SYNC, JSON_SYNC, JSON_QUEUE]

SHORT_LINE_BYTES = 128
JSON_RECORD_BYTES = 16384
QUEUE_CAPACITY = 256

# The fixed per-request computation: small next to the I/O.
HASH_ROUNDS = 64
RESPONSE_BODY = b'{"status":"ok","service":"logbench-api"}\n'


def bytes_per_request(mode):
    """How many log bytes mode writes for one request, newline included."""
    return {SHORT1: SHORT_LINE_BYTES, SHORT10: 10 * SHORT_LINE_BYTES,
            JSON_PREBUILT_SYNC: JSON_RECORD_BYTES, JSON_SYNC: JSON_RECORD_BYTES,
            JSON_QUEUE: JSON_RECORD_BYTES}.get(mode, 0)


def runtime_version():
    return "Python " + ".".join(str(n) for n in sys.version_info[:3])


# --- counting ---------------------------------------------------------------------

class Tally:
    """Bytes, newlines and a running SHA-256 of a byte stream (kit/incontainer/tally). Callers lock."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.bytes = 0
        self.lines = 0
        self.sum = hashlib.sha256()

    def add(self, data):
        self.bytes += len(data)
        self.lines += data.count(b"\n")
        self.sum.update(data)

    def snapshot(self):
        return {"bytes": self.bytes, "lines": self.lines, "sha256": self.sum.hexdigest()}


class OutputCapReached(Exception):
    pass


class QueueFull(Exception):
    pass


class Counters:
    """What the logging path has seen since the last reset (kit/contract.Counters), and
    the timeline of bytes generated. Shared by the event loop, the queue listener's
    thread and the control server's threads."""

    def __init__(self, max_bytes=0):
        self.max_bytes = max_bytes  # output-volume stop condition; 0 means none
        self.lock = threading.Lock()
        self.generated = Tally()
        self.written = Tally()
        self.timeline = []
        self.queue_drops = 0
        self.write_errors = 0
        self.failure = ""

    def generate(self, data):
        """Counts a record handed to logging, or refuses it beyond the output cap."""
        with self.lock:
            if self.max_bytes > 0 and self.generated.bytes + len(data) > self.max_bytes:
                if not self.failure:
                    self.failure = "output volume cap reached (%d bytes)" % self.max_bytes
                raise OutputCapReached(self.failure)
            self.generated.add(data)
            self.timeline.append({"unix_ns": time.time_ns(), "bytes": self.generated.bytes})

    def wrote(self, data):
        with self.lock:
            self.written.add(data)

    def dropped(self):
        with self.lock:
            self.queue_drops += 1
            if not self.failure:
                self.failure = "log queue full: record dropped"

    def write_failed(self, exc):
        with self.lock:
            self.write_errors += 1
            if not self.failure:
                self.failure = "log write: %s" % exc

    def snapshot(self):
        with self.lock:
            return {
                "generated": self.generated.snapshot(),
                "written": self.written.snapshot(),
                "queue_drops": self.queue_drops,
                "write_errors": self.write_errors,
                "failure": self.failure,
            }

    def samples(self):
        with self.lock:
            return list(self.timeline)

    def reset(self):
        with self.lock:
            self.generated.reset()
            self.written.reset()
            self.timeline = []
            self.queue_drops = self.write_errors = 0
            self.failure = ""


def zero_counters():
    """The counters of an API that is not ready yet, as the Go API reports them."""
    empty = {"bytes": 0, "lines": 0, "sha256": ""}
    return {"generated": dict(empty), "written": dict(empty), "queue_drops": 0,
            "write_errors": 0, "failure": ""}


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


# --- the modes ----------------------------------------------------------------------

class ModeLogger:
    """Does one mode's logging work for a request, through the logging module."""

    def __init__(self, mode, stream, counters, queue_capacity=QUEUE_CAPACITY):
        if mode not in MODES:
            raise ValueError("unknown logging mode %r (known: %s)" % (mode, ", ".join(MODES)))
        self.mode = mode
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

    def close(self):
        """Stops the queue listener after it has written what is queued."""
        if self.listener is not None:
            self.listener.stop()
            self.listener = None
        for h in list(self.logger.handlers):
            self.logger.removeHandler(h)


# --- cgroup -------------------------------------------------------------------------

def _read(path):
    with open(path) as f:
        return f.read().strip()


def _read_int(path, default=None):
    try:
        return int(_read(path))
    except FileNotFoundError:
        if default is None:
            raise
        return default


def _read_keyed(path):
    """A flat keyed file such as cpu.stat, as a dict of ints; {} if it is missing."""
    try:
        text = _read(path)
    except FileNotFoundError:
        return {}
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2:
            try:
                out[parts[0]] = int(parts[1])
            except ValueError:
                pass
    return out


def _quota_cores(quota, period):
    if quota <= 0 or period <= 0:
        return 0.0
    return quota / period


def _unlimited_as_zero(v):
    # cgroup v1 reports "unlimited" as a huge page-rounded number.
    return 0 if v >= 1 << 62 else v


def _v2_limit(path, default=None):
    """A cgroup v2 limit file: bytes, or "max" (0: unlimited)."""
    try:
        text = _read(path)
    except FileNotFoundError:
        if default is None:
            raise
        return default
    return 0 if text == "max" else int(text)


def _v2_group(proc_cgroup):
    """The process's v2 group from /proc/self/cgroup ("/" under a private namespace)."""
    try:
        for line in _read(proc_cgroup).splitlines():
            if line.startswith("0::"):
                return line[3:] or "/"
    except FileNotFoundError:
        pass
    return "/"


def read_cgroup(root="/sys/fs/cgroup", proc_cgroup="/proc/self/cgroup"):
    """A snapshot of the process's own cgroup (kit/contract.CgroupSnapshot)."""
    if os.path.exists(os.path.join(root, "cgroup.controllers")):
        return _read_v2(root, proc_cgroup)
    return _read_v1(root)


def _snapshot(version):
    return {"unix_ns": time.time_ns(), "cgroup_version": version,
            "cpu_limit_cores": 0.0, "memory_limit_bytes": 0, "swap_limit_bytes": -1,
            "cpu_usage_ns": 0, "cpu_periods": 0, "cpu_throttled_periods": 0,
            "cpu_throttled_ns": 0, "memory_usage_bytes": 0, "memory_peak_bytes": 0}


def _read_v2(root, proc_cgroup):
    s = _snapshot(2)
    d = os.path.join(root, _v2_group(proc_cgroup).lstrip("/"))
    fields = _read(os.path.join(d, "cpu.max")).split()
    if len(fields) != 2:
        raise ValueError("cpu.max: unexpected %r" % " ".join(fields))
    if fields[0] != "max":
        s["cpu_limit_cores"] = _quota_cores(int(fields[0]), int(fields[1]))
    s["memory_limit_bytes"] = _v2_limit(os.path.join(d, "memory.max"))
    s["swap_limit_bytes"] = _v2_limit(os.path.join(d, "memory.swap.max"), default=-1)
    cpu = _read_keyed(os.path.join(d, "cpu.stat"))
    s["cpu_usage_ns"] = cpu.get("usage_usec", 0) * 1000
    s["cpu_periods"] = cpu.get("nr_periods", 0)
    s["cpu_throttled_periods"] = cpu.get("nr_throttled", 0)
    s["cpu_throttled_ns"] = cpu.get("throttled_usec", 0) * 1000
    s["memory_usage_bytes"] = _read_int(os.path.join(d, "memory.current"), default=0)
    s["memory_peak_bytes"] = _read_int(os.path.join(d, "memory.peak"), default=0)  # kernel >= 5.19
    return s


def _read_v1(root):
    # Docker mounts the container's own cgroup at each controller's root.
    s = _snapshot(1)
    cpu_dir = os.path.join(root, "cpu")
    s["cpu_limit_cores"] = _quota_cores(_read_int(os.path.join(cpu_dir, "cpu.cfs_quota_us")),
                                        _read_int(os.path.join(cpu_dir, "cpu.cfs_period_us")))
    cpu = _read_keyed(os.path.join(cpu_dir, "cpu.stat"))
    s["cpu_periods"] = cpu.get("nr_periods", 0)
    s["cpu_throttled_periods"] = cpu.get("nr_throttled", 0)
    s["cpu_throttled_ns"] = cpu.get("throttled_time", 0)
    # cpuacct.usage is exact nanoseconds (the user/system split is tick based).
    s["cpu_usage_ns"] = _read_int(os.path.join(root, "cpuacct", "cpuacct.usage"), default=0)
    mem = os.path.join(root, "memory")
    s["memory_usage_bytes"] = _read_int(os.path.join(mem, "memory.usage_in_bytes"), default=0)
    s["memory_peak_bytes"] = _read_int(os.path.join(mem, "memory.max_usage_in_bytes"), default=0)
    s["memory_limit_bytes"] = _unlimited_as_zero(_read_int(os.path.join(mem, "memory.limit_in_bytes"), default=0))
    memsw = _read_int(os.path.join(mem, "memory.memsw.limit_in_bytes"), default=0)
    if memsw > 0:
        # memsw counts memory plus swap: the swap allowed is the difference.
        s["swap_limit_bytes"] = _unlimited_as_zero(memsw) - s["memory_limit_bytes"]
    return s


# --- process ------------------------------------------------------------------------

def read_process(status_path="/proc/self/status", root="/"):
    """The process's privileges as the kernel sees them (kit/contract.ProcessFacts), so the
    run can show the container was hardened."""
    f = {"present": True, "uid": os.getuid(), "gid": os.getgid(), "cap_effective": 0,
         "no_new_privs": False, "root_read_only": False}
    try:
        for line in _read(status_path).splitlines():
            key, _, value = line.partition(":")
            if key == "CapEff":
                f["cap_effective"] = int(value.strip(), 16)
            elif key == "NoNewPrivs":
                f["no_new_privs"] = value.strip() == "1"
    except (OSError, ValueError):
        pass  # what cannot be read stays at its zero value
    try:
        f["root_read_only"] = bool(os.statvfs(root).f_flag & os.ST_RDONLY)
    except OSError:
        pass
    return f


# --- the API ------------------------------------------------------------------------

def digest_of(path):
    """The fixed per-request computation: SHA-256 of the path, re-hashed 64 times in all."""
    d = hashlib.sha256(path.encode("utf-8")).digest()
    for _ in range(HASH_ROUNDS - 1):
        d = hashlib.sha256(d).digest()
    return d


class API:
    def __init__(self, mode, fifo_path, max_log_bytes=0, cgroup_root="/sys/fs/cgroup"):
        if mode not in MODES:
            raise ValueError("unknown logging mode %r (known: %s)" % (mode, ", ".join(MODES)))
        self.mode = mode
        self.fifo_path = fifo_path
        self.counters = Counters(max_log_bytes)
        self.cgroup_root = cgroup_root
        # Privileges do not change while the process runs: read them once, not on every
        # poll of the control port.
        self.process = read_process()
        self.ready = False
        self.logger = None
        self.spans_lock = threading.Lock()
        self.spans = []
        self.control_address = self.workload_address = None  # bound addresses, once known

    # The request path, on the event loop.

    async def serve_connection(self, reader, writer):
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            method, target, _version = lines[0].split(" ", 2)
            headers = {}
            for line in lines[1:]:
                if line:
                    name, _, value = line.partition(":")
                    headers[name.strip().lower()] = value.strip()
            length = int(headers.get("content-length", "0") or 0)
            if length > 0:
                await reader.readexactly(length)
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError, ConnectionError):
            await self._respond(writer, 400, b"bad request\n", "text/plain; charset=utf-8")
            return
        status, body, ctype, extra = self.handle(target.split("?", 1)[0], headers.get(SEQ_HEADER))
        await self._respond(writer, status, body, ctype, extra)

    def handle(self, path, seq_text):
        """One request's work; returns (status, body, content type, extra headers)."""
        digest = digest_of(path)
        try:
            seq = int(seq_text)
        except (TypeError, ValueError):
            seq = None
        generate_ns, log_call_ns, err = self.logger.log(seq if seq is not None else 0)
        if seq is not None:
            span = {"seq": seq, "generate_ns": generate_ns, "log_call_ns": log_call_ns}
            if err is not None:
                span["error"] = str(err)
            with self.spans_lock:
                self.spans.append(span)
        if err is not None:
            return 503, ("logging failed: %s\n" % err).encode("utf-8"), "text/plain; charset=utf-8", {}
        return 200, RESPONSE_BODY, "application/json", {"X-Digest": digest[:8].hex()}

    async def _respond(self, writer, status, body, ctype, extra=None):
        reason = {200: "OK", 400: "Bad Request", 503: "Service Unavailable"}[status]
        head = ["HTTP/1.1 %d %s" % (status, reason), "Content-Type: " + ctype,
                "Content-Length: %d" % len(body), "Connection: close"]
        head += ["%s: %s" % kv for kv in (extra or {}).items()]
        try:
            writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
            await writer.drain()
            writer.close()
            await writer.wait_closed()
        except ConnectionError:
            pass

    # The control documents (kit/contract), served from other threads.

    def status(self):
        return {
            "implementation": "python",
            "runtime": runtime_version(),
            "mode": self.mode,
            "ready": self.ready,
            "counters": self.counters.snapshot() if self.ready else zero_counters(),
            "cgroup": read_cgroup(self.cgroup_root),
            "process": self.process,
        }

    def report(self):
        doc = self.status()
        with self.spans_lock:
            doc["spans"] = list(self.spans)
        doc["generated"] = self.counters.samples()
        return doc

    def reset(self):
        self.counters.reset()
        with self.spans_lock:
            self.spans = []

    def control_server(self, address):
        api = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                if self.path == "/status":
                    self._answer(api.status)
                elif self.path == "/report":
                    if not api.ready:
                        self._send(500, b"not ready\n", "text/plain; charset=utf-8")
                        return
                    self._answer(api.report)
                else:
                    self._send(404, b"not found\n", "text/plain; charset=utf-8")

            def do_POST(self):
                if self.path != "/reset":
                    self._send(404, b"not found\n", "text/plain; charset=utf-8")
                elif not api.ready:
                    self._send(503, b"not ready\n", "text/plain; charset=utf-8")
                else:
                    api.reset()
                    self._send(200, b"", "text/plain; charset=utf-8")

            def _answer(self, make):
                try:
                    body = (json.dumps(make()) + "\n").encode("utf-8")
                except Exception as exc:  # e.g. an unreadable cgroup file
                    self._send(500, ("%s\n" % exc).encode("utf-8"), "text/plain; charset=utf-8")
                    return
                self._send(200, body, "application/json")

            def _send(self, code, body, ctype):
                self.send_response(code)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format, *args):
                pass  # the conductor polls often: keep the container's log quiet

        server = ThreadingHTTPServer(address, Handler)
        server.daemon_threads = True
        return server

    def run(self, workload=("127.0.0.1", WORKLOAD_PORT), control=("127.0.0.1", CONTROL_PORT)):
        """Serves until stop(). The control port answers at once; the request path opens
        once the FIFO has a reader."""
        self._control = self.control_server(control)
        self.control_address = self._control.server_address
        threading.Thread(target=self._control.serve_forever, name="control", daemon=True).start()
        try:
            make_fifo(self.fifo_path)
            # Opening for write blocks until the reader opens the other end.
            with open(self.fifo_path, "w", encoding="utf-8") as stream:
                self.logger = ModeLogger(self.mode, stream, self.counters)
                try:
                    asyncio.run(self._serve(workload))
                finally:
                    self.logger.close()
        finally:
            self._control.shutdown()
            self._control.server_close()

    async def _serve(self, workload):
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        # A stalled loop leaves new connections waiting in the listen backlog.
        server = await asyncio.start_server(self.serve_connection, workload[0], workload[1], backlog=4096)
        self.workload_address = server.sockets[0].getsockname()
        self.ready = True
        async with server:
            await self._stop.wait()

    def stop(self):
        """Ends run() once it is serving (tests; the container simply exits)."""
        self._loop.call_soon_threadsafe(self._stop.set)


def make_fifo(path):
    """Creates the named pipe; an existing named pipe is accepted as it is."""
    try:
        os.mkfifo(path, 0o666)
    except FileExistsError:
        if not stat.S_ISFIFO(os.stat(path).st_mode):
            raise RuntimeError("%s exists and is not a named pipe" % path)
        return
    os.chmod(path, 0o666)  # the umask may have narrowed it; the reader may be another user


def parse_args(argv):
    p = argparse.ArgumentParser(prog="logbench_api", description="the logbench API in Python")
    p.add_argument("-mode", default=NONE, choices=MODES, help="logging mode")
    p.add_argument("-fifo", default="/run/logbench/log.fifo", help="log FIFO")
    p.add_argument("-max-log-bytes", dest="max_log_bytes", type=int, default=0,
                   help="output-volume stop condition (0: none)")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)

    # As PID 1 the process would ignore SIGTERM without a handler. Exit at once: a
    # normal exit would flush the logging handlers, which can block on a full FIFO.
    def stop(signum, frame):
        os._exit(0)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        API(args.mode, args.fifo, args.max_log_bytes).run()
    except Exception as exc:
        print("api: %s" % exc, file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
