import hashlib
import io
import json
import os
import tempfile
import threading
import time
import unittest

from helpers import logbench_modes as modes, logbench_server as server, logbench_tally as tally


class ModeTest(unittest.TestCase):
    def run_mode(self, mode, requests=3, max_bytes=0):
        """Logs requests through mode into a temporary file; returns (bytes, counters)."""
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "log")
            counters = tally.Counters(max_bytes)
            with open(path, "w", encoding="utf-8") as stream:
                logger = modes.ModeLogger(mode, stream, counters)
                results = [logger.log(seq) for seq in range(requests)]
                logger.close()
            with open(path, "rb") as f:
                return f.read(), counters.snapshot(), results

    def test_every_mode_writes_its_exact_bytes_per_request(self):
        want = {"none": 0, "short1": 128, "short10": 1280, "json-only": 0,
                "json-prebuilt-sync": 16384, "json-sync": 16384, "json-queue": 16384}
        self.assertEqual(set(want), set(modes.MODES))
        for mode in modes.MODES:
            with self.subTest(mode=mode):
                self.assertEqual(modes.bytes_per_request(mode), want[mode])
                out, c, results = self.run_mode(mode)
                for _, _, err in results:
                    self.assertIsNone(err)
                self.assertEqual(len(out), 3 * want[mode])
                self.assertEqual(c["generated"], c["written"])
                self.assertEqual(c["written"]["bytes"], len(out))
                self.assertEqual(c["written"]["lines"], out.count(b"\n"))
                self.assertEqual(c["written"]["sha256"], hashlib.sha256(out).hexdigest())
                self.assertEqual((c["queue_drops"], c["write_errors"], c["failure"]), (0, 0, ""))
                for line in out.splitlines(keepends=True):
                    self.assertEqual(len(line), want[mode] if mode != "short10" else 128)

    def test_short_line_is_127_characters_and_a_newline(self):
        out, _, _ = self.run_mode("short1", requests=1)
        self.assertEqual(len(out), 128)
        self.assertTrue(out.endswith(b"-\n"))
        self.assertTrue(out.startswith(b"INFO api: request served"))

    def test_json_record_fields_and_size(self):
        out, _, results = self.run_mode("json-sync", requests=2)
        lines = out.splitlines(keepends=True)
        self.assertEqual([len(line) for line in lines], [16384, 16384])
        self.assertNotEqual(lines[0], lines[1])
        rec = json.loads(lines[1])
        self.assertEqual(list(rec), ["ts", "level", "msg", "seq", "payload"])
        self.assertEqual(rec["seq"], "000000000001")
        self.assertEqual(rec["level"], "INFO")
        self.assertEqual(len(rec["ts"]), len("2006-01-02T15:04:05.000000000Z"))
        self.assertTrue(rec["ts"].endswith("Z"))
        self.assertEqual(set(rec["payload"]), {"x"})
        self.assertTrue(lines[0].startswith(b'{"ts":"'))
        for gen, call, _ in results:
            self.assertGreater(gen, 0)
            self.assertGreater(call, 0)

    def test_record_time_layout(self):
        self.assertEqual(modes.record_time(1_700_000_000_000_000_123), "2023-11-14T22:13:20.000000123Z")
        self.assertEqual(modes.record_time(0), "1970-01-01T00:00:00.000000000Z")

    def test_prebuilt_record_is_the_same_every_request(self):
        out, _, results = self.run_mode("json-prebuilt-sync")
        lines = out.splitlines()
        self.assertEqual(len(set(lines)), 1)
        self.assertEqual(json.loads(lines[0])["seq"], "000000000000")
        self.assertTrue(all(gen == 0 for gen, _, _ in results))

    def test_json_only_times_generation_and_writes_nothing(self):
        out, c, results = self.run_mode("json-only")
        self.assertEqual(out, b"")
        self.assertEqual(c["generated"]["bytes"], 0)
        self.assertTrue(all(gen > 0 and call == 0 for gen, call, _ in results))

    def test_output_cap_refuses_records_beyond_it(self):
        out, c, results = self.run_mode("short1", requests=10, max_bytes=300)
        self.assertEqual(len(out), 256)
        self.assertEqual(c["generated"]["bytes"], 256)
        self.assertEqual(c["written"]["bytes"], 256)
        self.assertEqual(c["failure"], "output volume cap reached (300 bytes)")
        errors = [err for _, _, err in results]
        self.assertIsNone(errors[1])
        self.assertIsInstance(errors[2], tally.OutputCapReached)

    def test_unknown_mode_is_refused(self):
        with self.assertRaises(ValueError):
            modes.ModeLogger("json-async", io.StringIO(), tally.Counters())


class BlockingStream:
    """Stands for a FIFO whose reader has stopped reading."""

    def __init__(self):
        self.release = threading.Event()
        self.data = io.StringIO()

    def write(self, s):
        self.release.wait()
        self.data.write(s)

    def flush(self):
        pass


class FailingStream:
    def write(self, s):
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self):
        pass


class QueueTest(unittest.TestCase):
    def test_full_queue_is_counted_and_fails_the_run(self):
        stream = BlockingStream()
        counters = tally.Counters()
        logger = modes.ModeLogger("json-queue", stream, counters, queue_capacity=2)
        try:
            # One record is taken by the writer, two wait in the queue, the next has no room.
            self.assertIsNone(logger.log(0)[2])
            deadline = time.monotonic() + 5
            while logger.queue.qsize() > 0 and time.monotonic() < deadline:
                time.sleep(0.001)
            self.assertIsNone(logger.log(1)[2])
            self.assertIsNone(logger.log(2)[2])
            _, _, err = logger.log(3)
            self.assertIsInstance(err, modes.QueueFull)
            c = counters.snapshot()
            self.assertEqual(c["queue_drops"], 1)
            self.assertEqual(c["failure"], "log queue full: record dropped")
            self.assertEqual(c["generated"]["bytes"], 4 * 16384)
        finally:
            stream.release.set()
            logger.close()
        c = counters.snapshot()
        self.assertEqual(c["written"]["bytes"], 3 * 16384)
        self.assertEqual(len(stream.data.getvalue()), 3 * 16384)

    def test_queue_returns_before_the_write(self):
        stream = BlockingStream()
        counters = tally.Counters()
        logger = modes.ModeLogger("json-queue", stream, counters)
        try:
            _, _, err = logger.log(0)
            self.assertIsNone(err)
            c = counters.snapshot()
            self.assertEqual((c["generated"]["bytes"], c["written"]["bytes"]), (16384, 0))
        finally:
            stream.release.set()
            logger.close()
        self.assertEqual(counters.snapshot()["written"]["bytes"], 16384)

    def test_write_error_is_counted_sync_and_queued(self):
        for mode in ("json-sync", "short10", "json-queue"):
            with self.subTest(mode=mode):
                counters = tally.Counters()
                logger = modes.ModeLogger(mode, FailingStream(), counters)
                _, _, err = logger.log(0)
                logger.close()
                if mode != "json-queue":  # a queued write fails after the caller returned
                    self.assertIsInstance(err, BrokenPipeError)
                c = counters.snapshot()
                self.assertGreaterEqual(c["write_errors"], 1)
                self.assertTrue(c["failure"].startswith("log write:"), c["failure"])
                self.assertEqual(c["written"]["bytes"], 0)


class PipeTest(unittest.TestCase):
    def test_fifo_sink_with_a_reader(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "log.fifo")
            server.make_fifo(path)
            server.make_fifo(path)  # an existing FIFO is accepted
            got = []

            def read():
                with open(path, "rb") as f:
                    got.append(f.read())
            t = threading.Thread(target=read)
            t.start()
            counters = tally.Counters()
            with open(path, "w", encoding="utf-8") as stream:
                logger = modes.ModeLogger("json-queue", stream, counters)
                for seq in range(20):  # 320 KiB: more than the pipe holds
                    self.assertIsNone(logger.log(seq)[2])
                logger.close()
            t.join(10)
            self.assertEqual(len(got[0]), 20 * 16384)
            c = counters.snapshot()
            self.assertEqual(c["written"]["sha256"], hashlib.sha256(got[0]).hexdigest())
            self.assertEqual(c["written"], c["generated"])

    def test_make_fifo_refuses_a_regular_file(self):
        with tempfile.NamedTemporaryFile() as f:
            with self.assertRaises(RuntimeError):
                server.make_fifo(f.name)


if __name__ == "__main__":
    unittest.main()
