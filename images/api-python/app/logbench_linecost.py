"""What one log line costs, seven ways, with Python's logging module: the Python half
of the line-cost experiment (the Go half is kit/incontainer/linecost, whose Document
this program's JSON follows field for field).

The ways, each as logging really does it:
  format          a handler that formats the record and writes nothing
  disabled-eager  logger.debug(f"...") under INFO: the f-string is built, then dropped
  disabled-lazy   logger.debug("...%s", arg) under INFO: the level check returns first
  buffered        a StreamHandler that does not flush each record, over a 4 KiB buffer,
                  flushed by a thread every second (logging has no such handler: its
                  StreamHandler flushes after every record)
  unbuffered      logging.StreamHandler: write and flush per record, one write(2) a line
  fsync           a StreamHandler whose flush also calls os.fsync, per record
  queue           logging.handlers.QueueHandler on a bounded queue.Queue, formatting on
                  the caller (prepare), and a QueueListener writing each line with a
                  StreamHandler; when the queue is full, block (default) or drop

Every enabled way writes the same line as the Go program, without a time stamp, so
that a trial's bytes follow from its line count and can be verified on the host.

Run as python3 -m logbench_linecost (from the app directory) or python3
/app/logbench_linecost.py, with the flags of cmd/incontainer/linecost. Standard
library only.
"""

import argparse
import gc
import hashlib
import io
import json
import logging
import logging.handlers
import os
import queue
import sys
import threading
import time

import logbench_api

WAYS = ["format", "disabled-eager", "disabled-lazy", "buffered", "unbuffered", "fsync", "queue"]
FILE_WAYS = {"buffered", "unbuffered", "fsync", "queue"}
BLOCK, DROP = "block", "drop"

# The fewest lines a trial may have; why, see MinLines in kit/incontainer/linecost.
MIN_LINES = 1000
DEFAULT_LINES = 20000
DEFAULT_TRIALS = 5
DEFAULT_WARMUP = 1
DEFAULT_QUEUE_SIZE = 1024
DEFAULT_BUFFER_BYTES = 4096
DEFAULT_FLUSH_INTERVAL_S = 1.0
DEFAULT_TIMER_READS = 100000

# The line: four fields after the level and the message.
USER_NAME = "alice"
ITEM_PATH = "/api/items"
HTTP_STATUS = 200
MESSAGE = "served seq=%d user=%s path=%s status=%d"
FORMAT = "level=%(levelname)s msg=%(message)s"
LINE_FORMAT = "level=INFO msg=served seq={seq} user=alice path=/api/items status=200"

CGROUP_FIELDS = ["unix_ns", "cgroup_version", "cpu_limit_cores", "memory_limit_bytes",
                 "swap_limit_bytes", "cpu_usage_ns", "cpu_periods", "cpu_throttled_periods",
                 "cpu_throttled_ns", "memory_usage_bytes", "memory_peak_bytes"]


def line(seq):
    """Line seq as every enabled way writes it, newline included."""
    return b"level=INFO msg=served seq=%d user=alice path=/api/items status=200\n" % seq


# --- counting -----------------------------------------------------------------------

class Tally:
    """Counts and hashes a byte stream as the experiment verifies it (contract.Counts)."""

    def __init__(self):
        self.h = hashlib.sha256()
        self.bytes = 0
        self.lines = 0

    def add(self, data):
        self.h.update(data)
        self.bytes += len(data)
        self.lines += data.count(b"\n")

    def counts(self):
        return {"bytes": self.bytes, "lines": self.lines, "sha256": self.h.hexdigest()}


def expected(lines):
    """What lines calls of an enabled way generate: lines 0..lines-1."""
    t = Tally()
    chunk = []
    for seq in range(lines):
        chunk.append(line(seq))
        if len(chunk) == 1024:
            t.add(b"".join(chunk))
            chunk = []
    t.add(b"".join(chunk))
    return t.counts()


def nothing():
    return Tally().counts()


def no_file():
    return {"bytes": 0, "lines": 0, "sha256": ""}


def read_back(path):
    t = Tally()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 16):
            t.add(chunk)
    return t.counts()


class CountingFileIO(io.FileIO):
    """The way's log file, counting its writes: FileIO.write is one write(2)."""

    def __init__(self, path, mode="w"):
        super().__init__(path, mode)
        self.write_calls = 0
        self.written_bytes = 0

    def write(self, b):
        self.write_calls += 1
        n = super().write(b)
        self.written_bytes += n or 0
        return n


def open_text(path, buffer_bytes=io.DEFAULT_BUFFER_SIZE):
    """The stack open() builds for a text file, over a counting FileIO."""
    raw = CountingFileIO(path)
    text = io.TextIOWrapper(io.BufferedWriter(raw, buffer_bytes), encoding="utf-8", newline="\n")
    return raw, text


def thread_write_syscalls():
    """The calling thread's write system calls so far, as the kernel counts them; -1 when
    it does not say."""
    try:
        with open("/proc/thread-self/io", "rb") as f:
            for row in f:
                if row.startswith(b"syscw:"):
                    return int(row.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return -1


# --- the ways -----------------------------------------------------------------------

class User:
    """The line's argument that costs something to render; counts its renderings so that
    every trial shows which ways build their lines."""

    def __init__(self, name):
        self.name = name
        self.built = 0

    def __str__(self):
        self.built += 1
        return self.name


class FormatOnlyHandler(logging.Handler):
    """Formats each record as StreamHandler would, and writes it nowhere."""

    def __init__(self, sink=None):
        super().__init__()
        self.sink = sink  # tests see what was formatted

    def emit(self, record):
        msg = self.format(record) + "\n"
        if self.sink is not None:
            self.sink.append(msg)


class PeriodicFlushHandler(logging.StreamHandler):
    """A StreamHandler over a buffered stream that does not flush each record: the buffer
    writes when full, and a thread flushes it every interval so that a quiet logger's
    last lines still reach the file."""

    def __init__(self, stream, interval):
        super().__init__(stream)
        self.interval = interval
        self._stop = threading.Event()
        self._flusher = threading.Thread(target=self._flush_every, name="linecost-flush", daemon=True)
        self._flusher.start()

    def flush(self):
        """StreamHandler.emit calls this after every record: deliberately nothing."""

    def flush_now(self):
        with self.lock:
            self.stream.flush()

    def _flush_every(self):
        while not self._stop.wait(self.interval):
            self.flush_now()

    def close(self):
        self._stop.set()
        self._flusher.join()
        self.flush_now()
        super().close()


class FsyncStreamHandler(logging.StreamHandler):
    """A StreamHandler whose per-record flush also makes the line durable."""

    def __init__(self, stream):
        super().__init__(stream)
        self.fsync_calls = 0

    def flush(self):
        with self.lock:
            super().flush()
            os.fsync(self.stream.fileno())
            self.fsync_calls += 1


class BoundedQueueHandler(logging.handlers.QueueHandler):
    """QueueHandler with a policy for a full queue: QueueHandler's put_nowait would
    report queue.Full through handleError, printing a traceback per line."""

    def __init__(self, q, drop):
        super().__init__(q)
        self.drop = drop
        self.waits = 0  # calls that found the queue full; emit runs under the handler's lock
        self.dropped = 0

    def enqueue(self, record):
        try:
            self.queue.put_nowait(record)
        except queue.Full:
            if self.drop:
                self.dropped += 1
                return
            self.waits += 1
            self.queue.put(record)


class Listener(logging.handlers.QueueListener):
    """QueueListener whose stop waits for room in a full queue instead of failing."""

    def enqueue_sentinel(self):
        self.queue.put(self._sentinel)


WAY_INFO = {
    "format": ('logger.info("served seq=%d user=%s path=%s status=%d", seq, user, path, 200)',
               "a logging.Handler formats the record as StreamHandler does and writes it nowhere"),
    "disabled-eager": ('logger.debug(f"served seq={seq} user={user} path={path} status={200}")',
                       "the f-string is built at the call site; Logger.debug finds DEBUG disabled and returns"),
    "disabled-lazy": ('logger.debug("served seq=%d user=%s path=%s status=%d", seq, user, path, 200)',
                      "Logger.debug finds DEBUG disabled and returns: the arguments are never rendered"),
    "buffered": ('logger.info("served seq=%d user=%s path=%s status=%d", seq, user, path, 200)',
                 "a StreamHandler that does not flush each record, over a TextIOWrapper and BufferedWriter of 4 KiB, "
                 "which write when full; a thread flushes them every second"),
    "unbuffered": ('logger.info("served seq=%d user=%s path=%s status=%d", seq, user, path, 200)',
                   "logging.StreamHandler writes and flushes each record: one write system call per line, as to sys.stderr"),
    "fsync": ('logger.info("served seq=%d user=%s path=%s status=%d", seq, user, path, 200)',
              "a logging.StreamHandler whose per-record flush also calls os.fsync"),
    "queue": ('logger.info("served seq=%d user=%s path=%s status=%d", seq, user, path, 200)',
              "logging.handlers.QueueHandler formats on the caller and puts the record on a bounded queue.Queue; "
              "a QueueListener thread writes each line with a StreamHandler, one write system call per line"),
}


class Instance:
    """One trial's set-up of a way: run(n) is the measured loop, finish() gets every line
    out of the process and closes the file."""

    def __init__(self):
        self.user = User(USER_NAME)
        self.run = None
        self.raw = None  # the CountingFileIO of the ways that write a file
        self.fsync_handler = None
        self.queue_handler = None
        self._close = []

    def finish(self):
        for close in self._close:
            close()


def new_instance(way, path, buffer_bytes=DEFAULT_BUFFER_BYTES, flush_interval=DEFAULT_FLUSH_INTERVAL_S,
                 queue_size=DEFAULT_QUEUE_SIZE, queue_full=BLOCK, sink=None):
    if way not in WAYS:
        raise ValueError("unknown way %r (ways: %s)" % (way, ", ".join(WAYS)))
    inst = Instance()
    user = inst.user
    log = logging.getLogger("logbench.linecost." + way)
    for h in list(log.handlers):
        log.removeHandler(h)
    log.propagate = False
    log.setLevel(logging.INFO)
    formatter = logging.Formatter(FORMAT)

    if way == "disabled-eager":
        def run(n):
            for seq in range(n):
                log.debug(f"served seq={seq} user={user} path={ITEM_PATH} status={HTTP_STATUS}")
        inst.run = run
        return inst
    if way == "disabled-lazy":
        def run(n):
            for seq in range(n):
                log.debug(MESSAGE, seq, user, ITEM_PATH, HTTP_STATUS)
        inst.run = run
        return inst

    if way == "format":
        handler = FormatOnlyHandler(sink)
    elif way == "queue":
        inst.raw, stream = open_text(path)
        writer = logging.StreamHandler(stream)  # the default formatter: the line is made
        handler = BoundedQueueHandler(queue.Queue(queue_size), queue_full == DROP)
        listener = Listener(handler.queue, writer)
        listener.start()
        inst.queue_handler = handler
        inst._close += [listener.stop, writer.close, stream.close]
    else:
        inst.raw, stream = open_text(path, buffer_bytes if way == "buffered" else io.DEFAULT_BUFFER_SIZE)
        if way == "buffered":
            # The text layer collects 8 KiB before it hands bytes to the buffer; make it
            # hand them on at the buffer's size, so that the file sees writes of ~4 KiB.
            stream._CHUNK_SIZE = buffer_bytes
            handler = PeriodicFlushHandler(stream, flush_interval)
        elif way == "fsync":
            handler = FsyncStreamHandler(stream)
            inst.fsync_handler = handler
        else:
            handler = logging.StreamHandler(stream)
        inst._close += [handler.close, stream.close]
    handler.setFormatter(formatter)
    log.addHandler(handler)
    inst._close.insert(0, lambda: log.removeHandler(handler))

    def run(n):
        for seq in range(n):
            log.info(MESSAGE, seq, user, ITEM_PATH, HTTP_STATUS)
    inst.run = run
    return inst


# --- measuring ----------------------------------------------------------------------

class Config:
    def __init__(self, dir, ways=None, lines=DEFAULT_LINES, trials=DEFAULT_TRIALS, warmup=DEFAULT_WARMUP,
                 queue_size=DEFAULT_QUEUE_SIZE, queue_full=BLOCK, buffer_bytes=DEFAULT_BUFFER_BYTES,
                 flush_interval=DEFAULT_FLUSH_INTERVAL_S, timer_reads=DEFAULT_TIMER_READS,
                 cgroup_root="/sys/fs/cgroup", mountinfo="/proc/self/mountinfo"):
        self.dir = dir
        self.ways = list(WAYS if ways is None else ways)
        self.lines = lines
        self.trials = trials
        self.warmup = warmup
        self.queue_size = queue_size
        self.queue_full = queue_full
        self.buffer_bytes = buffer_bytes
        self.flush_interval = flush_interval
        self.timer_reads = timer_reads
        self.cgroup_root = cgroup_root
        self.mountinfo = mountinfo

    def writes_files(self):
        return any(w in FILE_WAYS for w in self.ways)

    def problems(self):
        """What is wrong with the configuration, one message each."""
        out = []
        if not self.ways:
            out.append("no ways to measure")
        for i, w in enumerate(self.ways):
            if w not in WAYS:
                out.append("unknown way %r (ways: %s)" % (w, ", ".join(WAYS)))
            elif w in self.ways[:i]:
                out.append("way %r given twice" % w)
        if self.lines < MIN_LINES:
            out.append("%d lines per trial is below the minimum of %d: a shorter trial is too close to "
                       "the clock's resolution and the cost of reading it" % (self.lines, MIN_LINES))
        if self.trials < 1:
            out.append("trials must be at least 1, not %d" % self.trials)
        if self.warmup < 0:
            out.append("warm-up trials must be 0 or more, not %d" % self.warmup)
        if self.queue_size < 1:
            out.append("queue size must be at least 1, not %d" % self.queue_size)
        if self.queue_full not in (BLOCK, DROP):
            out.append("queue-full policy must be %r or %r, not %r" % (BLOCK, DROP, self.queue_full))
        if self.buffer_bytes < 1:
            out.append("buffer size must be at least 1 byte, not %d" % self.buffer_bytes)
        if self.flush_interval <= 0:
            out.append("flush interval must be positive, not %r" % self.flush_interval)
        if self.timer_reads < 1:
            out.append("timer reads must be at least 1, not %d" % self.timer_reads)
        if self.writes_files() and not os.path.isdir(self.dir):
            out.append("directory for the log files: %s is not a directory" % self.dir)
        return out


def measure_timer(reads):
    """Each clock read reads times back to back (kit/incontainer/linecost.TimerCost)."""
    mono, cpu = time.monotonic_ns, time.thread_time_ns
    start = mono()
    for _ in range(reads):
        mono()
    mono_ns = (mono() - start) / reads
    start = mono()
    for _ in range(reads):
        cpu()
    cpu_ns = (mono() - start) / reads
    return {
        "reads": reads,
        "monotonic_ns_per_read": mono_ns,
        "thread_cpu_ns_per_read": cpu_ns,
        "monotonic_resolution_ns": round(time.clock_getres(time.CLOCK_MONOTONIC) * 1e9),
        "thread_cpu_resolution_ns": round(time.clock_getres(time.CLOCK_THREAD_CPUTIME_ID) * 1e9),
    }


def _unescape(s):
    # mountinfo escapes space, tab, newline and backslash as \ooo.
    if "\\" not in s:
        return s
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 3 < len(s) and all(c in "01234567" for c in s[i + 1:i + 4]):
            out.append(chr(int(s[i + 1:i + 4], 8)))
            i += 4
            continue
        out.append(s[i])
        i += 1
    return "".join(out)


def parse_mountinfo_line(row):
    f = row.split()
    try:
        sep = f.index("-", 6)
    except ValueError:
        return None
    if len(f) < sep + 4:
        return None
    return {"mount_point": _unescape(f[4]), "fs_type": f[sep + 1], "source": _unescape(f[sep + 2]),
            "mount_options": f[5], "super_options": f[sep + 3]}


def _within(path, mount_point):
    return mount_point == "/" or path == mount_point or path.startswith(mount_point + "/")


def read_fs_facts(mountinfo, dir):
    """The mount that holds dir (kit/incontainer/linecost.FSFacts)."""
    path = os.path.realpath(os.path.abspath(dir))
    best = None
    with open(mountinfo) as f:
        for row in f:
            m = parse_mountinfo_line(row)
            if m is None or not _within(path, m["mount_point"]):
                continue
            # The longest mount point wins; of equal ones the later, which hides the earlier.
            if best is None or len(m["mount_point"]) >= len(best["mount_point"]):
                best = m
    if best is None:
        raise RuntimeError("no mount holds %s in %s" % (path, mountinfo))
    return {"dir": dir, "mount_point": best["mount_point"], "fs_type": best["fs_type"],
            "source": best["source"], "mount_options": best["mount_options"],
            "super_options": best["super_options"]}


def read_cgroup(root):
    try:
        return logbench_api.read_cgroup(root), ""
    except (OSError, ValueError) as exc:
        return dict.fromkeys(CGROUP_FIELDS, 0), str(exc)


def trial(cfg, way, name):
    """One trial of way (kit/incontainer/linecost.Trial)."""
    path = os.path.join(cfg.dir, name) if way in FILE_WAYS else ""
    inst = new_instance(way, path, cfg.buffer_bytes, cfg.flush_interval, cfg.queue_size, cfg.queue_full)
    # Every trial starts from a collected heap, so that one trial does not pay for the
    # garbage of the one before.
    gc.collect()
    before, err_before = read_cgroup(cfg.cgroup_root)
    sys0 = thread_write_syscalls()

    cpu0 = time.thread_time_ns()
    t0 = time.monotonic_ns()
    inst.run(cfg.lines)
    t1 = time.monotonic_ns()
    cpu1 = time.thread_time_ns()

    sys1 = thread_write_syscalls()
    inst.finish()
    t2 = time.monotonic_ns()
    after, err_after = read_cgroup(cfg.cgroup_root)

    raw, qh = inst.raw, inst.queue_handler
    return {
        "trial": 0,
        "lines": cfg.lines,
        "thread_cpu_ns": cpu1 - cpu0,
        "wall_ns": t1 - t0,
        "drain_wall_ns": t2 - t1,
        "cgroup_before": before,
        "cgroup_after": after,
        "cgroup_error": "; ".join(e for e in (err_before, err_after) if e),
        "args_built": inst.user.built,
        "thread_write_syscalls": sys1 - sys0 if sys0 >= 0 and sys1 >= 0 else -1,
        "write_calls": raw.write_calls if raw else 0,
        "fsync_calls": inst.fsync_handler.fsync_calls if inst.fsync_handler else 0,
        "written_bytes": raw.written_bytes if raw else 0,
        "queue_full_waits": qh.waits if qh else 0,
        "lines_dropped": qh.dropped if qh else 0,
        "generated": nothing() if way.startswith("disabled-") else expected(cfg.lines),
        "file_name": name if path else "",
        "file": read_back(path) if path else no_file(),
    }


def run(cfg):
    """Measures cfg's ways; returns the document (kit/incontainer/linecost.Document).
    Trials go round-robin over the ways; warm-ups are discarded with their files."""
    problems = cfg.problems()
    if problems:
        raise ValueError("; ".join(problems))
    doc = {
        "experiment": "line-cost",
        "language": "python",
        "runtime": logbench_api.runtime_version(),
        "library": "logging",
        "line_format": LINE_FORMAT,
        "started_unix_ns": time.time_ns(),
        "lines_per_trial": cfg.lines,
        "trials": cfg.trials,
        "warmup_trials": cfg.warmup,
        "queue_size": cfg.queue_size,
        "queue_full": cfg.queue_full,
        "buffer_bytes": cfg.buffer_bytes,
        "flush_interval_ns": round(cfg.flush_interval * 1e9),
        "timer": measure_timer(cfg.timer_reads),
        "fs": read_fs_facts(cfg.mountinfo, cfg.dir) if cfg.writes_files() else
        {"dir": cfg.dir, "mount_point": "", "fs_type": "", "source": "", "mount_options": "", "super_options": ""},
        "ways": [{"way": w, "call": WAY_INFO[w][0], "path": WAY_INFO[w][1], "trials": []} for w in cfg.ways],
    }
    for rnd in range(cfg.warmup + cfg.trials):
        for i, w in enumerate(cfg.ways):
            warm = rnd < cfg.warmup
            if warm:
                name = "linecost-python-%s-warmup-%02d.log" % (w, rnd)
            else:
                name = "linecost-python-%s-%02d.log" % (w, rnd - cfg.warmup)
            tr = trial(cfg, w, name)
            if warm:
                if tr["file_name"]:
                    os.remove(os.path.join(cfg.dir, tr["file_name"]))
                continue
            tr["trial"] = rnd - cfg.warmup
            doc["ways"][i]["trials"].append(tr)
    return doc


def parse_args(argv):
    p = argparse.ArgumentParser(prog="logbench_linecost", description="what one log line costs, seven ways")
    p.add_argument("-ways", default=",".join(WAYS), help="comma-separated ways to measure")
    p.add_argument("-lines", type=int, default=DEFAULT_LINES, help="lines per trial (at least %d)" % MIN_LINES)
    p.add_argument("-trials", type=int, default=DEFAULT_TRIALS, help="trials per way, kept")
    p.add_argument("-warmup", type=int, default=DEFAULT_WARMUP, help="warm-up trials per way, run first and discarded")
    p.add_argument("-dir", default="/run/logbench", help="directory for the log files (the run's volume)")
    p.add_argument("-out", default="-", help='file for the JSON document ("-": standard output)')
    p.add_argument("-queue-size", dest="queue_size", type=int, default=DEFAULT_QUEUE_SIZE,
                   help="lines the queue way's queue holds")
    p.add_argument("-queue-full", dest="queue_full", default=BLOCK, help="when the queue is full: block or drop")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    cfg = Config(args.dir, ways=args.ways.split(","), lines=args.lines, trials=args.trials,
                 warmup=args.warmup, queue_size=args.queue_size, queue_full=args.queue_full)
    problems = cfg.problems()
    if problems:
        print("linecost: " + "; ".join(problems), file=sys.stderr, flush=True)
        return 2
    try:
        doc = run(cfg)
        text = json.dumps(doc, indent=2) + "\n"
        if args.out == "-":
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            with open(args.out, "w") as f:
                f.write(text)
    except Exception as exc:
        print("linecost: %s" % exc, file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
