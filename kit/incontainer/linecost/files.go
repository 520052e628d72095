package linecost

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/logbench/logbench/kit/contract"
)

// countingFile is the way's log file, counting the calls that reach the kernel: each
// Write on a regular file is one write system call, each Sync one fsync. The queue's
// writer and the buffered way's flusher call it from their own goroutines.
type countingFile struct {
	f      *os.File
	writes atomic.Int64
	syncs  atomic.Int64
	bytes  atomic.Int64
}

func createCounting(path string) (*countingFile, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	return &countingFile{f: f}, nil
}

func (c *countingFile) Write(p []byte) (int, error) {
	c.writes.Add(1)
	n, err := c.f.Write(p)
	c.bytes.Add(int64(n))
	return n, err
}

func (c *countingFile) Sync() error {
	c.syncs.Add(1)
	return c.f.Sync()
}

func (c *countingFile) Close() error { return c.f.Close() }

// tally counts and hashes a byte stream as the experiment verifies it.
type tally struct {
	h     hashWriter
	bytes int64
	lines int64
}

type hashWriter interface {
	io.Writer
	Sum([]byte) []byte
}

func newTally() *tally { return &tally{h: sha256.New()} }

func (t *tally) Write(p []byte) (int, error) {
	t.h.Write(p)
	t.bytes += int64(len(p))
	t.lines += int64(bytes.Count(p, []byte{'\n'}))
	return len(p), nil
}

func (t *tally) counts() contract.Counts {
	return contract.Counts{Bytes: t.bytes, Lines: t.lines, SHA256: hex.EncodeToString(t.h.Sum(nil))}
}

// Expected is what lines calls of an enabled way generate with the kit's line before
// lines had a time stamp (LineFormat): lines 0..lines-1.
func Expected(lines int64) contract.Counts {
	t := newTally()
	buf := make([]byte, 0, 64<<10)
	for seq := range lines {
		buf = AppendLine(buf, seq)
		if len(buf) > 60<<10 {
			t.Write(buf)
			buf = buf[:0]
		}
	}
	t.Write(buf)
	return t.counts()
}

// nothing is the Counts of an empty stream.
func nothing() contract.Counts { return newTally().counts() }

// readBack counts the file as it is on disk now: with each line's time stamp masked,
// and as it is.
func readBack(path string, m Masker) (masked, raw contract.Counts, err error) {
	f, err := os.Open(path)
	if err != nil {
		return masked, raw, err
	}
	defer f.Close()
	t := newMaskingTally(m)
	if _, err := io.Copy(t, bufio.NewReaderSize(f, 64<<10)); err != nil {
		return masked, raw, err
	}
	masked, raw = t.counts()
	return masked, raw, nil
}

// threadWriteSyscalls is the calling thread's write system calls so far, as the kernel
// counts them; -1 when it does not say (no task I/O accounting). The caller must be
// locked to its thread.
func threadWriteSyscalls() int64 {
	b, err := os.ReadFile("/proc/thread-self/io")
	if err != nil {
		return -1
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "syscw:"); ok {
			if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
				return n
			}
		}
	}
	return -1
}

// ReadFSFacts finds the mount that holds dir in mountinfo (/proc/self/mountinfo).
func ReadFSFacts(mountinfo, dir string) (FSFacts, error) {
	facts := FSFacts{Dir: dir}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return facts, err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	b, err := os.ReadFile(mountinfo)
	if err != nil {
		return facts, err
	}
	found := false
	for line := range strings.Lines(string(b)) {
		m, ok := parseMountinfo(line)
		if !ok || !within(abs, m.MountPoint) {
			continue
		}
		// The longest mount point wins; of equal ones the later, which hides the earlier.
		if !found || len(m.MountPoint) >= len(facts.MountPoint) {
			m.Dir = dir
			facts, found = m, true
		}
	}
	if !found {
		return facts, errors.New("no mount holds " + abs + " in " + mountinfo)
	}
	return facts, nil
}

func within(path, mountPoint string) bool {
	return mountPoint == "/" || path == mountPoint || strings.HasPrefix(path, mountPoint+"/")
}

// parseMountinfo reads one line of proc(5)'s mountinfo:
// "36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw,errors=continue".
func parseMountinfo(line string) (FSFacts, bool) {
	f := strings.Fields(line)
	sep := -1
	for i := 6; i < len(f); i++ {
		if f[i] == "-" {
			sep = i
			break
		}
	}
	if sep < 0 || len(f) < sep+4 {
		return FSFacts{}, false
	}
	return FSFacts{
		MountPoint:   unescapeOctal(f[4]),
		MountOptions: f[5],
		FSType:       f[sep+1],
		Source:       unescapeOctal(f[sep+2]),
		SuperOptions: f[sep+3],
	}, true
}

// unescapeOctal undoes the kernel's \ooo escapes of space, tab, newline and backslash.
func unescapeOctal(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && isOctal(s[i+1]) && isOctal(s[i+2]) && isOctal(s[i+3]) {
			b.WriteByte((s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0'))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }
