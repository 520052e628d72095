package cgroupstat

import (
	"os"
	"path/filepath"
	"testing"

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
