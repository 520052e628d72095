"""What the API reports of its own process: the interpreter's version, and its
privileges as the kernel sees them (kit/contract/contract.go's ProcessFacts)."""

import os
import sys


def runtime_version():
    return "Python " + ".".join(str(n) for n in sys.version_info[:3])


def _read(path):
    with open(path) as f:
        return f.read().strip()


def read_process(status_path="/proc/self/status", root="/"):
    """The process's privileges as the kernel sees them (kit/contract/contract.go's
    ProcessFacts), so the run can show the container was hardened."""
    f = {"present": True, "uid": os.getuid(), "gid": os.getgid(), "cap_effective": 0,
         "no_new_privs": False, "root_read_only": False}
    try:
        for line in _read(status_path).splitlines():
            key, _, value = line.partition(":")
            if key == "CapEff":
                f["cap_effective"] = int(value.strip(), 16)
            elif key == "NoNewPrivs":
                f["no_new_privs"] = value.strip() == "1"
    except (OSError, ValueError):
        pass  # what cannot be read stays at its zero value
    try:
        f["root_read_only"] = bool(os.statvfs(root).f_flag & os.ST_RDONLY)
    except OSError:
        pass
    return f
