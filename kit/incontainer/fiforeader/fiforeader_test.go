package fiforeader

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/contract"
)

func TestConsumeCountsEverythingAndKeepsATimeline(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcde\n"), 1000) // 16,000 bytes
	r := New(Config{})
	if err := r.consume(context.Background(), bytes.NewReader(data), nil); !errors.Is(err, io.EOF) {
		t.Fatalf("err = %v", err)
	}
	sum := sha256.Sum256(data)
	c := r.counts.Snapshot()
	if c.Bytes != 16000 || c.Lines != 1000 || c.SHA256 != hex.EncodeToString(sum[:]) {
		t.Fatalf("counts = %+v", c)
	}
	// 16,000 bytes in reads of at most 4,096: four reads.
	if len(r.timeline) != 4 || r.timeline[3].Bytes != 16000 {
		t.Fatalf("timeline = %+v", r.timeline)
	}
}

func TestPacingBoundsTheRate(t *testing.T) {
	// At 256 KiB/s, 64 reads of 4 KiB may take no less than 63/64 s: each read but
	// the last is followed by a wait of its share.
	const reads = 64
	data := make([]byte, reads*contract.ReaderReadBytes)
	r := New(Config{})
	start := time.Now()
	r.consume(context.Background(), bytes.NewReader(data), Pacer(contract.SlowReaderBytesPerSec))
	elapsed := time.Since(start)
	if min := 63 * time.Second / 64; elapsed < min {
		t.Fatalf("read %d bytes in %v; the bound allows no less than %v", len(data), elapsed, min)
	}
	// The bound holds at every sample, not just at the end: counted from when the
	// pacer started, the bytes read never exceed one read plus the rate's share.
	for _, s := range r.timeline {
		allowed := contract.ReaderReadBytes + float64(contract.SlowReaderBytesPerSec)*float64(s.UnixNano-start.UnixNano())/1e9
		if float64(s.Bytes) > allowed {
			t.Fatalf("sample %+v exceeds the bound %.0f", s, allowed)
		}
	}
}

func TestNoPacerWhenUnlimited(t *testing.T) {
	if Pacer(0) != nil {
		t.Fatal("the fast reader must not be paced")
	}
}
