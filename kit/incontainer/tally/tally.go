// Package tally counts a byte stream the way the experiment verifies it: bytes,
// newlines and a running SHA-256. The writer and the reader of the log FIFO each keep
// one, and a run is only valid when the two agree.
package tally

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"sync"

	"github.com/logbench/logbench/kit/contract"
)

// Tally is safe for concurrent use.
type Tally struct {
	mu    sync.Mutex
	bytes int64
	lines int64
	sum   hash.Hash
}

// New returns an empty Tally.
func New() *Tally { return &Tally{sum: sha256.New()} }

// Add counts p.
func (t *Tally) Add(p []byte) {
	t.mu.Lock()
	t.bytes += int64(len(p))
	t.lines += int64(bytes.Count(p, newline))
	t.sum.Write(p)
	t.mu.Unlock()
}

// Bytes returns the number of bytes counted so far, without computing the digest.
func (t *Tally) Bytes() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.bytes
}

// Snapshot returns the counts so far, the digest included.
func (t *Tally) Snapshot() contract.Counts {
	t.mu.Lock()
	defer t.mu.Unlock()
	return contract.Counts{Bytes: t.bytes, Lines: t.lines, SHA256: hex.EncodeToString(t.sum.Sum(nil))}
}

// Reset starts the count again from nothing.
func (t *Tally) Reset() {
	t.mu.Lock()
	t.bytes, t.lines = 0, 0
	t.sum.Reset()
	t.mu.Unlock()
}

var newline = []byte{'\n'}
