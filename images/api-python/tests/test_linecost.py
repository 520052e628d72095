import contextlib
import hashlib
import io
import json
import logging
import os
import tempfile
import threading
import time
import unittest
from unittest import mock

import helpers  # noqa: F401 (puts app/ on the path)
import logbench_linecost as lc
from test_control import go_json_tags

DOC_GO = "kit/contract/linecost.go"
LINES = lc.MIN_LINES
# Lines 0..999 as both programs write them; the Go test holds the same digest.
EXPECTED_1000 = {"bytes": 67890, "lines": 1000,
                 "sha256": "24b1b20f6d1ca0ff7a562695f8f2f57c783964868b21742f4b324390603272b4"}
EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def config(dir, **kw):
    kw.setdefault("lines", LINES)
    kw.setdefault("flush_interval", 3600)  # no periodic flush inside a trial unless a test asks
    kw.setdefault("timer_reads", 1000)
    kw.setdefault("line_shape", "text-notime")  # the line before lines had a time stamp
    return lc.Config(dir, **kw)


def importable(name):
    try:
        __import__(name)
        return True
    except ImportError:
        return False


# The templates the Go registry holds (kit/incontainer/linecost/libraries.go), read from
# its source: the host regenerates every line from those, so these must be the same.
def go_templates():
    import re
    root = os.path.join(os.path.dirname(__file__), "..", "..", "..")
    with open(os.path.join(root, "kit/incontainer/linecost/libraries.go")) as f:
        src = f.read()
    consts = {"textFields": lc.TEXT_FIELDS, "jsonFields": '"seq":{seq},"user":"alice","path":"/api/items","status":200'}
    out = {}
    for lib in re.finditer(r'\{ID: "(\w+)", Language: "(\w+)".*?\n\t\}', src, re.S):
        for shape, expr in re.findall(r"Line(\w+):\s+(.+),\n", lib.group(0)):
            value = ""
            for part in re.findall(r'"(?:[^"\\]|\\.)*"|`[^`]*`|\w+', expr):
                if part[0] == "`":
                    value += part[1:-1]
                elif part[0] == '"':
                    value += json.loads(part)
                else:
                    value += consts[part]
            name = {"Text": "text", "TextNoTime": "text-notime", "JSON": "json", "JSONNoTime": "json-notime"}[shape]
            out.setdefault(lib.group(1), {})[name] = value
    return out


class LibrariesTest(unittest.TestCase):
    """structlog and loguru (Debian's python3-structlog and python3-loguru, in the Python
    base), and logging with time stamps: each writes the Go registry's template."""

    def test_templates_are_the_kits(self):
        go = go_templates()
        for lib, spec in lc.LIBRARIES.items():
            self.assertEqual(spec["lines"], go[lib], lib)
        self.assertIn("[T ]", lc.TIME_PATTERN)

    def test_masker(self):
        mask = lc.masker("time={time} level=INFO seq={seq}")
        self.assertEqual(mask(b"time=2026-12-01 16:05:43,504 level=INFO seq=7"), b"time={time} level=INFO seq=7")
        self.assertEqual(mask(b"time=later level=INFO seq=7"), b"time=later level=INFO seq=7")
        self.assertIsNone(lc.masker("level=INFO seq={seq}"))

    def check_library(self, library, shape):
        template = lc.template_of(library, shape)
        want = lc.expected_of(template, LINES)
        with tempfile.TemporaryDirectory() as d:
            cfg = config(d, library=library, line_shape=shape)
            sink = []
            inst = lc.new_instance("format", "", sink=sink, library=library, line_shape=shape)
            inst.run(LINES)
            inst.finish()
            mask = lc.masker(template) or (lambda r: r)
            got = b"".join(mask(x.encode().rstrip(b"\n")) + b"\n" for x in sink)
            self.assertEqual(got.split(b"\n")[0], lc.render(template, 0).rstrip(b"\n"), (library, shape, sink[0]))
            self.assertEqual(inst.user.built, LINES)
            for way in ("buffered", "unbuffered", "fsync"):
                tr = lc.trial(cfg, way, "%s-%s.log" % (library, way))
                self.assertEqual(tr["file"], want, (library, shape, way))
                self.assertEqual(tr["generated"], want)
                self.assertEqual(tr["file_raw"]["bytes"], tr["written_bytes"])
                self.assertEqual("{time}" in template, tr["file_raw"]["sha256"] != tr["file"]["sha256"])
                if way == "unbuffered":
                    self.assertEqual(tr["write_calls"], LINES)
                if way == "fsync":
                    self.assertEqual(tr["fsync_calls"], LINES)
                if way == "buffered":
                    self.assertLessEqual(tr["write_calls"] * 10, LINES)
            for way, built in (("disabled-lazy", 0), ("disabled-eager", LINES)):
                tr = lc.trial(cfg, way, "x.log")
                self.assertEqual((tr["args_built"], tr["file_name"], tr["generated"]), (built, "", lc.nothing()), way)

    def test_logging_with_time(self):
        self.check_library("logging", "default")

    @unittest.skipUnless(importable("structlog"), "no structlog (Debian's python3-structlog)")
    def test_structlog(self):
        for shape in ("default", "text", "text-notime", "json-notime"):
            self.check_library("structlog", shape)

    @unittest.skipUnless(importable("loguru"), "no loguru (Debian's python3-loguru)")
    def test_loguru(self):
        for shape in ("default", "text-notime"):
            self.check_library("loguru", shape)

    def test_not_offered(self):
        for library, way, line in (("structlog", "queue", "default"), ("loguru", "queue", "default"),
                                   ("logging", "format", "json"), ("loguru", "format", "json")):
            self.assertIn(lc.NOT_OFFERED, " ".join(lc.Config("/tmp", ways=[way], library=library, line_shape=line).problems()))
            with self.assertRaisesRegex(ValueError, lc.NOT_OFFERED):
                lc.new_instance(way, "", library=library, line_shape=line)


class LineTest(unittest.TestCase):
    def test_line_and_digests(self):
        self.assertEqual(lc.line(42), b"level=INFO msg=served seq=42 user=alice path=/api/items status=200\n")
        self.assertEqual(lc.LINE_FORMAT.replace("{seq}", "42").encode() + b"\n", lc.line(42))
        self.assertEqual(lc.expected(1000), EXPECTED_1000)
        whole = b"".join(lc.line(i) for i in range(3000))  # crosses expected()'s chunks
        self.assertEqual(lc.expected(3000)["sha256"], hashlib.sha256(whole).hexdigest())
        self.assertEqual(lc.nothing(), {"bytes": 0, "lines": 0, "sha256": EMPTY_SHA256})

    def test_format_formats_the_line(self):
        sink = []
        inst = lc.new_instance("format", "", sink=sink)
        inst.run(LINES)
        inst.finish()
        self.assertEqual("".join(sink).encode(), b"".join(lc.line(i) for i in range(LINES)))
        self.assertEqual(inst.user.built, LINES)
        self.assertIsNone(inst.raw)


class WaysTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.cfg = config(self.dir.name)

    def tearDown(self):
        self.dir.cleanup()

    def trial(self, way):
        return lc.trial(self.cfg, way, "linecost-test-%s.log" % way)

    def test_disabled_ways(self):
        # The eager way renders the user for every line it then throws away; the lazy way
        # renders nothing at all.
        for way, built in (("disabled-eager", LINES), ("disabled-lazy", 0)):
            tr = self.trial(way)
            self.assertEqual(tr["args_built"], built, way)
            self.assertEqual(tr["generated"], lc.nothing(), way)
            self.assertEqual((tr["file_name"], tr["file"], tr["write_calls"]), ("", lc.no_file(), 0), way)
            self.assertLessEqual(tr["thread_write_syscalls"], 0, way)
        self.assertEqual(os.listdir(self.dir.name), [])

    def check_written(self, tr):
        want = lc.expected(LINES)
        self.assertEqual(tr["generated"], want)
        self.assertEqual(tr["file"], want)
        self.assertEqual(tr["written_bytes"], want["bytes"])
        self.assertEqual(tr["args_built"], LINES)
        self.assertEqual(tr["lines_dropped"], 0)
        self.assertGreater(tr["thread_cpu_ns"], 0)
        self.assertGreater(tr["wall_ns"], 0)

    def test_unbuffered_writes_each_line(self):
        tr = self.trial("unbuffered")
        self.check_written(tr)
        # StreamHandler flushes after every record: one write(2) a line, on the caller.
        self.assertEqual((tr["write_calls"], tr["fsync_calls"]), (LINES, 0))
        if tr["thread_write_syscalls"] >= 0:
            self.assertEqual(tr["thread_write_syscalls"], LINES)

    def test_fsync_syncs_each_line(self):
        with mock.patch.object(lc.os, "fsync", wraps=os.fsync) as fsync:
            tr = self.trial("fsync")
        self.check_written(tr)
        self.assertEqual(fsync.call_count, LINES)
        self.assertEqual((tr["write_calls"], tr["fsync_calls"]), (LINES, LINES))
        if tr["thread_write_syscalls"] >= 0:
            self.assertEqual(tr["thread_write_syscalls"], LINES)

    def test_buffered_writes_a_buffer_at_a_time(self):
        tr = self.trial("buffered")
        self.check_written(tr)
        # Writes of nearly the buffer's 4 KiB each: at least bytes/4096 of them, and no
        # more than if each fell a line short of the buffer, plus the final flush.
        size, longest = self.cfg.buffer_bytes, len(lc.line(LINES - 1))
        total = tr["written_bytes"]
        self.assertGreaterEqual(tr["write_calls"], total // size)
        self.assertLessEqual(tr["write_calls"], total // (size - longest) + 1)
        self.assertEqual(tr["fsync_calls"], 0)
        if tr["thread_write_syscalls"] >= 0:
            # All on the caller, when the buffer fills, but the flush of what is left at the
            # end (one or two writes: the text layer's rest may overflow the buffer's).
            self.assertIn(tr["thread_write_syscalls"], (tr["write_calls"] - 1, tr["write_calls"] - 2))

    def test_buffered_flushes_periodically(self):
        path = os.path.join(self.dir.name, "periodic.log")
        inst = lc.new_instance("buffered", path, flush_interval=0.02)
        try:
            inst.run(3)
            want = lc.expected(3)
            deadline = time.monotonic() + 5
            while lc.read_back(path) != want:
                self.assertLess(time.monotonic(), deadline, "the lines did not reach the file")
                time.sleep(0.005)
            self.assertEqual(inst.raw.write_calls, 1)
        finally:
            inst.finish()

    def test_queue_hands_off(self):
        tr = self.trial("queue")
        self.check_written(tr)
        # The listener's thread writes, one write(2) a line; the caller writes nothing.
        self.assertEqual(tr["write_calls"], LINES)
        if tr["thread_write_syscalls"] >= 0:
            self.assertEqual(tr["thread_write_syscalls"], 0)


class GatedHandler(logging.Handler):
    """Holds each record until released, so that a queue fills on demand."""

    def __init__(self):
        super().__init__()
        self.entered = threading.Event()
        self.gate = threading.Event()
        self.lines = []

    def emit(self, record):
        self.entered.set()
        self.gate.wait()
        self.lines.append(self.format(record))


class QueueFullTest(unittest.TestCase):
    def setup(self, drop):
        import queue
        target = GatedHandler()
        handler = lc.BoundedQueueHandler(queue.Queue(2), drop)
        handler.setFormatter(logging.Formatter(lc.FORMAT))
        listener = lc.Listener(handler.queue, target)
        listener.start()
        log = logging.getLogger("logbench.linecost.test-queue-%s" % drop)
        log.propagate = False
        log.setLevel(logging.INFO)
        log.addHandler(handler)
        self.addCleanup(log.removeHandler, handler)
        return log, handler, target, listener

    def test_drop(self):
        log, handler, target, listener = self.setup(drop=True)
        log.info(lc.MESSAGE, 0, "alice", lc.ITEM_PATH, lc.HTTP_STATUS)
        self.assertTrue(target.entered.wait(5))
        for seq in range(1, 10):
            log.info(lc.MESSAGE, seq, "alice", lc.ITEM_PATH, lc.HTTP_STATUS)
        target.gate.set()
        listener.stop()
        # The listener holds one line and the queue two: the other seven are dropped, and
        # what is written is the first lines, in order.
        self.assertEqual((handler.dropped, handler.waits), (7, 0))
        self.assertEqual([s + "\n" for s in target.lines], [lc.line(i).decode() for i in range(3)])

    def test_block(self):
        log, handler, target, listener = self.setup(drop=False)
        threading.Timer(0.05, target.gate.set).start()
        for seq in range(10):
            log.info(lc.MESSAGE, seq, "alice", lc.ITEM_PATH, lc.HTTP_STATUS)
        listener.stop()
        self.assertEqual(handler.dropped, 0)
        self.assertGreaterEqual(handler.waits, 1)
        self.assertEqual([s + "\n" for s in target.lines], [lc.line(i).decode() for i in range(10)])


class RunTest(unittest.TestCase):
    def test_trial_arithmetic_and_shape(self):
        with tempfile.TemporaryDirectory() as d:
            doc = lc.run(config(d, ways=["format", "unbuffered"], trials=2, warmup=1))
            self.assertEqual(sorted(os.listdir(d)),
                             ["linecost-python-unbuffered-00.log", "linecost-python-unbuffered-01.log"])
        self.assertEqual((doc["experiment"], doc["language"], doc["library"]), ("line-cost", "python", "logging"))
        self.assertTrue(doc["runtime"].startswith("Python 3."), doc["runtime"])
        self.assertEqual((doc["lines_per_trial"], doc["trials"], doc["warmup_trials"]), (LINES, 2, 1))
        self.assertEqual(doc["line_format"], "level=INFO msg=served seq={seq} user=alice path=/api/items status=200")
        t = doc["timer"]
        self.assertEqual(t["reads"], 1000)
        self.assertGreater(t["monotonic_ns_per_read"], 0)
        self.assertGreater(t["thread_cpu_ns_per_read"], 0)
        self.assertGreater(t["monotonic_resolution_ns"], 0)
        self.assertTrue(doc["fs"]["fs_type"] and doc["fs"]["mount_point"])
        self.assertEqual([w["way"] for w in doc["ways"]], ["format", "unbuffered"])
        for w in doc["ways"]:
            self.assertEqual([tr["trial"] for tr in w["trials"]], [0, 1])
            for tr in w["trials"]:
                self.assertEqual(tr["lines"], LINES)

        # The same fields, in the same order, as the Go program's document.
        self.assertEqual(list(doc), go_json_tags(DOC_GO, "LineCostDocument"))
        self.assertEqual(list(doc["timer"]), go_json_tags(DOC_GO, "LineCostTimer"))
        self.assertEqual(list(doc["fs"]), go_json_tags(DOC_GO, "LineCostFS"))
        counts = go_json_tags("kit/contract/contract.go", "Counts")
        snapshot = sorted(go_json_tags("kit/contract/contract.go", "CgroupSnapshot"))
        self.assertEqual(sorted(lc.CGROUP_FIELDS), snapshot)
        for w in doc["ways"]:
            self.assertEqual(list(w), go_json_tags(DOC_GO, "LineCostWay"))
            for tr in w["trials"]:
                self.assertEqual(list(tr), go_json_tags(DOC_GO, "LineCostTrial"))
                self.assertEqual(list(tr["generated"]), counts)
                self.assertEqual(list(tr["file"]), counts)
                if not tr["cgroup_error"]:
                    self.assertEqual(sorted(tr["cgroup_before"]), snapshot)
                    self.assertEqual(sorted(tr["cgroup_after"]), snapshot)
        self.assertEqual(lc.WAYS, ["format", "disabled-eager", "disabled-lazy", "buffered", "unbuffered",
                                   "fsync", "queue"])

    def test_command(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "doc.json")
            code = lc.main(["-ways", "format,disabled-lazy", "-lines", str(LINES), "-trials", "1",
                            "-warmup", "0", "-dir", d, "-out", out])
            self.assertEqual(code, 0)
            with open(out) as f:
                doc = json.load(f)
        self.assertEqual([len(w["trials"]) for w in doc["ways"]], [1, 1])
        self.assertEqual(doc["fs"]["fs_type"], "")  # no way wrote a file

    def test_bad_input(self):
        with tempfile.TemporaryDirectory() as d:
            for argv, want in ((["-lines", "999"], "below the minimum of 1000"),
                               (["-ways", "syslog"], "unknown way 'syslog'"),
                               (["-ways", "fsync,fsync"], "given twice"),
                               (["-queue-full", "wait"], "queue-full policy"),
                               (["-trials", "0"], "trials must be at least 1"),
                               (["-dir", os.path.join(d, "missing")], "not a directory")):
                err = io.StringIO()
                with contextlib.redirect_stderr(err):
                    code = lc.main(argv + ([] if "-dir" in argv else ["-dir", d]))
                self.assertEqual(code, 2, argv)
                self.assertIn(want, err.getvalue(), argv)
                self.assertEqual(err.getvalue().count("\n"), 1, argv)
            self.assertEqual(os.listdir(d), [])
        with self.assertRaisesRegex(ValueError, "minimum"):
            lc.run(lc.Config("/nonexistent", lines=10))


class FSFactsTest(unittest.TestCase):
    def test_mountinfo(self):
        with tempfile.TemporaryDirectory() as d:
            mi = os.path.join(d, "mountinfo")
            with open(mi, "w") as f:
                f.write(
                    "21 1 0:20 / / rw,relatime - overlay overlay rw,lowerdir=/l,upperdir=/u,workdir=/w\n"
                    "30 21 8:1 /volumes/run/_data /run/logbench rw,nosuid,nodev,noexec,relatime master:1"
                    " - ext4 /dev/sda1 rw,errors=remount-ro\n"
                    "31 21 0:30 / /run/logbench\\040old rw shared:2 - tmpfs tmpfs rw,size=1024k\n"
                    "32 30 0:31 / /run/logbench/sub rw - tmpfs tmpfs rw\n"
                    "33 21 8:1 / /run/logbench rw,relatime - xfs /dev/sdb rw,attr2\n")
            for dir, mount, fs, opts in (("/run/logbench", "/run/logbench", "xfs", "rw,relatime"),
                                         ("/run/logbench/x/y", "/run/logbench", "xfs", "rw,relatime"),
                                         ("/run/logbench/sub", "/run/logbench/sub", "tmpfs", "rw"),
                                         ("/run/logbench old", "/run/logbench old", "tmpfs", "rw"),
                                         ("/run/logbenchx", "/", "overlay", "rw,relatime")):
                f = lc.read_fs_facts(mi, dir)
                self.assertEqual((f["dir"], f["mount_point"], f["fs_type"], f["mount_options"]),
                                 (dir, mount, fs, opts))
            f = lc.read_fs_facts(mi, "/run/logbench/sub")
            self.assertEqual((f["source"], f["super_options"]), ("tmpfs", "rw"))
            self.assertRaises(OSError, lc.read_fs_facts, os.path.join(d, "none"), "/")


if __name__ == "__main__":
    unittest.main()
