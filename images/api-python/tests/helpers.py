"""Makes the API's modules importable from the tests, without writing bytecode into app/."""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "app"))

import logbench_api  # noqa: E402,F401
import logbench_cgroup  # noqa: E402,F401
import logbench_control  # noqa: E402,F401
import logbench_modes  # noqa: E402,F401
import logbench_process  # noqa: E402,F401
import logbench_server  # noqa: E402,F401
import logbench_tally  # noqa: E402,F401
