package experiments_test

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/experiments"
	"github.com/logbench/logbench/kit/experiments/fifostall"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// peak samples the Go heap in use while fn runs and returns the most seen and the bytes
// fn allocated in all. The heap is what the process holds beyond its code and stacks:
// the figure that grows with a hostile input.
func peak(fn func()) (peakHeap, allocated uint64) {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var mu sync.Mutex
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			mu.Lock()
			peakHeap = max(peakHeap, m.HeapInuse)
			mu.Unlock()
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	fn()
	close(done)
	wg.Wait()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	return max(peakHeap, after.HeapInuse), after.TotalAlloc - before.TotalAlloc
}

// bomb writes the archive of the issue: two files of 511 MiB of zeros, a few MB packed.
func bomb(b *testing.B) string {
	path := filepath.Join(b.TempDir(), "bomb.tar.gz")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	tw := tar.NewWriter(zw)
	tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: "bomb/", Mode: 0o755})
	zeros := make([]byte, 1<<20)
	for _, name := range []string{"runs.csv", "requests.csv"} {
		tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: "bomb/" + name, Mode: 0o644, Size: 511 << 20})
		for range 511 {
			tw.Write(zeros)
		}
	}
	tw.Close()
	zw.Close()
	f.Close()
	return path
}

func BenchmarkVerifyBomb(b *testing.B) {
	path := bomb(b)
	info, _ := os.Stat(path)
	var heap, alloc uint64
	for b.Loop() {
		heap, alloc = peak(func() {
			if _, err := bundle.OpenArchive(path); err == nil {
				b.Fatal("the bomb was read")
			}
		})
	}
	b.ReportMetric(float64(info.Size())/1e6, "archive-MB")
	b.ReportMetric(float64(heap)/1e6, "peak-heap-MB")
	b.ReportMetric(float64(alloc)/1e6, "alloc-MB")
}

// grown writes a folder of the archived fifo-stall bundle whose named files are grown
// to about the sizes given with copies of their rows (in runs.csv each under a new
// run_id), and SHA256SUMS written anew.
func grown(b *testing.B, sizes map[string]int) string {
	files, err := bundle.OpenArchive(results + "2026-11-30-vm2/fifo-go.tar.gz")
	if err != nil {
		b.Fatal(err)
	}
	for name, size := range sizes {
		lines := strings.SplitAfter(string(files.Data[name]), "\n")
		rows := slices.DeleteFunc(lines[1:], func(s string) bool { return s == "" })
		var out strings.Builder
		out.WriteString(lines[0])
		for i := 0; out.Len() < size; i++ {
			row := rows[i%len(rows)]
			if name == fifostall.RunsFile {
				id, rest, _ := strings.Cut(row, ",")
				row = fmt.Sprintf("%s-%d,%s", id, i, rest)
			}
			out.WriteString(row)
		}
		files.Data[name] = []byte(out.String())
	}
	dir := filepath.Join(b.TempDir(), "big")
	os.Mkdir(dir, 0o755)
	var sums strings.Builder
	var names []string
	for name := range files.Data {
		if name != bundle.SumsFile {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		os.WriteFile(filepath.Join(dir, name), files.Data[name], 0o644)
		s := sha256.Sum256(files.Data[name])
		fmt.Fprintf(&sums, "%s  %s\n", hex.EncodeToString(s[:]), name)
	}
	os.WriteFile(filepath.Join(dir, bundle.SumsFile), []byte(sums.String()), 0o644)
	return dir
}

func benchmarkVerifyGrown(b *testing.B, sizes map[string]int) {
	dir := grown(b, sizes)
	total := 0
	for _, n := range sizes {
		total += n
	}
	var heap, alloc uint64
	for b.Loop() {
		heap, alloc = peak(func() {
			files, err := bundle.Open(dir)
			if err != nil {
				return // refused whole, before reading: nothing held
			}
			exp, _ := experiments.Of(files)
			exp.Verify(files)
		})
	}
	b.ReportMetric(float64(total)/1e6, "grown-MB")
	b.ReportMetric(float64(heap)/1e6, "peak-heap-MB")
	b.ReportMetric(float64(alloc)/1e6, "alloc-MB")
}

// BenchmarkVerifyRunsCSV200MB: a runs.csv of 200 MB is refused by its size, unread.
func BenchmarkVerifyRunsCSV200MB(b *testing.B) {
	benchmarkVerifyGrown(b, map[string]int{fifostall.RunsFile: 200e6})
}

// BenchmarkVerifyAtTheCaps: every table grown to the size its cap admits, the bundle
// to its total cap: the most memory a bundle the reader takes can cost.
func BenchmarkVerifyAtTheCaps(b *testing.B) {
	small, big := int(bundle.MaxFileBytes(fifostall.RunsFile))-1000, int(bundle.MaxFileBytes(fifostall.RequestsFile))-1000
	benchmarkVerifyGrown(b, map[string]int{
		fifostall.RunsFile: small, fifostall.ConditionsFile: small,
		fifostall.RequestsFile: big, fifostall.TimelineFile: big, fifostall.ContainersFile: 6 << 20,
	})
}
