"""The control server: serves the API's control documents (kit/contract/contract.go's
APIStatus and APIReport, and the reset) on its own port and threads, so that the
conductor can read them while the event loop is stalled on a blocked FIFO write."""

import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CONTROL_PORT = 9001  # kit/contract/contract.go's APIControlPort


def control_server(api, address):
    """A server answering GET /status and /report and POST /reset from api's status(),
    report() and reset(); the caller runs serve_forever."""

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
