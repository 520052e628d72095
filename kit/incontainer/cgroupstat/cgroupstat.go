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

// Reader reads the cgroup of the process that calls it.
type Reader struct {
	// Root is where the cgroup file system is mounted, /sys/fs/cgroup by default.
	Root string
}

// Read takes a snapshot.
func (r Reader) Read() (contract.CgroupSnapshot, error) {
	root := r.Root
	if root == "" {
		root = "/sys/fs/cgroup"
	}
	if cgroups.Mode() == cgroups.Unified {
		return readV2(root)
	}
	return readV1(root)
}

func readV2(root string) (contract.CgroupSnapshot, error) {
	s := contract.CgroupSnapshot{UnixNano: time.Now().UnixNano(), CgroupVersion: 2, SwapLimitBytes: -1}
	// Under a private cgroup namespace (Docker's default on v2) the process's group is "/".
	group, err := cgroup2.PidGroupPath(os.Getpid())
	if err != nil {
		return s, fmt.Errorf("cgroup v2 path: %w", err)
	}
	m, err := cgroup2.Load(group, cgroup2.WithMountpoint(root))
	if err != nil {
		return s, fmt.Errorf("cgroup v2 load: %w", err)
	}
	st, err := m.Stat()
	if err != nil {
		return s, fmt.Errorf("cgroup v2 stat: %w", err)
	}
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
		s.MemoryPeakBytes = int64(mem.MaxUsage)
	}
	return s, nil
}

func readV1(root string) (contract.CgroupSnapshot, error) {
	s := contract.CgroupSnapshot{UnixNano: time.Now().UnixNano(), CgroupVersion: 1, SwapLimitBytes: -1}
	// Docker bind-mounts the container's own cgroup at each controller's root.
	cg, err := cgroup1.Load(cgroup1.RootPath)
	if err != nil {
		return s, fmt.Errorf("cgroup v1 load: %w", err)
	}
	st, err := cg.Stat(cgroup1.IgnoreNotExist)
	if err != nil {
		return s, fmt.Errorf("cgroup v1 stat: %w", err)
	}
	cpuDir := filepath.Join(root, "cpu")
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
