"""The Python API of the qps experiment: the standard library's asyncio serving
HTTP/1.1 keep-alive connections (pipelined requests answered in order), and the
standard library's logging writing one access-log line per request in the seed's two
morgan formats, so that its lines carry the Node.js API's content:

  console: [HH:mm:ss.SSS] 127.0.0.1 - "GET / HTTP/1.1" 200 - 0.123 ms
  file:    [YYYY-MM-DD HH:mm:ss.SSS+00:00] 127.0.0.1 - "GET / HTTP/1.1" 200 - 0.123 ms

Console is stdout through a logging.StreamHandler; file is logs/YYYY-MM-DD.log
through a logging.FileHandler, a new file when the date changes. Every byte handed to
a sink is counted (lines, bytes, SHA-256, since the reset and since the start); the
control port serves the counters in the Node.js API's shape (kit/contract's
AccessLogReport). Run: python3 /app/logbench_qps.py -config console+file -log-dir DIR
"""

import argparse
import asyncio
import datetime
import hashlib
import json
import logging
import os
import resource
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

WORKLOAD_PORT = 8080
CONTROL_PORT = 9001
CONFIGS = ("none", "console", "file", "console+file")
BODY = b'{"statusCode":200,"message":"Hello World!"}'
RESPONSE = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\n"
            b"Content-Length: " + str(len(BODY)).encode() + b"\r\n\r\n" + BODY)


def line(clock, remote, method, url, version, status, took_s, long_time):
    """One access-log line as morgan writes it; clock is a UTC datetime."""
    if long_time:
        stamp = clock.strftime("%Y-%m-%d %H:%M:%S.") + "%03d+00:00" % (clock.microsecond // 1000)
    else:
        stamp = clock.strftime("%H:%M:%S.") + "%03d" % (clock.microsecond // 1000)
    return '[%s] %s - "%s %s HTTP/%s" %d - %.3f ms' % (stamp, remote, method, url, version, status, took_s * 1000)


class Count:
    def __init__(self):
        self.lines = 0
        self.bytes = 0
        self.hash = hashlib.sha256()

    def add(self, data):
        self.lines += data.count(b"\n")
        self.bytes += len(data)
        self.hash.update(data)

    def doc(self):
        return {"lines": self.lines, "bytes": self.bytes, "sha256": self.hash.copy().hexdigest()}


class CountingStream:
    """A text stream for logging's handlers that counts exactly the bytes it writes to
    the binary file underneath, and writes them at once (no buffering to lose)."""

    def __init__(self, raw):
        self.raw = raw
        self.lock = threading.Lock()
        self.total = Count()
        self.reset()

    def write(self, text):
        data = text.encode("utf-8")
        with self.lock:
            try:
                view = memoryview(data)
                while view:
                    n = self.raw.write(view)
                    view = view[n:]
            except OSError as exc:
                self.write_errors += 1
                self.failure = self.failure or str(exc)
                data = data[:len(data) - len(view)]
            self.total.add(data)
            self.since.add(data)
        return len(text)

    def flush(self):
        pass

    def reset(self):
        # Under the lock the writes take (the control server's thread resets while the
        # event loop's thread writes): a file's offset read here is exactly where the
        # counted bytes begin, with no line written between the two.
        with self.lock:
            self.since = Count()
            self.write_errors = 0
            self.failure = ""
            if isinstance(self.raw, DatedFile):
                self.start_offset, self.rotations_at_reset = self.raw.offset, self.raw.rotations

    def doc(self):
        with self.lock:
            d = self.since.doc()
            d.update(write_errors=self.write_errors, failure=self.failure, total=self.total.doc())
            if isinstance(self.raw, DatedFile):
                d.update(path=self.raw.path, start_offset_bytes=self.start_offset, pending_bytes=0,
                         rotations=self.raw.rotations - self.rotations_at_reset)
            return d


class DatedFile:
    """dir/YYYY-MM-DD.log, appended to, a new file when the date changes."""

    def __init__(self, directory, now):
        self.dir = directory
        self.now = now
        self.date = None
        self.fd = None
        self.path = ""
        self.offset = 0
        self.rotations = 0
        self._open(now().strftime("%Y-%m-%d"))
        self.rotations = 0

    def _open(self, date):
        if self.fd is not None:
            os.close(self.fd)
            self.rotations += 1
        self.date = date
        self.path = os.path.join(self.dir, date + ".log")
        self.fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self.offset = os.fstat(self.fd).st_size

    def write(self, data):
        date = self.now().strftime("%Y-%m-%d")
        if date != self.date:
            self._open(date)
        n = os.write(self.fd, data)
        self.offset += n
        return n


class API:
    def __init__(self, config, log_dir, stdout_fd=1, now=None):
        if config not in CONFIGS:
            raise ValueError("unknown configuration %r (known: %s)" % (config, ", ".join(CONFIGS)))
        self.config = config
        self.now = now or (lambda: datetime.datetime.now(datetime.timezone.utc))
        self.sinks = {}
        self.loggers = []
        self.requests = 0
        self.ready = False
        # As published: the file logger first, then the console logger.
        if config in ("file", "console+file"):
            os.makedirs(log_dir, exist_ok=True)
            self.sinks["file"] = CountingStream(DatedFile(log_dir, self.now))
            self.loggers.append((self._logger("file", self.sinks["file"]), True))
        if config in ("console", "console+file"):
            self.sinks["console"] = CountingStream(os.fdopen(stdout_fd, "wb", buffering=0, closefd=False))
            self.loggers.append((self._logger("console", self.sinks["console"]), False))
        self.reset()

    @staticmethod
    def _logger(name, stream):
        log = logging.getLogger("logbench.access." + name)
        log.handlers.clear()
        log.propagate = False
        log.setLevel(logging.INFO)
        handler = logging.StreamHandler(stream)
        handler.setFormatter(logging.Formatter("%(message)s"))
        log.addHandler(handler)
        return log

    def reset(self):
        for s in self.sinks.values():
            s.reset()
        self.requests = 0
        self.reset_at = time.monotonic()
        self.usage_at_reset = resource.getrusage(resource.RUSAGE_SELF)

    def report(self):
        sinks = {name: s.doc() for name, s in self.sinks.items()}
        ru, r0 = resource.getrusage(resource.RUSAGE_SELF), self.usage_at_reset
        return {
            "implementation": "python",
            "runtime": "Python " + sys.version.split()[0],
            "versions": {"python": sys.version.split()[0]},
            "config": self.config,
            "requests": self.requests,
            "sinks": sinks,
            "usage": {
                "since_reset_ms": (time.monotonic() - self.reset_at) * 1000,
                "cpu_user_us": int((ru.ru_utime - r0.ru_utime) * 1e6),
                "cpu_system_us": int((ru.ru_stime - r0.ru_stime) * 1e6),
                "rss_bytes": ru.ru_maxrss * 1024,
            },
        }

    def log(self, remote, method, url, version, status, took):
        clock = self.now()
        for logger, long_time in self.loggers:
            logger.info(line(clock, remote, method, url, version, status, took, long_time))

    async def serve_connection(self, reader, writer):
        peer = writer.get_extra_info("peername")
        remote = peer[0] if peer else "-"
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                started = time.perf_counter()
                request_line = head.split(b"\r\n", 1)[0].decode("latin-1")
                method, url, proto = request_line.split(" ", 2)
                # The load sends no body; a Content-Length would be read here.
                self.requests += 1
                writer.write(RESPONSE)
                self.log(remote, method, url, proto.split("/", 1)[1], 200, time.perf_counter() - started)
                if reader.at_eof():
                    break
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, ValueError):
            pass
        finally:
            writer.close()

    def run(self, host="127.0.0.1", port=WORKLOAD_PORT, control_port=CONTROL_PORT):
        control = control_server(self, (host, control_port))
        threading.Thread(target=control.serve_forever, daemon=True).start()

        async def main():
            server = await asyncio.start_server(self.serve_connection, host, port)
            self.ready = True
            async with server:
                await server.serve_forever()
        asyncio.run(main())


def control_server(api, address):
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path == "/ready":
                self._json(200 if api.ready else 503, {"ready": api.ready})
            elif self.path in ("/report", "/status"):
                self._json(200, api.report())
            else:
                self._json(404, {"error": "not found"})

        def do_POST(self):
            if self.path == "/reset" and api.ready:
                api.reset()
                self._json(200, {})
            else:
                self._json(404 if self.path != "/reset" else 503, {"error": self.path})

        def _json(self, code, doc):
            body = (json.dumps(doc) + "\n").encode("utf-8")
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format, *args):
            pass  # stdout is the console sink: nothing else may write to it

    server = ThreadingHTTPServer(address, Handler)
    server.daemon_threads = True
    return server


def main(argv=None):
    p = argparse.ArgumentParser(prog="logbench_qps", description="the qps experiment's Python API")
    p.add_argument("-config", default="console+file", choices=CONFIGS)
    p.add_argument("-log-dir", dest="log_dir", default="/run/logbench/logs")
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    signal.signal(signal.SIGTERM, lambda signum, frame: os._exit(0))
    signal.signal(signal.SIGINT, lambda signum, frame: os._exit(0))
    try:
        API(args.config, args.log_dir).run()
    except Exception as exc:
        print("api: %s" % exc, file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
