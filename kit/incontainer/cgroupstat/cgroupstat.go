// Package cgroupstat reads the calling process's own cgroup: the CPU and memory limits
// in force and the CPU, throttling and memory counters. It runs inside each container
// of a run, so the bundle records limits as the kernel applied them, not as requested.
package cgroupstat

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/containerd/cgroups/v3"
	"github.com/containerd/cgroups/v3/cgroup1"
	"github.com/containerd/cgroups/v3/cgroup2"

	"github.com/logbench/logbench/kit/contract"
)

// Reader reads the cgroup of the process that calls it. Everything it reads is under
// Root and in ProcCgroup, so a test can point both at a fixture tree.
type Reader struct {
	// Root is where the cgroup file system is mounted, /sys/fs/cgroup by default.
	Root string
	// ProcCgroup lists the calling process's cgroups, /proc/self/cgroup by default.
	ProcCgroup string
}

// Read takes a snapshot.
func (r Reader) Read() (contract.CgroupSnapshot, error) {
	root, proc := r.Root, r.ProcCgroup
	if root == "" {
		root = "/sys/fs/cgroup"
	}
	if proc == "" {
		proc = "/proc/self/cgroup"
	}
	// The version is the tree's under root, not the host's: cgroups.Mode() statfs's
	// /sys/fs/cgroup whatever the root. A cgroup v2 mount has cgroup.controllers at its
	// root; a v1 tree is one directory per hierarchy (a hybrid host's v2 part sits in
	// unified/ and holds no CPU or memory controller).
	v1paths, group, err := cgroups.ParseCgroupFileUnified(proc)
	if err != nil {
		return contract.CgroupSnapshot{}, fmt.Errorf("cgroup: %w", err)
	}
	if _, err := os.Stat(filepath.Join(root, "cgroup.controllers")); err == nil {
		return readV2(root, group)
	}
	return readV1(root, v1paths)
}

func readV2(root, group string) (contract.CgroupSnapshot, error) {
	s := contract.CgroupSnapshot{UnixNano: time.Now().UnixNano(), CgroupVersion: 2, SwapLimitBytes: -1}
	// Under a private cgroup namespace (Docker's default on v2) the process's group is "/".
	if group == "" {
		return s, errors.New("cgroup v2 path: no unified entry in the process's cgroup list")
	}
	m, err := cgroup2.Load(group, cgroup2.WithMountpoint(root))
	if err != nil {
		return s, fmt.Errorf("cgroup v2 load: %w", err)
	}
	// Only the CPU and memory counters are used: the other controllers' files are left
	// unread.
	st, err := m.StatFiltered(cgroup2.StatCPU | cgroup2.StatMemory)
	if err != nil {
		return s, fmt.Errorf("cgroup v2 stat: %w", err)
	}
	// The limits are read directly: cgroup2's Stat does not report cpu.max, and it
	// reports a "max" limit as the largest uint64 rather than as unlimited.
	dir := filepath.Join(root, group)
	if s.CPULimitCores, err = readCPUMax(filepath.Join(dir, "cpu.max")); err != nil {
		return s, err
	}
	if s.MemoryLimitBytes, err = readLimit(filepath.Join(dir, "memory.max")); err != nil {
		return s, err
	}
	if swap, err := readLimit(filepath.Join(dir, "memory.swap.max")); err == nil {
		s.SwapLimitBytes = swap
	}
	if cpu := st.GetCPU(); cpu != nil {
		s.CPUUsageNanos = int64(cpu.UsageUsec) * 1000
		s.CPUPeriods = int64(cpu.NrPeriods)
		s.CPUThrottled = int64(cpu.NrThrottled)
		s.CPUThrottledNanos = int64(cpu.ThrottledUsec) * 1000
	}
	if mem := st.GetMemory(); mem != nil {
		s.MemoryUsageBytes = int64(mem.Usage)
		s.MemoryPeakBytes = int64(mem.MaxUsage) // memory.peak; 0 before kernel 5.19
	}
	return s, nil
}

func readV1(root string, procPaths map[string]string) (contract.CgroupSnapshot, error) {
	s := contract.CgroupSnapshot{UnixNano: time.Now().UnixNano(), CgroupVersion: 1, SwapLimitBytes: -1}
	// The hierarchies are the ones under root: cgroup1's default finds them through
	// /proc/self/mountinfo, which knows nothing of root. The memory controller reads
	// memsw only where swap is accounted, and never kmem, whose files recent kernels
	// have dropped.
	hierarchy := func() ([]cgroup1.Subsystem, error) {
		return []cgroup1.Subsystem{
			cgroup1.NewCpu(root),
			cgroup1.NewCpuacct(root),
			cgroup1.NewMemory(root, cgroup1.OptionalSwap(), cgroup1.IgnoreModules("kmem", "kmem.tcp")),
		}, nil
	}
	path := v1Path(root, procPaths)
	cg, err := cgroup1.Load(path, cgroup1.WithHierarchy(hierarchy))
	if err != nil {
		return s, fmt.Errorf("cgroup v1 load: %w", err)
	}
	st, err := cg.Stat(cgroup1.IgnoreNotExist)
	if err != nil {
		return s, fmt.Errorf("cgroup v1 stat: %w", err)
	}
	// The CPU limit is read directly: cgroup1's Stat does not report the CFS quota.
	cpuPath, err := path(cgroup1.Cpu)
	if err != nil {
		return s, err
	}
	cpuDir := filepath.Join(root, string(cgroup1.Cpu), cpuPath)
	quota, err := readInt(filepath.Join(cpuDir, "cpu.cfs_quota_us"))
	if err != nil {
		return s, err
	}
	period, err := readInt(filepath.Join(cpuDir, "cpu.cfs_period_us"))
	if err != nil {
		return s, err
	}
	s.CPULimitCores = quotaCores(quota, period)
	if cpu := st.GetCPU(); cpu != nil {
		s.CPUUsageNanos = int64(cpu.GetUsage().GetTotal()) // exact ns; user/kernel are tick-based
		s.CPUPeriods = int64(cpu.GetThrottling().GetPeriods())
		s.CPUThrottled = int64(cpu.GetThrottling().GetThrottledPeriods())
		s.CPUThrottledNanos = int64(cpu.GetThrottling().GetThrottledTime())
	}
	if mem := st.GetMemory(); mem != nil {
		s.MemoryUsageBytes = int64(mem.GetUsage().GetUsage())
		s.MemoryPeakBytes = int64(mem.GetUsage().GetMax())
		s.MemoryLimitBytes = unlimitedAsZero(mem.GetUsage().GetLimit())
		if mem.GetSwap() != nil && mem.GetSwap().GetLimit() > 0 {
			// memsw counts memory plus swap: the swap allowed is the difference.
			s.SwapLimitBytes = unlimitedAsZero(mem.GetSwap().GetLimit()) - s.MemoryLimitBytes
		}
	}
	return s, nil
}

// v1Path is the process's group in each hierarchy under root. Docker bind-mounts the
// container's own group at each hierarchy's root while /proc/self/cgroup may still name
// the host's path (no private cgroup namespace on v1): a path that is not under root is
// the hierarchy's root.
func v1Path(root string, procPaths map[string]string) cgroup1.Path {
	return func(name cgroup1.Name) (string, error) {
		p := procPaths[string(name)]
		if p == "" || p == "/" {
			return "/", nil
		}
		if _, err := os.Stat(filepath.Join(root, string(name), p)); err != nil {
			return "/", nil
		}
		return p, nil
	}
}

// readCPUMax parses cgroup v2's cpu.max ("max 100000" or "25000 100000").
func readCPUMax(path string) (float64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return parseCPUMax(string(b))
}

func parseCPUMax(s string) (float64, error) {
	fields := strings.Fields(s)
	if len(fields) != 2 {
		return 0, fmt.Errorf("cpu.max: unexpected %q", s)
	}
	if fields[0] == "max" {
		return 0, nil
	}
	quota, err1 := strconv.ParseInt(fields[0], 10, 64)
	period, err2 := strconv.ParseInt(fields[1], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, fmt.Errorf("cpu.max: %w", err)
	}
	return quotaCores(quota, period), nil
}

func quotaCores(quota, period int64) float64 {
	if quota <= 0 || period <= 0 {
		return 0
	}
	return float64(quota) / float64(period)
}

// readLimit reads a v2 limit file: a number of bytes, or "max".
func readLimit(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	if s := strings.TrimSpace(string(b)); s == "max" {
		return 0, nil
	}
	return readInt(path)
}

func readInt(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}

// v1 reports "unlimited" as a huge page-rounded number.
func unlimitedAsZero(v uint64) int64 {
	if v >= 1<<62 {
		return 0
	}
	return int64(v)
}
