import os
import tempfile
import unittest

from helpers import logbench_cgroup as cgroup

SNAPSHOT_FIELDS = {  # kit/contract.CgroupSnapshot's json tags
    "unix_ns", "cgroup_version", "cpu_limit_cores", "memory_limit_bytes", "swap_limit_bytes",
    "cpu_usage_ns", "cpu_periods", "cpu_throttled_periods", "cpu_throttled_ns",
    "memory_usage_bytes", "memory_peak_bytes",
}


def write_files(root, files):
    for name, text in files.items():
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)


class CgroupV2Test(unittest.TestCase):
    def test_limited_container(self):
        with tempfile.TemporaryDirectory() as root:
            write_files(root, {
                "cgroup.controllers": "cpu memory pids\n",
                "cpu.max": "25000 100000\n",
                "cpu.stat": "usage_usec 1500\nuser_usec 1000\nsystem_usec 500\n"
                            "nr_periods 40\nnr_throttled 7\nthrottled_usec 2500\n",
                "memory.current": "1048576\n",
                "memory.max": "134217728\n",
                "memory.peak": "2097152\n",
                "memory.swap.max": "0\n",
                "proc_cgroup": "0::/\n",
            })
            s = cgroup.read_cgroup(root, os.path.join(root, "proc_cgroup"))
        self.assertEqual(set(s), SNAPSHOT_FIELDS)
        self.assertEqual(s["cgroup_version"], 2)
        self.assertEqual(s["cpu_limit_cores"], 0.25)
        self.assertEqual(s["cpu_usage_ns"], 1_500_000)
        self.assertEqual(s["cpu_periods"], 40)
        self.assertEqual(s["cpu_throttled_periods"], 7)
        self.assertEqual(s["cpu_throttled_ns"], 2_500_000)
        self.assertEqual(s["memory_usage_bytes"], 1 << 20)
        self.assertEqual(s["memory_limit_bytes"], 128 << 20)
        self.assertEqual(s["memory_peak_bytes"], 2 << 20)
        self.assertEqual(s["swap_limit_bytes"], 0)
        self.assertGreater(s["unix_ns"], 0)

    def test_unlimited_nested_group_without_peak_or_swap(self):
        with tempfile.TemporaryDirectory() as root:
            write_files(root, {
                "cgroup.controllers": "cpu memory\n",
                "a/b/cpu.max": "max 100000\n",
                "a/b/cpu.stat": "usage_usec 10\n",
                "a/b/memory.current": "4096\n",
                "a/b/memory.max": "max\n",
                "proc_cgroup": "0::/a/b\n",
            })
            s = cgroup.read_cgroup(root, os.path.join(root, "proc_cgroup"))
        self.assertEqual(s["cpu_limit_cores"], 0)
        self.assertEqual(s["memory_limit_bytes"], 0)
        self.assertEqual(s["memory_peak_bytes"], 0)
        self.assertEqual(s["swap_limit_bytes"], -1)
        self.assertEqual(s["cpu_usage_ns"], 10_000)

    def test_malformed_cpu_max(self):
        with tempfile.TemporaryDirectory() as root:
            write_files(root, {"cgroup.controllers": "", "cpu.max": "25000\n", "memory.max": "max\n"})
            with self.assertRaises(ValueError):
                cgroup.read_cgroup(root, os.path.join(root, "missing"))


class CgroupV1Test(unittest.TestCase):
    def test_limited_container(self):
        with tempfile.TemporaryDirectory() as root:
            write_files(root, {
                "cpu/cpu.cfs_quota_us": "25000\n",
                "cpu/cpu.cfs_period_us": "100000\n",
                "cpu/cpu.stat": "nr_periods 12\nnr_throttled 3\nthrottled_time 4500000\n",
                "cpuacct/cpuacct.usage": "987654321\n",
                "memory/memory.usage_in_bytes": "3000000\n",
                "memory/memory.max_usage_in_bytes": "5000000\n",
                "memory/memory.limit_in_bytes": "134217728\n",
                "memory/memory.memsw.limit_in_bytes": "134217728\n",
            })
            s = cgroup.read_cgroup(root)
        self.assertEqual(set(s), SNAPSHOT_FIELDS)
        self.assertEqual(s["cgroup_version"], 1)
        self.assertEqual(s["cpu_limit_cores"], 0.25)
        self.assertEqual(s["cpu_usage_ns"], 987654321)
        self.assertEqual(s["cpu_periods"], 12)
        self.assertEqual(s["cpu_throttled_periods"], 3)
        self.assertEqual(s["cpu_throttled_ns"], 4_500_000)
        self.assertEqual(s["memory_usage_bytes"], 3_000_000)
        self.assertEqual(s["memory_peak_bytes"], 5_000_000)
        self.assertEqual(s["memory_limit_bytes"], 128 << 20)
        self.assertEqual(s["swap_limit_bytes"], 0)

    def test_unlimited_without_swap_accounting(self):
        with tempfile.TemporaryDirectory() as root:
            write_files(root, {
                "cpu/cpu.cfs_quota_us": "-1\n",
                "cpu/cpu.cfs_period_us": "100000\n",
                "memory/memory.limit_in_bytes": "9223372036854771712\n",
            })
            s = cgroup.read_cgroup(root)
        self.assertEqual(s["cpu_limit_cores"], 0)
        self.assertEqual(s["memory_limit_bytes"], 0)
        self.assertEqual(s["swap_limit_bytes"], -1)
        self.assertEqual(s["cpu_usage_ns"], 0)

    def test_swap_allowed_beyond_memory(self):
        with tempfile.TemporaryDirectory() as root:
            write_files(root, {
                "cpu/cpu.cfs_quota_us": "50000\n",
                "cpu/cpu.cfs_period_us": "100000\n",
                "memory/memory.limit_in_bytes": "100\n",
                "memory/memory.memsw.limit_in_bytes": "300\n",
            })
            s = cgroup.read_cgroup(root)
        self.assertEqual(s["cpu_limit_cores"], 0.5)
        self.assertEqual(s["swap_limit_bytes"], 200)

    def test_missing_cpu_quota_is_an_error(self):
        with tempfile.TemporaryDirectory() as root:
            with self.assertRaises(FileNotFoundError):
                cgroup.read_cgroup(root)


if __name__ == "__main__":
    unittest.main()
