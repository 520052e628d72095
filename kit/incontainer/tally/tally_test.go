package tally

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/logbench/logbench/kit/contract"
)

func TestTallyMatchesOneShotDigest(t *testing.T) {
	tl := New()
	tl.Add([]byte("ab\n"))
	tl.Add([]byte("c\nd"))
	sum := sha256.Sum256([]byte("ab\nc\nd"))
	have := tl.Snapshot()
	want := contract.Counts{Bytes: 6, Lines: 2, SHA256: hex.EncodeToString(sum[:])}
	if have != want {
		t.Fatalf("have %+v, want %+v", have, want)
	}
	tl.Reset()
	empty := sha256.Sum256(nil)
	if have := tl.Snapshot(); have != (contract.Counts{SHA256: hex.EncodeToString(empty[:])}) {
		t.Fatalf("after reset: %+v", have)
	}
}

// BenchmarkAdd is the cost of counting one 16 KiB record (bytes, newlines, SHA-256).
func BenchmarkAdd(b *testing.B) {
	record := make([]byte, 16384)
	record[len(record)-1] = '\n'
	tl := New()
	b.SetBytes(int64(len(record)))
	for b.Loop() {
		tl.Add(record)
	}
}
