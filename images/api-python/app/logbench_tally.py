"""The counters of the logging path: bytes, newlines and SHA-256 of what was generated
and of what was written, and the timeline of bytes generated.

The JSON they produce is kit/contract/contract.go's Counters, Counts and Sample.
"""

import hashlib
import threading
import time


class Tally:
    """Bytes, newlines and a running SHA-256 of a byte stream (kit/contract/contract.go's
    Counts). Callers lock."""

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


class Counters:
    """What the logging path has seen since the last reset (kit/contract/contract.go's
    Counters), and the timeline of bytes generated. Shared by the event loop, the queue
    listener's thread and the control server's threads."""

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
