"""The API under test, in Python 3.11 with the standard library only, as published.

This is the program the image runs (/usr/bin/python3 /app/logbench_api.py; python3 -m
logbench_api from app/ does the same): its command line, and the process's signals.
The rest lives beside it, one module a job:

  logbench_tally    the counters: bytes, newlines, SHA-256, the timeline generated
  logbench_modes    the logging modes and the records they build
  logbench_cgroup   the process's own cgroup
  logbench_process  the process's version and privileges
  logbench_control  the control server, on its own threads
  logbench_server   the asyncio request path and the API's life cycle

The JSON documents they produce carry the field names of kit/contract/contract.go.
"""

import argparse
import os
import signal
import sys

from logbench_modes import KNOWN_MODES, NONE
from logbench_server import API

# The names this module held before it was split, for code written against it.
from logbench_cgroup import read_cgroup  # noqa: F401
from logbench_control import CONTROL_PORT, control_server  # noqa: F401
from logbench_modes import (  # noqa: F401
    JSON_ONLY, JSON_PREBUILT_SYNC, JSON_QUEUE, JSON_RECORD_BYTES, JSON_SYNC, MODES, NUMBERED,
    NUMBERED_LINE_BYTES, QUEUE_CAPACITY,
    SHORT1, SHORT10, SHORT_LINE, SHORT_LINE_BYTES, CountingQueueHandler,
    CountingStreamHandler, Errors, Listener, ModeLogger, QueueFull, RecordBuilder,
    bytes_per_request, numbered_line, record_time)
from logbench_process import read_process, runtime_version  # noqa: F401
from logbench_server import (  # noqa: F401
    HASH_ROUNDS, LOG_TO_STDOUT, RESPONSE_BODY, SEQ_HEADER, WORKLOAD_PORT, digest_of, make_fifo)
from logbench_tally import Counters, OutputCapReached, Tally, zero_counters  # noqa: F401


def parse_args(argv):
    p = argparse.ArgumentParser(prog="logbench_api", description="the logbench API in Python")
    p.add_argument("-mode", default=NONE, choices=KNOWN_MODES, help="logging mode")
    p.add_argument("-fifo", default="/run/logbench/log.fifo", help="log FIFO (-: standard output, no FIFO)")
    p.add_argument("-max-log-bytes", dest="max_log_bytes", type=int, default=0,
                   help="output-volume stop condition (0: none)")
    p.add_argument("-line-bytes", dest="line_bytes", type=int, default=NUMBERED_LINE_BYTES,
                   help="numbered mode: each line's length, newline included (128 to 65536)")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)

    # As PID 1 the process would ignore SIGTERM without a handler. Exit at once: a
    # normal exit would flush the logging handlers, which can block on a full FIFO.
    def stop(signum, frame):
        os._exit(0)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        API(args.mode, args.fifo, args.max_log_bytes, line_bytes=args.line_bytes).run()
    except Exception as exc:
        print("api: %s" % exc, file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
