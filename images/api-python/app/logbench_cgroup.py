"""A snapshot of the process's own cgroup (kit/contract/contract.go's CgroupSnapshot):
the CPU and memory limits in force and the CPU, throttling and memory counters, read
the way the Go side reads them (kit/incontainer/cgroupstat)."""

import os
import time


def _read(path):
    with open(path) as f:
        return f.read().strip()


def _read_int(path, default=None):
    try:
        return int(_read(path))
    except FileNotFoundError:
        if default is None:
            raise
        return default


def _read_keyed(path):
    """A flat keyed file such as cpu.stat, as a dict of ints; {} if it is missing."""
    try:
        text = _read(path)
    except FileNotFoundError:
        return {}
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2:
            try:
                out[parts[0]] = int(parts[1])
            except ValueError:
                pass
    return out


def _quota_cores(quota, period):
    if quota <= 0 or period <= 0:
        return 0.0
    return quota / period


def _unlimited_as_zero(v):
    # cgroup v1 reports "unlimited" as a huge page-rounded number.
    return 0 if v >= 1 << 62 else v


def _v2_limit(path, default=None):
    """A cgroup v2 limit file: bytes, or "max" (0: unlimited)."""
    try:
        text = _read(path)
    except FileNotFoundError:
        if default is None:
            raise
        return default
    return 0 if text == "max" else int(text)


def _v2_group(proc_cgroup):
    """The process's v2 group from /proc/self/cgroup ("/" under a private namespace)."""
    try:
        for line in _read(proc_cgroup).splitlines():
            if line.startswith("0::"):
                return line[3:] or "/"
    except FileNotFoundError:
        pass
    return "/"


def read_cgroup(root="/sys/fs/cgroup", proc_cgroup="/proc/self/cgroup"):
    """A snapshot of the process's own cgroup (kit/contract/contract.go's CgroupSnapshot)."""
    if os.path.exists(os.path.join(root, "cgroup.controllers")):
        return _read_v2(root, proc_cgroup)
    return _read_v1(root)


def _snapshot(version):
    return {"unix_ns": time.time_ns(), "cgroup_version": version,
            "cpu_limit_cores": 0.0, "memory_limit_bytes": 0, "swap_limit_bytes": -1,
            "cpu_usage_ns": 0, "cpu_periods": 0, "cpu_throttled_periods": 0,
            "cpu_throttled_ns": 0, "memory_usage_bytes": 0, "memory_peak_bytes": 0}


def _read_v2(root, proc_cgroup):
    s = _snapshot(2)
    d = os.path.join(root, _v2_group(proc_cgroup).lstrip("/"))
    fields = _read(os.path.join(d, "cpu.max")).split()
    if len(fields) != 2:
        raise ValueError("cpu.max: unexpected %r" % " ".join(fields))
    if fields[0] != "max":
        s["cpu_limit_cores"] = _quota_cores(int(fields[0]), int(fields[1]))
    s["memory_limit_bytes"] = _v2_limit(os.path.join(d, "memory.max"))
    s["swap_limit_bytes"] = _v2_limit(os.path.join(d, "memory.swap.max"), default=-1)
    cpu = _read_keyed(os.path.join(d, "cpu.stat"))
    s["cpu_usage_ns"] = cpu.get("usage_usec", 0) * 1000
    s["cpu_periods"] = cpu.get("nr_periods", 0)
    s["cpu_throttled_periods"] = cpu.get("nr_throttled", 0)
    s["cpu_throttled_ns"] = cpu.get("throttled_usec", 0) * 1000
    s["memory_usage_bytes"] = _read_int(os.path.join(d, "memory.current"), default=0)
    s["memory_peak_bytes"] = _read_int(os.path.join(d, "memory.peak"), default=0)  # kernel >= 5.19
    return s


def _read_v1(root):
    # Docker mounts the container's own cgroup at each controller's root.
    s = _snapshot(1)
    cpu_dir = os.path.join(root, "cpu")
    s["cpu_limit_cores"] = _quota_cores(_read_int(os.path.join(cpu_dir, "cpu.cfs_quota_us")),
                                        _read_int(os.path.join(cpu_dir, "cpu.cfs_period_us")))
    cpu = _read_keyed(os.path.join(cpu_dir, "cpu.stat"))
    s["cpu_periods"] = cpu.get("nr_periods", 0)
    s["cpu_throttled_periods"] = cpu.get("nr_throttled", 0)
    s["cpu_throttled_ns"] = cpu.get("throttled_time", 0)
    # cpuacct.usage is exact nanoseconds (the user/system split is tick based).
    s["cpu_usage_ns"] = _read_int(os.path.join(root, "cpuacct", "cpuacct.usage"), default=0)
    mem = os.path.join(root, "memory")
    s["memory_usage_bytes"] = _read_int(os.path.join(mem, "memory.usage_in_bytes"), default=0)
    s["memory_peak_bytes"] = _read_int(os.path.join(mem, "memory.max_usage_in_bytes"), default=0)
    s["memory_limit_bytes"] = _unlimited_as_zero(_read_int(os.path.join(mem, "memory.limit_in_bytes"), default=0))
    memsw = _read_int(os.path.join(mem, "memory.memsw.limit_in_bytes"), default=0)
    if memsw > 0:
        # memsw counts memory plus swap: the swap allowed is the difference.
        s["swap_limit_bytes"] = _unlimited_as_zero(memsw) - s["memory_limit_bytes"]
    return s
