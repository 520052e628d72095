"""The API's request path and its life cycle.

One asyncio event loop serves HTTP/1.1 on the workload port, one connection per
request. Every request does the same small hash computation and returns the same JSON
body; only the logging work changes with the mode (logbench_modes). The log goes to a
FIFO it makes, or with the FIFO "-" to the process's standard output, where a container
engine's log driver takes it. The control documents it serves through logbench_control
are kit/contract/contract.go's.
"""

import asyncio
import hashlib
import os
import stat
import threading

from logbench_cgroup import read_cgroup
from logbench_control import CONTROL_PORT, control_server
from logbench_modes import KNOWN_MODES, NUMBERED_LINE_BYTES, ModeLogger, check_line_bytes
from logbench_process import read_process, runtime_version
from logbench_tally import Counters, zero_counters

# Loopback port and header shared with the kit (kit/contract/contract.go).
WORKLOAD_PORT = 8080
SEQ_HEADER = "x-logbench-seq"

# The FIFO that means standard output (kit/contract/args.go's LogToStdout): no FIFO is
# made and no reader awaited.
LOG_TO_STDOUT = "-"

# The fixed per-request computation: small next to the I/O.
HASH_ROUNDS = 64
RESPONSE_BODY = b'{"status":"ok","service":"logbench-api"}\n'


def digest_of(path):
    """The fixed per-request computation: SHA-256 of the path, re-hashed 64 times in all."""
    d = hashlib.sha256(path.encode("utf-8")).digest()
    for _ in range(HASH_ROUNDS - 1):
        d = hashlib.sha256(d).digest()
    return d


class API:
    def __init__(self, mode, fifo_path, max_log_bytes=0, cgroup_root="/sys/fs/cgroup", stdout_fd=1,
                 line_bytes=NUMBERED_LINE_BYTES):
        if mode not in KNOWN_MODES:
            raise ValueError("unknown logging mode %r (known: %s)" % (mode, ", ".join(KNOWN_MODES)))
        check_line_bytes(line_bytes)
        self.mode = mode
        self.line_bytes = line_bytes  # the numbered mode's line length
        self.fifo_path = fifo_path
        self.stdout_fd = stdout_fd  # the standard output the log goes to with LOG_TO_STDOUT
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

    # The control documents (kit/contract/contract.go), served from other threads.

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

    def run(self, workload=("127.0.0.1", WORKLOAD_PORT), control=("127.0.0.1", CONTROL_PORT)):
        """Serves until stop(). The control port answers at once; the request path opens
        once the FIFO has a reader, or at once when the log goes to standard output."""
        self._control = control_server(self, control)
        self.control_address = self._control.server_address
        threading.Thread(target=self._control.serve_forever, name="control", daemon=True).start()
        try:
            with self._open_log() as stream:
                self.logger = ModeLogger(self.mode, stream, self.counters, line_bytes=self.line_bytes)
                try:
                    asyncio.run(self._serve(workload))
                finally:
                    self.logger.close()
        finally:
            self._control.shutdown()
            self._control.server_close()

    def _open_log(self):
        """The log's stream: standard output, which stays open, or the FIFO. Either is
        written as the FIFO always was, each record flushed by the handler before the
        request goes on, so a full pipe holds the request path."""
        if self.fifo_path == LOG_TO_STDOUT:
            return open(self.stdout_fd, "w", encoding="utf-8", closefd=False)
        make_fifo(self.fifo_path)
        # Opening for write blocks until the reader opens the other end.
        return open(self.fifo_path, "w", encoding="utf-8")

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
