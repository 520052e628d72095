"""The log-driver experiment's mode: numbered lines, byte for byte the Go contract's
(kit/contract/testdata/numbered_lines.txt, which a Go test keeps equal to
contract.NumberedLine), written to standard output with no FIFO, a full output holding
the request path."""

import fcntl
import hashlib
import http.client
import io
import json
import os
import select
import tempfile
import threading
import time
import unittest

from helpers import logbench_api as api, logbench_modes as modes, logbench_server as server, logbench_tally as tally

# The kit's tree: the repository beside these tests, or / in the test image, which
# carries the file to /kit/contract/testdata.
REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
FIXTURE = os.path.join(REPO, "kit", "contract", "testdata", "numbered_lines.txt")


def go_lines():
    """The Go contract's lines, by number. A missing file fails: it is the test."""
    with open(FIXTURE, "rb") as f:
        data = f.read()
    lines = data.splitlines(keepends=True)
    out = {int(line[len(b"logbench seq="):len(b"logbench seq=") + 12]): line for line in lines}
    if len(out) < 10 or len(out) != len(lines):
        raise AssertionError("%s holds %d lines, %d numbers" % (FIXTURE, len(lines), len(out)))
    return out


LONG_FIXTURE = os.path.join(REPO, "kit", "contract", "testdata", "numbered_lines_long.txt")


def go_long_lines():
    """The Go contract's lines of other lengths: (number, length, line) each."""
    with open(LONG_FIXTURE, "rb") as f:
        lines = f.read().splitlines(keepends=True)
    out = [(int(line[len(b"logbench seq="):len(b"logbench seq=") + 12]), len(line), line) for line in lines]
    if len(out) < 5:
        raise AssertionError("%s holds %d lines" % (LONG_FIXTURE, len(out)))
    return out


def lines_from(first, count):
    return b"".join(modes.numbered_line(seq) for seq in range(first, first + count))


class NumberedLineTest(unittest.TestCase):
    def test_lines_are_the_go_contracts_bytes(self):
        for seq, line in go_lines().items():
            with self.subTest(seq=seq):
                self.assertEqual(modes.numbered_line(seq), line)
                self.assertEqual(len(line), modes.NUMBERED_LINE_BYTES)
        self.assertIn(modes.MAX_NUMBERED_SEQ, go_lines())

    def test_long_lines_are_the_go_contracts_bytes(self):
        lengths = set()
        for seq, length, line in go_long_lines():
            with self.subTest(seq=seq, length=length):
                self.assertEqual(modes.numbered_line(seq, length), line)
                lengths.add(length)
        self.assertIn(modes.MIN_NUMBERED_LINE_BYTES, lengths)
        self.assertIn(modes.MAX_NUMBERED_LINE_BYTES, lengths)

    def test_lengths_without_a_line_are_refused(self):
        for n in (modes.MIN_NUMBERED_LINE_BYTES - 1, modes.MAX_NUMBERED_LINE_BYTES + 1):
            with self.assertRaises(ValueError):
                modes.numbered_line(0, n)

    def test_numbers_without_twelve_digits_are_refused(self):
        for seq in (-1, modes.MAX_NUMBERED_SEQ + 1):
            with self.assertRaises(ValueError):
                modes.numbered_line(seq)

    def test_numbered_is_taken_but_not_published(self):
        self.assertNotIn(modes.NUMBERED, modes.MODES)
        self.assertIn(modes.NUMBERED, modes.KNOWN_MODES)
        self.assertEqual(modes.bytes_per_request(modes.NUMBERED), 128)


class RaisingOnce:
    """An output whose first write fails."""

    def __init__(self):
        self.data = io.StringIO()
        self.failed = False

    def write(self, s):
        if not self.failed:
            self.failed = True
            raise BrokenPipeError(32, "Broken pipe")
        self.data.write(s)

    def flush(self):
        pass


class NumberedModeTest(unittest.TestCase):
    def log_to_file(self, requests, max_bytes=0, seq_of=lambda i: i):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "log")
            counters = tally.Counters(max_bytes)
            with open(path, "w", encoding="utf-8") as stream:
                logger = modes.ModeLogger(modes.NUMBERED, stream, counters)
                results = [logger.log(seq_of(i)) for i in range(requests)]
                logger.close()
            with open(path, "rb") as f:
                return f.read(), counters.snapshot(), results, logger

    def test_lines_count_from_zero_whatever_the_requests(self):
        # The request's number (warm-up requests are negative) does not number the line.
        out, c, results, _ = self.log_to_file(1001, seq_of=lambda i: 7 - i)
        self.assertEqual(out, lines_from(0, 1001))
        for seq, line in go_lines().items():
            if seq <= 1000:
                self.assertEqual(out[seq * 128:(seq + 1) * 128], line, seq)
        self.assertEqual(c["generated"], c["written"])
        self.assertEqual(c["written"], {"bytes": 1001 * 128, "lines": 1001, "sha256": hashlib.sha256(out).hexdigest()})
        self.assertEqual((c["queue_drops"], c["write_errors"], c["failure"]), (0, 0, ""))
        for gen, call, err in results:
            self.assertIsNone(err)
            self.assertGreater(gen, 0)
            self.assertGreater(call, 0)

    def test_a_line_over_the_cap_takes_no_number(self):
        out, c, results, logger = self.log_to_file(4, max_bytes=300)
        self.assertEqual(out, lines_from(0, 2))
        self.assertIsNone(results[1][2])
        self.assertIsInstance(results[2][2], tally.OutputCapReached)
        self.assertEqual(logger.next_line, 2)
        self.assertEqual(c["failure"], "output volume cap reached (300 bytes)")

    def test_a_line_that_failed_to_write_keeps_its_number(self):
        stream, counters = RaisingOnce(), tally.Counters()
        logger = modes.ModeLogger(modes.NUMBERED, stream, counters)
        errors = [logger.log(0)[2] for _ in range(3)]
        logger.close()
        self.assertIsInstance(errors[0], BrokenPipeError)
        self.assertEqual(errors[1:], [None, None])
        self.assertEqual(stream.data.getvalue().encode(), lines_from(1, 2))
        c = counters.snapshot()
        self.assertEqual((c["generated"]["lines"], c["written"]["lines"], c["write_errors"]), (3, 2, 1))

    def test_lines_logged_at_once_come_out_in_their_order(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "log")
            counters = tally.Counters()
            with open(path, "w", encoding="utf-8") as stream:
                logger = modes.ModeLogger(modes.NUMBERED, stream, counters)
                threads = [threading.Thread(target=lambda: [logger.log(0) for _ in range(300)]) for _ in range(4)]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join(30)
                logger.close()
            with open(path, "rb") as f:
                self.assertEqual(f.read(), lines_from(0, 1200))


def read_exactly(fd, n, timeout=10):
    out = bytearray()
    deadline = time.monotonic() + timeout
    while len(out) < n:
        ready, _, _ = select.select([fd], [], [], max(0, deadline - time.monotonic()))
        if not ready:
            raise AssertionError("read %d of %d bytes" % (len(out), n))
        chunk = os.read(fd, n - len(out))
        if not chunk:
            raise AssertionError("end of output after %d of %d bytes" % (len(out), n))
        out += chunk
    return bytes(out)


class StdoutTest(unittest.TestCase):
    """The API with -fifo=- writing to a pipe that stands for its standard output."""

    def setUp(self):
        self.r, self.w = os.pipe()
        try:
            fcntl.fcntl(self.w, fcntl.F_SETPIPE_SZ, 4096)  # one page: the stall comes soon
        except OSError:
            pass
        self.capacity = fcntl.fcntl(self.w, fcntl.F_GETPIPE_SZ)
        self.cwd = tempfile.TemporaryDirectory()
        self.api = server.API(modes.NUMBERED, server.LOG_TO_STDOUT, stdout_fd=self.w)
        old = os.getcwd()
        os.chdir(self.cwd.name)  # a FIFO made by mistake would land here
        try:
            self.thread = threading.Thread(target=self.api.run, args=(("127.0.0.1", 0), ("127.0.0.1", 0)), daemon=True)
            self.thread.start()
            deadline = time.monotonic() + 10
            while not self.api.ready and time.monotonic() < deadline:
                time.sleep(0.005)
        finally:
            os.chdir(old)
        self.assertTrue(self.api.ready, "not ready without any reader")

    def tearDown(self):
        self.api.stop()
        self.thread.join(10)
        os.close(self.r)
        os.close(self.w)
        self.assertEqual(os.listdir(self.cwd.name), [])
        self.cwd.cleanup()

    def control(self, method, path):
        c = http.client.HTTPConnection(*self.api.control_address, timeout=10)
        c.request(method, path)
        r = c.getresponse()
        body = r.read()
        c.close()
        self.assertEqual(r.status, 200, body)
        return json.loads(body) if body else None

    def get(self, seq, timeout=60):
        c = http.client.HTTPConnection(*self.api.workload_address, timeout=timeout)
        c.request("GET", "/", headers={"X-Logbench-Seq": str(seq)})
        r = c.getresponse()
        r.read()
        c.close()
        return r.status

    def test_lines_go_to_standard_output_and_a_full_one_holds_the_requests(self):
        for seq in range(3):
            self.assertEqual(self.get(seq), 200)
        self.assertEqual(read_exactly(self.r, 3 * 128), lines_from(0, 3))
        self.control("POST", "/reset")
        st = self.control("GET", "/status")
        self.assertEqual((st["mode"], st["ready"], st["counters"]["written"]["lines"]), ("numbered", True, 0))

        # The numbering goes on across the reset.
        for seq in range(2):
            self.assertEqual(self.get(seq), 200)
        self.assertEqual(read_exactly(self.r, 2 * 128), lines_from(3, 2))

        # Nobody reads: the pipe takes what fits, and the next line's write holds the
        # request path; the control port still answers.
        fits = self.capacity // 128
        stalled = fits + 3
        answered = []
        client = threading.Thread(target=lambda: [answered.append(self.get(2 + i)) for i in range(stalled)], daemon=True)
        client.start()
        deadline = time.monotonic() + 30
        while True:
            c = self.control("GET", "/status")["counters"]
            if (c["generated"]["lines"], c["written"]["lines"]) == (2 + fits + 1, 2 + fits):
                break
            if time.monotonic() > deadline:
                self.fail("no stall at %d lines of %d bytes: %s" % (fits, self.capacity, c))
            time.sleep(0.01)
        self.assertEqual(len(answered), fits)
        time.sleep(0.2)
        c = self.control("GET", "/status")["counters"]
        self.assertEqual((c["generated"]["lines"], c["written"]["lines"], len(answered)), (2 + fits + 1, 2 + fits, fits))

        # Reading releases it: every line comes, in order, and the counters say so.
        out = read_exactly(self.r, stalled * 128, timeout=30)
        client.join(30)
        self.assertEqual(answered, [200] * stalled)
        self.assertEqual(out, lines_from(5, stalled))
        rep = self.control("GET", "/report")
        c = rep["counters"]
        since_reset = lines_from(3, 2 + stalled)
        self.assertEqual(c["generated"], c["written"])
        self.assertEqual(c["written"], {"bytes": len(since_reset), "lines": 2 + stalled,
                                        "sha256": hashlib.sha256(since_reset).hexdigest()})
        self.assertEqual((c["write_errors"], c["failure"]), (0, ""))
        self.assertEqual([s["seq"] for s in rep["spans"]], [0, 1] + list(range(2, 2 + stalled)))
        self.assertEqual(len(rep["generated"]), 2 + stalled)


class CommandLineTest(unittest.TestCase):
    def test_the_kits_log_driver_arguments(self):
        # kit/contract/args.go's FIFOArgs, as the log-driver experiment writes them.
        args = api.parse_args(["-mode=numbered", "-fifo=-", "-max-log-bytes=0"])
        self.assertEqual((args.mode, args.fifo, args.max_log_bytes, args.line_bytes), ("numbered", "-", 0, 128))
        args = api.parse_args(["-mode=numbered", "-fifo=-", "-max-log-bytes=0", "-line-bytes=4096"])
        self.assertEqual(args.line_bytes, 4096)

    def test_long_lines_are_written_whole(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "log")
            with open(path, "w", encoding="utf-8") as stream:
                logger = modes.ModeLogger(modes.NUMBERED, stream, tally.Counters(0), line_bytes=4096)
                for i in range(3):
                    self.assertIsNone(logger.log(i)[2])
                logger.close()
            with open(path, "rb") as f:
                self.assertEqual(f.read(), b"".join(modes.numbered_line(seq, 4096) for seq in range(3)))
        with self.assertRaises(ValueError):
            modes.ModeLogger(modes.NUMBERED, io.StringIO(), tally.Counters(0), line_bytes=127)


if __name__ == "__main__":
    unittest.main()
