package debian

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ulikunitz/xz"
)

// zeros reads n zero bytes.
type zeros struct{ n int64 }

func (z *zeros) Read(p []byte) (int, error) {
	if z.n == 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > z.n {
		p = p[:z.n]
	}
	clear(p)
	z.n -= int64(len(p))
	return len(p), nil
}

// zerosTar is a data.tar holding the test spec's files of app and one file of n zero
// bytes, written as it is made: nothing of the file is held in memory.
func zerosTar(t *testing.T, w io.Writer, n int64) {
	t.Helper()
	tw := tar.NewWriter(w)
	for _, e := range []rawEntry{rawFile("./usr/bin/app", "#!app\n"), rawFile("./usr/share/app/passwd.master", "root:x:0:0:root:/root:/bin/sh\n")} {
		tw.WriteHeader(&e.hdr)
		tw.Write([]byte(e.body))
	}
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: "./usr/share/app/zeros", Mode: 0o644, Size: n}); err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(tw, &zeros{n}); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
}

// allocated runs f and returns how many bytes the heap gave out meanwhile: a bound on
// how much the heap grew at its peak, whatever the collector did.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestABombIsExtractedInLittleMemory builds from a package of a few hundred KB that
// holds 256 MiB of zeros (the largest file the caps allow), and from the same package
// with 1 KiB of zeros: the heap may not grow with the file (the kit used to hold every
// file in memory, 875 MiB for this one). The data.tar is gzip, which decodes 256 MiB
// in a fraction of xz's time; xz's own memory, its dictionary, is bounded by
// checkXZWindows (TestAnXZDictionaryIsBounded).
func TestABombIsExtractedInLittleMemory(t *testing.T) {
	a := newFakeArchive(t, testPackages)
	buildZeros := func(n int64) (Result, uint64) {
		var data bytes.Buffer
		gz, _ := gzip.NewWriterLevel(&data, gzip.BestSpeed)
		zerosTar(t, gz, n)
		if err := gz.Close(); err != nil {
			t.Fatal(err)
		}
		a.replaceApp(debOf(t, "data.tar.gz", data.Bytes()))
		o := a.options("")
		o.WorkDir = t.TempDir()
		var res Result
		var err error
		grew := allocated(func() { res, err = o.Build(context.Background(), testSpec, sha256.New()) })
		if err != nil {
			t.Fatal(err)
		}
		if left, _ := filepath.Glob(filepath.Join(o.WorkDir, "*")); len(left) > 0 {
			t.Errorf("left in the work folder: %v", left)
		}
		t.Logf("%d bytes of .deb, %d KiB of root file system: %.2f MiB allocated", data.Len(), res.RootfsBytes>>10, float64(grew)/(1<<20))
		return res, grew
	}
	_, small := buildZeros(1 << 10)
	res, big := buildZeros(maxFileBytes)
	if res.RootfsBytes < maxFileBytes {
		t.Fatalf("the root file system has %d bytes, not the file's %d", res.RootfsBytes, maxFileBytes)
	}
	// Everything else a build allocates (the decoders' dictionaries, the index, the
	// signature) is the same for both.
	if big > small+1<<20 {
		t.Errorf("extracting 256 MiB allocated %.2f MiB more than extracting 1 KiB: the heap grows with the file", float64(big-small)/(1<<20))
	}
}

// TestAPackageMayNotExpandBeyondTheCaps: a file larger than maxFileBytes is refused by
// its header, before a byte of it is read; packages that expand to more than the
// build's cap, or hold more entries than it, are refused as they are read.
func TestAPackageMayNotExpandBeyondTheCaps(t *testing.T) {
	t.Run("one file", func(t *testing.T) {
		// A header that says 256 MiB and a byte, and no content at all: refused on
		// the header.
		var data bytes.Buffer
		tw := tar.NewWriter(&data)
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: "./usr/share/app/big", Mode: 0o644, Size: maxFileBytes + 1}); err != nil {
			t.Fatal(err)
		}
		a := newFakeArchive(t, testPackages)
		a.replaceApp(debOf(t, "data.tar.xz", xzBytes(t, append(appTar(t)[:1024], data.Bytes()...))))
		_, _, err := build(t, a.options(""))
		want := "usr/share/app/big: 268435457 bytes, more than the 256 MiB a file may have (maxFileBytes): refused"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("err = %v, want %q", err, want)
		}
	})
	// The build's caps, lowered: two packages of 600 KB each against 1 MiB, 300
	// entries against 256.
	small := caps{expanded: 1 << 20, file: 1 << 20, entries: 256}
	dir := t.TempDir()
	deb := func(name string, files int, size int64) string {
		var entries []rawEntry
		for i := range files {
			entries = append(entries, rawEntry{tar.Header{Typeflag: tar.TypeReg, Name: "./usr/share/" + name + "/" + string(rune('a'+i%26)) + strings.Repeat("x", i/26), Mode: 0o644, Size: size}, strings.Repeat("\x00", int(size))})
		}
		path := filepath.Join(dir, name+".deb")
		if err := os.WriteFile(path, debOf(t, "data.tar.xz", xzBytes(t, appTar(t, entries...))), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, tc := range []struct {
		name string
		debs []string
		want string
	}{
		{"all packages together", []string{deb("one", 1, 600<<10), deb("two", 1, 600<<10)}, "package two: data.tar: usr/share/two/a: the packages expand to more than 1 MiB (maxExpandedBytes): refused"},
		{"entries", []string{deb("many", 300, 0)}, "package many: data.tar: the packages hold more than 256 entries (maxEntries): refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := newTree(nil, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			defer tr.close()
			tr.caps = small
			for _, d := range tc.debs {
				name := strings.TrimSuffix(filepath.Base(d), ".deb")
				if err = tr.addDeb(d, name); err != nil {
					err = fmt.Errorf("package %s: %w", name, err)
					break
				}
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// withDictionary rewrites the dictionary size of the first block of an xz stream (as
// written by xzBytes: a single LZMA2 filter) to code, fixing the header's CRC32.
func withDictionary(t *testing.T, stream []byte, code byte) []byte {
	t.Helper()
	out := bytes.Clone(stream)
	header := out[12 : 12+(int(out[12])+1)*4]
	// size, flags, filter id 0x21, properties size 1, the dictionary's code.
	if header[2] != 0x21 || header[3] != 1 {
		t.Fatalf("block header % x: not a lone LZMA2 filter", header)
	}
	header[4] = code
	n := len(header) - 4
	binary.LittleEndian.PutUint32(header[n:], crc32.ChecksumIEEE(header[:n]))
	return out
}

// TestAnXZDictionaryIsBounded: a block header that asks for a 1 GiB dictionary (the
// xz library allocates what it is asked, up to 4 GiB, before decoding) is refused
// before the decoder sees it.
func TestAnXZDictionaryIsBounded(t *testing.T) {
	data := appTar(t)
	for code, want := range map[byte]string{
		36: "block 1: asks for a 1024 MiB dictionary, more than the 64 MiB allowed: refused",
		29: "block 1: asks for a 96 MiB dictionary, more than the 64 MiB allowed",
	} {
		stream := withDictionary(t, xzBytes(t, data), code)
		a := newFakeArchive(t, testPackages)
		a.replaceApp(debOf(t, "data.tar.xz", stream))
		var err error
		grew := allocated(func() { _, _, err = build(t, a.options("")) })
		if err == nil || !strings.Contains(err.Error(), "data.tar.xz: xz stream 1: "+want) {
			t.Fatalf("err = %v, want %q", err, want)
		}
		if grew > 64<<20 {
			t.Errorf("%.0f MiB allocated", float64(grew)/(1<<20))
		}
	}
	// The same stream with its own 8 MiB dictionary builds, and the check reads
	// several blocks and several streams with padding between them as the decoder
	// does.
	var multi bytes.Buffer
	w, err := xz.WriterConfig{BlockSize: 4 << 10}.NewWriter(&multi)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(bytes.Repeat([]byte("a line of a log\n"), 4<<10))
	w.Close()
	multi.Write([]byte{0, 0, 0, 0, 0, 0, 0, 0})
	multi.Write(xzBytes(t, []byte("and another stream\n")))
	if err := checkXZWindows(bytes.NewReader(multi.Bytes()), maxWindowBytes); err != nil {
		t.Fatalf("several blocks and streams: %v", err)
	}
	r, _ := xz.NewReader(bytes.NewReader(multi.Bytes()))
	if n, err := io.Copy(io.Discard, r); err != nil || n != 16*(4<<10)+19 {
		t.Fatalf("the decoder reads %d bytes, %v", n, err)
	}
	big := withDictionary(t, multi.Bytes(), 36)
	if err := checkXZWindows(bytes.NewReader(big), maxWindowBytes); err == nil {
		t.Fatal("a 1 GiB dictionary in the first of several blocks passed")
	}
	// Truncated anywhere, the framing is refused, not read past.
	for i := 1; i < multi.Len()-4; i += 97 {
		if err := checkXZWindows(bytes.NewReader(multi.Bytes()[:i]), maxWindowBytes); err == nil {
			t.Fatalf("cut at %d of %d bytes: passed", i, multi.Len())
		}
	}
}

// TestAZstdWindowIsBounded: a zstd frame that asks for a 1 GiB window is refused.
func TestAZstdWindowIsBounded(t *testing.T) {
	// Magic, a frame header with only a window descriptor (2^(10+20) bytes), then one
	// empty raw block, the last.
	frame := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 20 << 3, 0x01, 0x00, 0x00}
	a := newFakeArchive(t, testPackages)
	a.replaceApp(debOf(t, "data.tar.zst", frame))
	_, _, err := build(t, a.options(""))
	if err == nil || !strings.Contains(err.Error(), "window size exceeded") {
		t.Fatalf("err = %v", err)
	}
	t.Log(err)
}

// FuzzCheckXZWindows: whatever the bytes, the framing check ends without a panic.
func FuzzCheckXZWindows(f *testing.F) {
	var seed bytes.Buffer
	w, _ := xz.NewWriter(&seed)
	w.Write([]byte("usr/bin/app\n"))
	w.Close()
	f.Add(seed.Bytes())
	f.Add(append(bytes.Clone(seed.Bytes()), 0, 0, 0, 0))
	f.Fuzz(func(t *testing.T, b []byte) {
		checkXZWindows(bytes.NewReader(b), maxWindowBytes)
	})
}
