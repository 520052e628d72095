import contextlib
import http.client
import io
import json
import os
import re
import tempfile
import threading
import time
import unittest

from helpers import logbench_api as api, logbench_process as process, logbench_server as server

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def go_json_tags(path, struct):
    """The json names of a Go struct's fields, read from the kit's source."""
    path = os.path.join(REPO, path)
    if not os.path.exists(path):
        raise unittest.SkipTest("the kit's Go source is not beside these tests")
    with open(path) as f:
        src = f.read()
    m = re.search(r"type %s struct \{(.*?)\n\}" % struct, src, re.S)
    if m is None:
        raise AssertionError("no struct %s in %s" % (struct, path))
    return [name for name in re.findall(r'json:"([^",]*)', m.group(1)) if name != "-"]


class Server:
    """The API on ephemeral loopback ports, with a reader draining its FIFO."""

    def __init__(self, mode, max_log_bytes=0):
        self.dir = tempfile.TemporaryDirectory()
        fifo = os.path.join(self.dir.name, "log.fifo")
        self.api = server.API(mode, fifo, max_log_bytes)
        self.read = bytearray()
        self.thread = threading.Thread(target=self.api.run, args=(("127.0.0.1", 0), ("127.0.0.1", 0)), daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not os.path.exists(fifo) and time.monotonic() < deadline:
            time.sleep(0.005)
        self.reader = threading.Thread(target=self._drain, args=(fifo,), daemon=True)
        self.reader.start()
        while not self.api.ready and time.monotonic() < deadline:
            time.sleep(0.005)
        if not self.api.ready:
            raise AssertionError("api not ready")

    def _drain(self, fifo):
        with open(fifo, "rb") as f:
            while chunk := f.read(4096):
                self.read += chunk

    def control(self, method, path):
        c = http.client.HTTPConnection(*self.api.control_address, timeout=10)
        c.request(method, path)
        r = c.getresponse()
        body = r.read()
        c.close()
        return r.status, body

    def get(self, seq=None, path="/"):
        c = http.client.HTTPConnection(*self.api.workload_address, timeout=10)
        c.request("GET", path, headers={} if seq is None else {"X-Logbench-Seq": str(seq)})
        r = c.getresponse()
        out = r.status, dict((k.lower(), v) for k, v in r.getheaders()), r.read()
        c.close()
        return out

    def close(self):
        self.api.stop()
        self.thread.join(10)
        self.reader.join(10)
        self.dir.cleanup()


class ControlTest(unittest.TestCase):
    def wait_written(self, srv, want):
        """The status once the writer has written want bytes, or a failure after 10 s."""
        deadline = time.monotonic() + 10
        while True:
            code, body = srv.control("GET", "/status")
            self.assertEqual(code, 200)
            st = json.loads(body)
            if st["counters"]["written"]["bytes"] >= want or time.monotonic() > deadline:
                self.assertEqual(st["counters"]["written"]["bytes"], want)
                return st
            time.sleep(0.01)

    def test_protocol_and_field_names(self):
        srv = Server("json-queue")
        try:
            status, headers, body = srv.get(seq=-1)
            self.assertEqual(status, 200)
            self.assertEqual(body, b'{"status":"ok","service":"logbench-api"}\n')
            self.assertEqual(headers["content-type"], "application/json")
            self.assertEqual(headers["connection"], "close")
            self.assertEqual(headers["x-digest"], server.digest_of("/")[:8].hex())

            # The queue writes that line after the response: wait until it is written, or the
            # reset below could zero the counters with it still queued and count it after.
            self.wait_written(srv, 16384)
            self.assertEqual(srv.control("POST", "/reset")[0], 200)
            for seq in range(3):
                self.assertEqual(srv.get(seq=seq)[0], 200)
            srv.get()  # no sequence number: served, but no span
            st = self.wait_written(srv, 4 * 16384)
            self.assertEqual(list(st), go_json_tags("kit/contract/contract.go", "APIStatus"))
            self.assertEqual((st["implementation"], st["mode"], st["ready"]), ("python", "json-queue", True))
            self.assertTrue(st["runtime"].startswith("Python 3."), st["runtime"])
            self.assertEqual(list(st["counters"]), go_json_tags("kit/contract/contract.go", "Counters"))
            self.assertEqual(list(st["counters"]["generated"]), go_json_tags("kit/contract/contract.go", "Counts"))
            self.assertEqual(sorted(st["cgroup"]), sorted(go_json_tags("kit/contract/contract.go", "CgroupSnapshot")))
            self.assertEqual(st["counters"]["generated"], st["counters"]["written"])
            self.assertEqual(list(st["process"]), go_json_tags("kit/contract/contract.go", "ProcessFacts"))
            self.assertEqual((st["process"]["present"], st["process"]["uid"]), (True, os.getuid()))

            code, body = srv.control("GET", "/report")
            self.assertEqual(code, 200)
            rep = json.loads(body)
            want = go_json_tags("kit/contract/contract.go", "APIStatus") + \
                go_json_tags("kit/contract/contract.go", "APIReport")
            self.assertEqual(list(rep), want)
            self.assertEqual([s["seq"] for s in rep["spans"]], [0, 1, 2])
            span_tags = go_json_tags("kit/contract/contract.go", "Span")
            for s in rep["spans"]:
                self.assertEqual(list(s), span_tags[:3])  # "error" is omitted when empty
                self.assertGreater(s["generate_ns"], 0)
                self.assertGreater(s["log_call_ns"], 0)
            self.assertEqual(len(rep["generated"]), 4)
            self.assertEqual(list(rep["generated"][0]), go_json_tags("kit/contract/contract.go", "Sample"))
            self.assertEqual([s["bytes"] for s in rep["generated"]], [16384, 32768, 49152, 65536])

            self.assertEqual(srv.control("POST", "/reset")[0], 200)
            st = json.loads(srv.control("GET", "/status")[1])
            self.assertEqual(st["counters"]["generated"]["bytes"], 0)
            rep = json.loads(srv.control("GET", "/report")[1])
            self.assertEqual((rep["spans"], rep["generated"]), ([], []))
        finally:
            srv.close()
        self.assertEqual(len(srv.read), 5 * 16384)

    def test_output_cap_answers_503_and_fails(self):
        srv = Server("short1", max_log_bytes=200)
        try:
            self.assertEqual(srv.get(seq=0)[0], 200)
            status, _, body = srv.get(seq=1)
            self.assertEqual(status, 503)
            self.assertIn(b"output volume cap reached", body)
            rep = json.loads(srv.control("GET", "/report")[1])
            self.assertEqual(rep["counters"]["failure"], "output volume cap reached (200 bytes)")
            self.assertEqual(rep["spans"][1]["error"], "output volume cap reached (200 bytes)")
        finally:
            srv.close()

    def test_not_ready_status(self):
        a = server.API("none", "/nonexistent/log.fifo")
        st = a.status()
        self.assertFalse(st["ready"])
        self.assertEqual(st["counters"], {"generated": {"bytes": 0, "lines": 0, "sha256": ""},
                                          "written": {"bytes": 0, "lines": 0, "sha256": ""},
                                          "queue_drops": 0, "write_errors": 0, "failure": ""})


class ProcessTest(unittest.TestCase):
    def test_hardened_process(self):
        with tempfile.NamedTemporaryFile("w") as f:
            f.write("Name:\tpython3\nUid:\t65532\t65532\t65532\t65532\n"
                    "CapInh:\t0000000000000000\nCapEff:\t0000000000000000\n"
                    "NoNewPrivs:\t1\nSeccomp:\t2\n")
            f.flush()
            p = process.read_process(f.name)
        self.assertEqual((p["present"], p["cap_effective"], p["no_new_privs"]), (True, 0, True))

    def test_privileged_process(self):
        with tempfile.NamedTemporaryFile("w") as f:
            f.write("CapEff:\t000001ffffffffff\nNoNewPrivs:\t0\n")
            f.flush()
            p = process.read_process(f.name, root="/nonexistent")
        self.assertEqual((p["cap_effective"], p["no_new_privs"], p["root_read_only"]), (0x1ffffffffff, False, False))


    def test_limits(self):
        with tempfile.TemporaryDirectory() as d:
            with open(d + "/limits", "w") as f:
                f.write("Limit                     Soft Limit           Hard Limit           Units     \n"
                        "Max processes             4096                 4096                 processes \n"
                        "Max open files            4096                 unlimited            files     \n")
            os.makedirs(d + "/pids")
            with open(d + "/pids/pids.max", "w") as f:
                f.write("128\n")
            lim = process.read_limits(d + "/limits", d)
        self.assertEqual(lim, {"nofile_soft": 4096, "nofile_hard": -1, "nproc_soft": 4096,
                               "nproc_hard": 4096, "pids_max": 128})


class CommandLineTest(unittest.TestCase):
    def test_flags_like_the_go_api(self):
        args = api.parse_args(["-mode", "json-queue", "-fifo", "/run/logbench/log.fifo", "-max-log-bytes", "268435456"])
        self.assertEqual((args.mode, args.fifo, args.max_log_bytes), ("json-queue", "/run/logbench/log.fifo", 268435456))
        args = api.parse_args([])
        self.assertEqual((args.mode, args.fifo, args.max_log_bytes), ("none", "/run/logbench/log.fifo", 0))

    def test_unknown_mode_is_a_usage_error(self):
        with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
            api.parse_args(["-mode", "json-async"])


if __name__ == "__main__":
    unittest.main()
