import datetime
import hashlib
import json
import os
import socket
import tempfile
import threading
import time
import unittest
import urllib.request

import helpers  # noqa: F401  (puts app/ on the path)
import logbench_qps as qps

T = datetime.datetime(2023, 4, 8, 4, 5, 6, 789000, tzinfo=datetime.timezone.utc)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Lines(unittest.TestCase):
    def test_morgans_formats_token_for_token(self):
        # The Node.js API's pinned examples (images/api-node/tests/format.test.js), in UTC.
        self.assertEqual(qps.line(T, "127.0.0.1", "GET", "/", "1.1", 200, 0.000123456, False),
                         '[04:05:06.789] 127.0.0.1 - "GET / HTTP/1.1" 200 - 0.123 ms')
        self.assertEqual(qps.line(T, "127.0.0.1", "GET", "/", "1.1", 200, 0.000123456, True),
                         '[2023-04-08 04:05:06.789+00:00] 127.0.0.1 - "GET / HTTP/1.1" 200 - 0.123 ms')


class Serving(unittest.TestCase):
    def test_keep_alive_pipelined_requests_each_log_a_counted_line(self):
        out_r, out_w = os.pipe()
        captured = []
        reader = threading.Thread(target=lambda: captured.append(os.fdopen(out_r, "rb").read()), daemon=True)
        reader.start()
        with tempfile.TemporaryDirectory() as d:
            api = qps.API("console+file", d, stdout_fd=out_w, now=lambda: T)
            port, control = free_port(), free_port()
            threading.Thread(target=api.run, kwargs={"port": port, "control_port": control}, daemon=True).start()
            base = "http://127.0.0.1:%d" % control
            for _ in range(100):
                try:
                    if json.load(urllib.request.urlopen(base + "/ready"))["ready"]:
                        break
                except OSError:
                    pass
                time.sleep(0.02)
            with socket.create_connection(("127.0.0.1", port)) as s:
                s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")  # the warm-up
                self.assertIn(qps.BODY, s.recv(4096))
                # The access line is written once the response is sent: wait for the
                # warm-up's line in both sinks before resetting, or it lands after.
                for _ in range(200):
                    sinks = json.load(urllib.request.urlopen(base + "/report"))["sinks"]
                    if sinks["console"]["total"]["lines"] == 1 and sinks["file"]["total"]["lines"] == 1:
                        break
                    time.sleep(0.01)
                urllib.request.urlopen(urllib.request.Request(base + "/reset", method="POST"))
                s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n" * 3)  # pipelined
                got = b""
                while got.count(qps.BODY) < 3:
                    got += s.recv(4096)
            # Each access line is written once its response is sent: wait for the last.
            for _ in range(200):
                report = json.load(urllib.request.urlopen(base + "/report"))
                if report["sinks"]["console"]["total"]["lines"] == 4 and report["sinks"]["file"]["total"]["lines"] == 4:
                    break
                time.sleep(0.01)
            self.assertEqual(report["requests"], 3)
            console, file = report["sinks"]["console"], report["sinks"]["file"]
            self.assertEqual((console["lines"], console["total"]["lines"]), (3, 4))
            self.assertEqual(file["path"], os.path.join(d, "2023-04-08.log"))
            with open(file["path"], "rb") as f:
                body = f.read()
            self.assertEqual(file["total"], {"lines": 4, "bytes": len(body), "sha256": hashlib.sha256(body).hexdigest()})
            tail = body[file["start_offset_bytes"]:]
            self.assertEqual(file["sha256"], hashlib.sha256(tail).hexdigest())
            self.assertRegex(tail.decode().splitlines()[0],
                             r'^\[2023-04-08 04:05:06\.789\+00:00\] 127\.0\.0\.1 - "GET / HTTP/1\.1" 200 - \d+\.\d{3} ms$')
        os.close(out_w)
        reader.join(2)
        stdout = captured[0]
        self.assertEqual(console["total"], {"lines": 4, "bytes": len(stdout), "sha256": hashlib.sha256(stdout).hexdigest()})
        self.assertTrue(stdout.startswith(b'[04:05:06.789] 127.0.0.1 - "GET / HTTP/1.1" 200 - '))


class Reset(unittest.TestCase):
    def test_a_line_written_as_the_reset_ends_is_counted_from_the_offset(self):
        # The control server's thread resets while the event loop's thread writes. A line
        # that lands just after the counts are zeroed must also lie after the offset
        # the reset records, or the file from that offset misses a counted line.
        with tempfile.TemporaryDirectory() as d:
            api = qps.API("file", d, now=lambda: T)
            api.log("127.0.0.1", "GET", "/", "1.1", 200, 0.0001)  # the warm-up
            sink = api.sinks["file"]
            zero = sink.reset

            def reset_then_write(*args, **kwargs):
                got = zero(*args, **kwargs)
                api.log("127.0.0.1", "GET", "/", "1.1", 200, 0.0001)
                return got
            sink.reset = reset_then_write
            api.reset()
            report = api.report()["sinks"]["file"]
            with open(report["path"], "rb") as f:
                tail = f.read()[report["start_offset_bytes"]:]
            self.assertEqual((report["lines"], report["bytes"], report["sha256"]),
                             (tail.count(b"\n"), len(tail), hashlib.sha256(tail).hexdigest()))


if __name__ == "__main__":
    unittest.main()
