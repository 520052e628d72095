"""What the API reports of its own process: the interpreter's version, and its
privileges and limits as the kernel sees them (kit/contract/contract.go's ProcessFacts)."""

import os
import sys


def runtime_version():
    return "Python " + ".".join(str(n) for n in sys.version_info[:3])


def _read(path):
    with open(path) as f:
        return f.read().strip()


def _limit(text):
    return -1 if text in ("unlimited", "max") else int(text)


def read_limits(limits_path="/proc/self/limits", cgroup_root="/sys/fs/cgroup"):
    """The process's nofile and nproc limits and its cgroup's pids.max
    (kit/contract/limits.go's Rlimits): -1 unlimited, 0 not read."""
    lim = {"nofile_soft": 0, "nofile_hard": 0, "nproc_soft": 0, "nproc_hard": 0, "pids_max": 0}
    names = {"Max open files": "nofile", "Max processes": "nproc"}
    try:
        for line in _read(limits_path).splitlines():
            for name, key in names.items():
                if line.startswith(name):
                    soft, hard = line[len(name):].split()[:2]
                    lim[key + "_soft"], lim[key + "_hard"] = _limit(soft), _limit(hard)
    except (OSError, ValueError):
        pass
    for path in (cgroup_root + "/pids/pids.max", cgroup_root + "/pids.max"):
        try:
            lim["pids_max"] = _limit(_read(path))
            break
        except (OSError, ValueError):
            continue
    return lim


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
    f["limits"] = read_limits()
    return f
