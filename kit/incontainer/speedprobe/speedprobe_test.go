package speedprobe

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
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

// TestTheRequestLoopAnswersEveryRequestOnOneConnection: n requests, every body answered
// in order (the digest of the bodies as the loop's contract spells them, built here
// from that spelling), over the one connection keep-alive holds, and a CPU time the
// process clock could read.
func TestTheRequestLoopAnswersEveryRequestOnOneConnection(t *testing.T) {
	const n = 50
	have, err := Requests(n)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	for i := WarmupRequests; i < WarmupRequests+n; i++ {
		body := fmt.Sprintf("%08d", i)
		for j := 8; j < 64; j++ {
			body += string(rune('a' + j%26))
		}
		h.Write([]byte(body))
	}
	if want := hex.EncodeToString(h.Sum(nil)); have.SHA256 != want {
		t.Errorf("digest %s, want %s", have.SHA256, want)
	}
	if have.Requests != n || have.BodyBytes != n*64 || have.Conns != 1 || have.WallNanos <= 0 || have.CPUNanos <= 0 {
		t.Errorf("%+v", have)
	}
	again, err := Requests(n + 1)
	if err != nil || again.SHA256 == have.SHA256 || again.Requests != n+1 {
		t.Errorf("%d requests: %+v, %v: want another digest than %d's", n+1, again, err, n)
	}
}

// TestTheSyscallLoopWritesEveryByte: n calls, each writing its byte.
func TestTheSyscallLoopWritesEveryByte(t *testing.T) {
	have, err := Syscalls(1000)
	if err != nil {
		t.Fatal(err)
	}
	if have.Calls != 1000 || have.Bytes != 1000 || have.CPUNanos <= 0 || have.WallNanos <= 0 {
		t.Errorf("%+v", have)
	}
}

// BenchmarkRequestPath is the request-path probe's two loops at their defaults, as Go's
// benchmark harness times them.
func BenchmarkRequestPath(b *testing.B) {
	a := contract.DefaultProbeArgs()
	for b.Loop() {
		if _, err := Syscalls(a.Syscalls); err != nil {
			b.Fatal(err)
		}
		if _, err := Requests(a.Requests); err != nil {
			b.Fatal(err)
		}
	}
}
