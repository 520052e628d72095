package speedprobe

import (
	"testing"

	"github.com/logbench/logbench/kit/contract"
)

// TestTheProbeDoesTheSameWorkEveryTime: the same bytes, the same digest, and a CPU
// time that a thread clock could read.
func TestTheProbeDoesTheSameWorkEveryTime(t *testing.T) {
	a, b := Run(2), Run(2)
	if a.SHA256 != b.SHA256 || a.Bytes != 2<<20 || a.CPUNanos <= 0 || a.WallNanos <= 0 {
		t.Fatalf("%+v, %+v", a, b)
	}
	if Run(3).SHA256 == a.SHA256 {
		t.Fatal("3 passes hash as 2")
	}
}

// BenchmarkProbe is the probe's work as Go's benchmark harness times it.
func BenchmarkProbe(b *testing.B) {
	rounds := contract.DefaultProbeArgs().Rounds
	b.SetBytes(int64(rounds) << 20)
	for b.Loop() {
		Run(rounds)
	}
}
