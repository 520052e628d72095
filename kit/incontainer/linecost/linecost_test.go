package linecost

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/contract"
)

const testLines = MinLines

func testConfig(t *testing.T) Config {
	c := DefaultConfig(t.TempDir())
	c.Line = LineTextNoTime // the kit's line before lines had a time stamp
	c.Lines = testLines
	c.FlushInterval = time.Hour // no periodic flush inside a trial unless a test asks
	c.TimerReads = 1000
	return c
}

// runWay runs one trial of way as Run does, on a locked thread.
func runWay(t *testing.T, c Config, way string) Trial {
	t.Helper()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tr, err := c.trial(way, "linecost-test-"+way+".log")
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestAppendLine(t *testing.T) {
	have := string(AppendLine(nil, 42))
	want := "level=INFO msg=served seq=42 user=alice path=/api/items status=200\n"
	if have != want {
		t.Fatalf("have %q, want %q", have, want)
	}
	if strings.Replace(LineFormat, "{seq}", "42", 1)+"\n" != want {
		t.Fatalf("LineFormat %q does not render line 42", LineFormat)
	}
}

func TestExpectedDigests(t *testing.T) {
	var all []byte
	for seq := range int64(3) {
		all = AppendLine(all, seq)
	}
	sum := sha256.Sum256(all)
	have := Expected(3)
	if have.Bytes != int64(len(all)) || have.Lines != 3 || have.SHA256 != hex.EncodeToString(sum[:]) {
		t.Fatalf("Expected(3) = %+v; want %d bytes, 3 lines, %x", have, len(all), sum)
	}
	// Long enough to cross Expected's internal chunking.
	all = all[:0]
	for seq := range int64(5000) {
		all = AppendLine(all, seq)
	}
	sum = sha256.Sum256(all)
	if have := Expected(5000); have.SHA256 != hex.EncodeToString(sum[:]) || have.Bytes != int64(len(all)) {
		t.Fatalf("Expected(5000) = %+v, want %x", have, sum)
	}
	// Lines 0..999 as both programs write them; the Python test holds the same digest.
	if have := Expected(1000); have.Bytes != 67890 || have.Lines != 1000 ||
		have.SHA256 != "24b1b20f6d1ca0ff7a562695f8f2f57c783964868b21742f4b324390603272b4" {
		t.Fatalf("Expected(1000) = %+v", have)
	}
	if n := nothing(); n.SHA256 != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" || n.Bytes != 0 {
		t.Fatalf("nothing() = %+v", n)
	}
}

// The format way formats exactly the line every writing way writes, and writes nothing.
func TestFormatFormatsTheLine(t *testing.T) {
	var got bytes.Buffer
	in, err := newInstance(Format, "", wayOptions{}, &got)
	if err != nil {
		t.Fatal(err)
	}
	in.run(testLines)
	var want []byte
	for seq := range int64(testLines) {
		want = AppendLine(want, seq)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("formatted %.200q..., want %.200q...", got.Bytes(), want)
	}
	if in.user.built != testLines || in.file != nil {
		t.Fatalf("built %d, file %v", in.user.built, in.file)
	}
}

func TestDisabledWays(t *testing.T) {
	c := testConfig(t)
	for _, tc := range []struct {
		way   string
		built int64
	}{{DisabledEager, testLines}, {DisabledLazy, 0}} {
		tr := runWay(t, c, tc.way)
		// The eager way renders the user for every line it then throws away; the lazy way
		// renders nothing at all.
		if tr.ArgsBuilt != tc.built {
			t.Errorf("%s: user rendered %d times, want %d", tc.way, tr.ArgsBuilt, tc.built)
		}
		if tr.Generated != nothing() || tr.FileName != "" || tr.WriteCalls != 0 {
			t.Errorf("%s wrote something: %+v", tc.way, tr)
		}
		if tr.ThreadWriteSyscalls > 0 {
			t.Errorf("%s: %d write system calls", tc.way, tr.ThreadWriteSyscalls)
		}
	}
	entries, _ := os.ReadDir(c.Dir)
	if len(entries) != 0 {
		t.Fatalf("disabled ways left files: %v", entries)
	}
}

// Each writing way writes every line, and makes the system calls it claims to: the
// file wrapper's count, and the kernel's count for the calling thread where the kernel
// keeps one.
func TestWritingWays(t *testing.T) {
	c := testConfig(t)
	want := Expected(testLines)
	full := want.Bytes / int64(c.BufferBytes) // the buffer's writes when full, on the caller
	for _, tc := range []struct {
		way                  string
		writes, syncs, onCPU int64 // onCPU: the caller thread's write system calls
	}{
		{Buffered, full + 1, 0, full}, // + the flush of the rest at the end
		{Unbuffered, testLines, 0, testLines},
		{Fsync, testLines, testLines, testLines},
		{Queue, testLines, 0, 0}, // the writer goroutine writes, on its own thread
	} {
		tr := runWay(t, c, tc.way)
		if tr.Generated != want || tr.File != want {
			t.Errorf("%s: generated %+v, file %+v; want both %+v", tc.way, tr.Generated, tr.File, want)
		}
		if tr.WrittenBytes != want.Bytes {
			t.Errorf("%s: write calls reported %d bytes, want %d", tc.way, tr.WrittenBytes, want.Bytes)
		}
		if tr.WriteCalls != tc.writes || tr.FsyncCalls != tc.syncs {
			t.Errorf("%s: %d writes and %d fsyncs, want %d and %d", tc.way, tr.WriteCalls, tr.FsyncCalls, tc.writes, tc.syncs)
		}
		if tr.ThreadWriteSyscalls >= 0 && tr.ThreadWriteSyscalls != tc.onCPU {
			t.Errorf("%s: the kernel counted %d write system calls on the caller's thread, want %d", tc.way, tr.ThreadWriteSyscalls, tc.onCPU)
		}
		if tr.ArgsBuilt != testLines {
			t.Errorf("%s: user rendered %d times, want %d", tc.way, tr.ArgsBuilt, testLines)
		}
		if tr.LinesDropped != 0 {
			t.Errorf("%s: %d lines dropped", tc.way, tr.LinesDropped)
		}
		if tr.ThreadCPUNanos <= 0 || tr.WallNanos <= 0 || tr.DrainWallNanos < 0 {
			t.Errorf("%s: times %d, %d, %d", tc.way, tr.ThreadCPUNanos, tr.WallNanos, tr.DrainWallNanos)
		}
	}
	if threadWriteSyscalls() < 0 {
		t.Log("no /proc/thread-self/io here: the kernel's counts were not checked")
	}
}

// The buffered way's lines reach the file within a flush interval, without the buffer
// filling and without the writer being closed.
func TestBufferedFlushesPeriodically(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log")
	in, err := newInstance(Buffered, path, wayOptions{bufferBytes: 4096, flushInterval: 20 * time.Millisecond}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer in.finish()
	in.run(3)
	want := Expected(3)
	deadline := time.Now().Add(5 * time.Second)
	for {
		have, _, err := readBack(path, Masker{})
		if err != nil {
			t.Fatal(err)
		}
		if have == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 5 s the file holds %+v, want %+v", have, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if w := in.file.writes.Load(); w != 1 {
		t.Fatalf("%d writes for three lines, want the one flush", w)
	}
}

// gatedWriter holds each write until released, so that a queue fills on demand.
type gatedWriter struct {
	entered chan struct{} // a write has begun
	gate    chan struct{}
	buf     bytes.Buffer
}

func newGatedWriter() *gatedWriter {
	return &gatedWriter{entered: make(chan struct{}, 100), gate: make(chan struct{})}
}

func (g *gatedWriter) Write(p []byte) (int, error) {
	g.entered <- struct{}{}
	<-g.gate
	return g.buf.Write(p)
}

func TestQueueFull(t *testing.T) {
	line := func(i int) []byte { return AppendLine(nil, int64(i)) }
	t.Run("drop", func(t *testing.T) {
		g := newGatedWriter()
		q := newQueueWriter(g, 2, true)
		q.Write(line(0))
		<-g.entered
		for i := 1; i < 10; i++ {
			q.Write(line(i))
		}
		close(g.gate)
		if err := q.Close(); err != nil {
			t.Fatal(err)
		}
		// The writer holds one line and the queue two: the other seven are dropped, and
		// what is written is the first lines, in order.
		want := string(line(0)) + string(line(1)) + string(line(2))
		if q.drops != 7 || q.waits != 0 || g.buf.String() != want {
			t.Fatalf("dropped %d, waited %d, wrote %q", q.drops, q.waits, g.buf.String())
		}
	})
	t.Run("block", func(t *testing.T) {
		g := newGatedWriter()
		q := newQueueWriter(g, 2, false)
		go func() {
			time.Sleep(20 * time.Millisecond)
			close(g.gate)
		}()
		var want bytes.Buffer
		for i := range 10 {
			q.Write(line(i))
			want.Write(line(i))
		}
		if err := q.Close(); err != nil {
			t.Fatal(err)
		}
		if q.drops != 0 || q.waits < 1 || g.buf.String() != want.String() {
			t.Fatalf("dropped %d, waited %d, wrote %q", q.drops, q.waits, g.buf.String())
		}
	})
}

// The trial arithmetic: warm-ups run and are discarded with their files, the kept
// trials are numbered from 0 and each counts its lines.
func TestRun(t *testing.T) {
	c := testConfig(t)
	c.Ways = []string{Format, Unbuffered}
	c.Trials, c.Warmup = 2, 1
	doc, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Experiment != "line-cost" || doc.Language != "go" || !strings.HasPrefix(doc.Runtime, "go") ||
		doc.LinesPerTrial != testLines || doc.Trials != 2 || doc.WarmupTrials != 1 {
		t.Fatalf("document header %+v", doc)
	}
	if doc.Timer.Reads != 1000 || doc.Timer.MonotonicNsPerRead <= 0 || doc.Timer.ThreadCPUNsPerRead <= 0 || doc.Timer.MonotonicResolutionNs <= 0 {
		t.Fatalf("timer %+v", doc.Timer)
	}
	if doc.FS.FSType == "" || doc.FS.MountPoint == "" || doc.FS.Dir != c.Dir {
		t.Fatalf("fs %+v", doc.FS)
	}
	if len(doc.Ways) != 2 || doc.Ways[0].Way != Format || doc.Ways[1].Way != Unbuffered || doc.Ways[0].Call == "" || doc.Ways[1].Path == "" {
		t.Fatalf("ways %+v", doc.Ways)
	}
	for _, w := range doc.Ways {
		if len(w.Trials) != 2 {
			t.Fatalf("%s: %d trials, want 2", w.Way, len(w.Trials))
		}
		for i, tr := range w.Trials {
			if tr.Trial != i || tr.Lines != testLines || tr.ThreadCPUNanos <= 0 || tr.WallNanos <= 0 {
				t.Errorf("%s trial %d: %+v", w.Way, i, tr)
			}
			if w.Way == Unbuffered && tr.FileName != fmt.Sprintf("linecost-go-unbuffered-%02d.log", i) {
				t.Errorf("file %q", tr.FileName)
			}
		}
	}
	files, _ := filepath.Glob(filepath.Join(c.Dir, "*"))
	for i := range files {
		files[i] = filepath.Base(files[i])
	}
	if strings.Join(files, " ") != "linecost-go-unbuffered-00.log linecost-go-unbuffered-01.log" {
		t.Fatalf("files left: %v", files)
	}
}

func TestValidate(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		edit func(*Config)
		want string // in the error; "" for none
	}{
		{func(*Config) {}, ""},
		{func(c *Config) { c.Lines = MinLines - 1 }, "below the minimum of 1000"},
		{func(c *Config) { c.Ways = []string{"syslog"} }, `unknown way "syslog"`},
		{func(c *Config) { c.Ways = []string{Fsync, Fsync} }, "given twice"},
		{func(c *Config) { c.QueueFull = "wait" }, `"block" or "drop"`},
		{func(c *Config) { c.Trials = 0 }, "trials must be at least 1"},
		{func(c *Config) { c.Warmup = -1 }, "warm-up"},
		{func(c *Config) { c.QueueSize = 0 }, "queue size"},
		{func(c *Config) { c.Dir = filepath.Join(dir, "missing") }, "directory for the log files"},
		{func(c *Config) { c.Dir = filepath.Join(dir, "missing"); c.Ways = []string{Format} }, ""},
	} {
		c := DefaultConfig(dir)
		tc.edit(&c)
		err := c.Validate()
		if (tc.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", c, err, tc.want)
		}
	}
	if _, err := Run(context.Background(), Config{Lines: 10}); err == nil || !strings.Contains(err.Error(), "minimum") {
		t.Fatalf("Run with 10 lines: %v", err)
	}
}

func TestReadFSFacts(t *testing.T) {
	dir := t.TempDir()
	mi := filepath.Join(dir, "mountinfo")
	os.WriteFile(mi, []byte(`21 1 0:20 / / rw,relatime - overlay overlay rw,lowerdir=/l,upperdir=/u,workdir=/w
30 21 8:1 /volumes/run/_data /run/logbench rw,nosuid,nodev,noexec,relatime master:1 - ext4 /dev/sda1 rw,errors=remount-ro
31 21 0:30 / /run/logbench\040old rw shared:2 - tmpfs tmpfs rw,size=1024k
32 30 0:31 / /run/logbench/sub rw - tmpfs tmpfs rw
33 21 8:1 / /run/logbench rw,relatime - xfs /dev/sdb rw,attr2
`), 0o644)
	for _, tc := range []struct{ dir, mount, fs, opts string }{
		{"/run/logbench", "/run/logbench", "xfs", "rw,relatime"}, // the later mount hides the earlier
		{"/run/logbench/x/y", "/run/logbench", "xfs", "rw,relatime"},
		{"/run/logbench/sub", "/run/logbench/sub", "tmpfs", "rw"},
		{"/run/logbench old", "/run/logbench old", "tmpfs", "rw"},
		{"/run/logbenchx", "/", "overlay", "rw,relatime"},
	} {
		f, err := ReadFSFacts(mi, tc.dir)
		if err != nil {
			t.Fatal(err)
		}
		if f.Dir != tc.dir || f.MountPoint != tc.mount || f.FSType != tc.fs || f.MountOptions != tc.opts {
			t.Errorf("%s: %+v", tc.dir, f)
		}
	}
	f, _ := ReadFSFacts(mi, "/run/logbench/sub")
	if f.Source != "tmpfs" || f.SuperOptions != "rw" {
		t.Errorf("%+v", f)
	}
	if _, err := ReadFSFacts(filepath.Join(dir, "none"), "/"); err == nil {
		t.Error("no error for a missing mountinfo")
	}
}

// TestTheCommandLineDefaultsAreTheConfiguration: the program's flags default to
// DefaultConfig, the first Go library and its own line, and every flag reaches the
// configuration.
func TestTheCommandLineDefaultsAreTheConfiguration(t *testing.T) {
	want := DefaultConfig("/run/logbench")
	want.Library, want.Line = DefaultLibrary("go").ID, LineDefault
	a := DefaultArgs("/run/logbench")
	if have := ConfigOf(a); !reflect.DeepEqual(have, want) {
		t.Errorf("defaults: %+v, want %+v", have, want)
	}
	if a.Out != "-" {
		t.Errorf("out %q, want standard output", a.Out)
	}
	a = contract.LineCostArgs{Library: "zap", Line: LineJSON, Ways: Buffered + "," + Fsync, Lines: 1500, Trials: 3, Warmup: 2, Dir: "/d",
		QueueSize: 64, QueueFull: Drop}
	c := ConfigOf(a)
	if c.Library != "zap" || c.Line != LineJSON || !slices.Equal(c.Ways, []string{Buffered, Fsync}) || c.Lines != 1500 || c.Trials != 3 ||
		c.Warmup != 2 || c.Dir != "/d" || c.QueueSize != 64 || c.QueueFull != Drop || c.BufferBytes != DefaultBufferBytes {
		t.Errorf("%+v -> %+v", a, c)
	}
}
