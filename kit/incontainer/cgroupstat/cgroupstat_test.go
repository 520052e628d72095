package cgroupstat

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/contract"
)

func TestParseCPUMax(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		bad  bool
	}{
		{in: "25000 100000\n", want: 0.25},
		{in: "max 100000", want: 0},
		{in: "150000 100000", want: 1.5},
		{in: "25000", bad: true},
		{in: "x 100000", bad: true},
	} {
		have, err := parseCPUMax(tc.in)
		if (err != nil) != tc.bad || have != tc.want {
			t.Errorf("parseCPUMax(%q) = %v, %v; want %v, error %v", tc.in, have, err, tc.want, tc.bad)
		}
	}
}

func TestReadLimit(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if n, err := readLimit(write("a", "134217728\n")); err != nil || n != 128<<20 {
		t.Fatalf("have %d, %v", n, err)
	}
	if n, err := readLimit(write("b", "max\n")); err != nil || n != 0 {
		t.Fatalf("max: have %d, %v", n, err)
	}
	if _, err := readLimit(write("c", "lots\n")); err == nil {
		t.Fatal("want an error for a malformed limit")
	}
}

func TestMeanCores(t *testing.T) {
	from := contract.CgroupSnapshot{UnixNano: 1e9, CPUUsageNanos: 5e8}
	to := contract.CgroupSnapshot{UnixNano: 3e9, CPUUsageNanos: 1e9}
	if have := contract.MeanCores(from, to); have != 0.25 {
		t.Fatalf("have %v, want 0.25", have)
	}
	if have := contract.MeanCores(to, to); have != 0 {
		t.Fatalf("zero interval: have %v", have)
	}
}

func TestUnlimitedAsZero(t *testing.T) {
	if unlimitedAsZero(9223372036854771712) != 0 || unlimitedAsZero(128<<20) != 128<<20 {
		t.Fatal("v1 unlimited not recognised")
	}
}

// TestReadFixtures reads the trees under testdata as a container (or a host) would see
// its cgroup file system, and checks every field of the snapshot.
func TestReadFixtures(t *testing.T) {
	for _, tc := range []struct {
		dir  string
		want contract.CgroupSnapshot
	}{
		{dir: "v1-limited", want: contract.CgroupSnapshot{
			CgroupVersion: 1, CPULimitCores: 0.5,
			MemoryLimitBytes: 256 << 20, SwapLimitBytes: 128 << 20,
			CPUUsageNanos: 4567890123, CPUPeriods: 1200, CPUThrottled: 37, CPUThrottledNanos: 812345678,
			MemoryUsageBytes: 50 << 20, MemoryPeakBytes: 70 << 20,
		}},
		{dir: "v1-unlimited", want: contract.CgroupSnapshot{
			CgroupVersion: 1, CPULimitCores: 0,
			MemoryLimitBytes: 0, SwapLimitBytes: 0,
			CPUUsageNanos:    912345678,
			MemoryUsageBytes: 8 << 20, MemoryPeakBytes: 9 << 20,
		}},
		{dir: "v1-host-noswap", want: contract.CgroupSnapshot{
			CgroupVersion: 1, CPULimitCores: 1.5,
			MemoryLimitBytes: 128 << 20, SwapLimitBytes: -1,
			CPUUsageNanos: 2000000001, CPUPeriods: 640, CPUThrottled: 12, CPUThrottledNanos: 45000000,
			MemoryUsageBytes: 16 << 20, MemoryPeakBytes: 32 << 20,
		}},
		{dir: "v2-limited", want: contract.CgroupSnapshot{
			CgroupVersion: 2, CPULimitCores: 0.5,
			MemoryLimitBytes: 256 << 20, SwapLimitBytes: 128 << 20,
			CPUUsageNanos: 4567890000, CPUPeriods: 1200, CPUThrottled: 37, CPUThrottledNanos: 812345000,
			MemoryUsageBytes: 50 << 20, MemoryPeakBytes: 70 << 20,
		}},
		{dir: "v2-unlimited", want: contract.CgroupSnapshot{
			CgroupVersion: 2, CPULimitCores: 0,
			MemoryLimitBytes: 0, SwapLimitBytes: 0,
			CPUUsageNanos:    912345000,
			MemoryUsageBytes: 8 << 20, MemoryPeakBytes: 9 << 20,
		}},
		{dir: "v2-host-noswap", want: contract.CgroupSnapshot{
			CgroupVersion: 2, CPULimitCores: 1.5,
			MemoryLimitBytes: 128 << 20, SwapLimitBytes: -1,
			CPUUsageNanos: 2000001000, CPUPeriods: 640, CPUThrottled: 12, CPUThrottledNanos: 45000000,
			MemoryUsageBytes: 16 << 20, MemoryPeakBytes: 32 << 20,
		}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			before := time.Now().UnixNano()
			have, err := fixture(tc.dir).Read()
			after := time.Now().UnixNano()
			if err != nil {
				t.Fatal(err)
			}
			if have.UnixNano < before || have.UnixNano > after {
				t.Errorf("unix_ns %d not within the read [%d, %d]", have.UnixNano, before, after)
			}
			want := tc.want
			want.UnixNano = have.UnixNano
			if have != want {
				t.Errorf("have %+v\nwant %+v", have, want)
			}
		})
	}
}

func fixture(dir string) Reader {
	return Reader{
		Root:       filepath.Join("testdata", dir, "cgroup"),
		ProcCgroup: filepath.Join("testdata", dir, "proc-self-cgroup"),
	}
}

// TestReadFailures: a limit that cannot be read fails the snapshot rather than
// reporting "unlimited".
func TestReadFailures(t *testing.T) {
	copyTree := func(t *testing.T, dir string) Reader {
		t.Helper()
		dst := t.TempDir()
		if err := os.CopyFS(dst, os.DirFS(filepath.Join("testdata", dir))); err != nil {
			t.Fatal(err)
		}
		return Reader{Root: filepath.Join(dst, "cgroup"), ProcCgroup: filepath.Join(dst, "proc-self-cgroup")}
	}
	for _, tc := range []struct {
		name  string
		dir   string
		spoil func(r Reader) error
	}{
		{"no process cgroup list", "v2-limited", func(r Reader) error { return os.Remove(r.ProcCgroup) }},
		{"v2 without a unified entry", "v2-limited", func(r Reader) error {
			return os.WriteFile(r.ProcCgroup, []byte("4:memory:/\n"), 0o644)
		}},
		{"v2 without cpu.max", "v2-limited", func(r Reader) error { return os.Remove(filepath.Join(r.Root, "cpu.max")) }},
		{"v2 malformed cpu.max", "v2-limited", func(r Reader) error {
			return os.WriteFile(filepath.Join(r.Root, "cpu.max"), []byte("50000\n"), 0o644)
		}},
		{"v2 without memory.max", "v2-limited", func(r Reader) error { return os.Remove(filepath.Join(r.Root, "memory.max")) }},
		{"v1 without a CPU quota", "v1-limited", func(r Reader) error {
			return os.Remove(filepath.Join(r.Root, "cpu", "cpu.cfs_quota_us"))
		}},
		{"v1 malformed CPU period", "v1-limited", func(r Reader) error {
			return os.WriteFile(filepath.Join(r.Root, "cpu", "cpu.cfs_period_us"), []byte("often\n"), 0o644)
		}},
		{"v1 without hierarchies", "v1-limited", func(r Reader) error {
			return errors.Join(os.RemoveAll(filepath.Join(r.Root, "cpu")),
				os.RemoveAll(filepath.Join(r.Root, "cpuacct")), os.RemoveAll(filepath.Join(r.Root, "memory")))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := copyTree(t, tc.dir)
			if err := tc.spoil(r); err != nil {
				t.Fatal(err)
			}
			if s, err := r.Read(); err == nil {
				t.Fatalf("want an error, have %+v", s)
			}
		})
	}
}
