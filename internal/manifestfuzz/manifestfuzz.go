// Package manifestfuzz runs what the offline commands run (verify, compare, report,
// archive) on an archived bundle whose manifest.json is replaced by arbitrary bytes and
// whose SHA256SUMS is written again, so that a fuzz target reaches the manifest's
// readers and everything its parameters drive rather than stopping at a checksum.
//
// Any error, any problem is a fine answer to a bad manifest. A panic is not, nor work or
// memory that a claimed parameter makes grow: Run ends the process (and the fuzzer keeps
// the input) when the heap passes MaxHeapBytes or one input lasts MaxDuration, bounds
// far above what the archived bundles take (a tenth of a second and tens of MiB).
package manifestfuzz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/internal/forgery"
	"github.com/logbench/logbench/kit/experiment"
	"github.com/logbench/logbench/kit/experiments"
	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/compare"
	"github.com/logbench/logbench/kit/offline/printable"
)

// The bounds are generous, so that no busy machine reaches them: a bound passed is work
// that grew with what a manifest claims.
const (
	// MaxHeapBytes bounds the live heap during one input.
	MaxHeapBytes = 2 << 30
	// MaxDuration bounds one input's wall time, on a machine however busy.
	MaxDuration = 2 * time.Minute
)

// Base is an archived bundle unpacked once, whose manifest each input replaces.
type Base struct {
	dir   string
	files *bundle.Files
}

// Load reads the archived bundle at path (see LoadFiles).
func Load(tb testing.TB, path string) *Base {
	tb.Helper()
	return LoadFiles(tb, forgery.Open(tb, path))
}

// LoadFiles unpacks a bundle into a folder of the test's, once. The bundle must verify,
// so that an input close to its manifest reaches compare and archive too.
func LoadFiles(tb testing.TB, files *bundle.Files) *Base {
	tb.Helper()
	exp, err := experiments.Of(files)
	if err != nil {
		tb.Fatal(err)
	}
	if res := exp.Verify(files); !res.OK() {
		tb.Fatalf("%s does not verify: %v", files.Name, res.Problems[0])
	}
	dir := filepath.Join(tb.TempDir(), "base")
	if err := os.Mkdir(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	for name, body := range files.Data {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return &Base{dir: dir, files: files}
}

// Manifest is the archived bundle's own manifest.json.
func (b *Base) Manifest() []byte { return bytes.Clone(b.files.Data[bundle.ManifestFile]) }

// Run writes the bundle with manifest in place of its own and SHA256SUMS written again
// into a fresh folder named like the archived bundle, and takes it through what
// verify, compare, report and archive do, as cmd/logbench calls them.
func (b *Base) Run(t *testing.T, manifest []byte) {
	t.Helper()
	done := make(chan struct{})
	defer close(done)
	go watch(done, time.Now())
	b.run(t, manifest)
}

// watch ends the process, with every goroutine's stack, once a run lasts MaxDuration
// or the heap passes MaxHeapBytes: a fuzz worker that hangs is otherwise never
// reported, and one that runs out of memory takes the machine with it. The fuzzer
// keeps the input of a worker that ended.
func watch(done <-chan struct{}, start time.Time) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	for {
		select {
		case <-done:
			return
		case <-tick.C:
		}
		var why string
		metrics.Read(sample)
		if d := time.Since(start); d > MaxDuration {
			why = fmt.Sprintf("one manifest took %v, more than %v", d.Round(time.Second), MaxDuration)
		} else if heap := sample[0].Value.Uint64(); heap > MaxHeapBytes {
			why = fmt.Sprintf("one manifest made the heap hold %d MiB, more than %d MiB", heap>>20, MaxHeapBytes>>20)
		}
		if why != "" {
			debug.SetTraceback("all")
			panic(why)
		}
	}
}

func (b *Base) run(t *testing.T, manifest []byte) {
	work := t.TempDir()
	dir := filepath.Join(work, b.files.Name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	edited := &bundle.Files{Name: b.files.Name, Data: map[string][]byte{}}
	for name, body := range b.files.Data {
		edited.Data[name] = body
	}
	edited.Data[bundle.ManifestFile] = manifest
	forgery.Resum(edited)
	for name, body := range edited.Data {
		if name != bundle.ManifestFile && name != bundle.SumsFile {
			if err := os.Link(filepath.Join(b.dir, name), filepath.Join(dir, name)); err == nil {
				continue
			}
		}
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// verify
	files, err := bundle.Open(dir)
	if err != nil {
		return
	}
	exp, err := experiments.Of(files)
	if err != nil {
		return
	}
	res := exp.Verify(files)
	res.Name = dir
	for _, p := range append(res.Problems, res.Notes...) {
		if s := p.String(); strings.ContainsAny(s, "\n\r") {
			t.Errorf("a problem on more than one line: %q", s)
		}
	}
	if res.OK() {
		t.Logf("verifies: %s", firstLine(res.Summary()))
	} else {
		t.Logf("%d problems, the first: %s", len(res.Problems), res.Problems[0])
	}
	if res.OK() && res.Own == nil {
		t.Fatal("the bundle verifies, yet verification kept nothing of it")
	}

	// report: of a bundle read far enough, verified or not
	if res.Own != nil {
		var page bytes.Buffer
		src := []experiment.Source{{Label: b.files.Name, Result: res}}
		if err := exp.Report(&page, src, "fuzz"); err == nil {
			out := printable.Escape(page.String(), true)
			if err := os.WriteFile(filepath.Join(work, "report.html"), []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !res.OK() {
		return // compare and archive refuse a bundle that does not verify
	}

	// compare: with itself, with the published figures, alone where the bundle holds
	// its own reference
	self := experiment.Source{Label: b.files.Name, Result: res}
	other := experiment.Source{Label: b.files.Name + "#2", Result: res}
	for _, format := range compare.Formats {
		_ = exp.Compare(io.Discard, io.Discard, []experiment.Source{self, other}, experiment.CompareOptions{Format: format})
	}
	_ = exp.Compare(io.Discard, io.Discard, []experiment.Source{self}, experiment.CompareOptions{Published: true, Format: "text"})
	if exp.Info().Reference != "" {
		_ = exp.Compare(io.Discard, io.Discard, []experiment.Source{self}, experiment.CompareOptions{Format: "text"})
	}

	// archive: pack, read back, verify again
	var m bundle.Common
	if err := json.Unmarshal(files.Data[bundle.ManifestFile], &m); err != nil {
		t.Fatalf("the manifest verified, yet archive cannot read it: %v", err)
	}
	mtime := m.FinishedUTC
	if mtime.IsZero() {
		mtime = m.CreatedUTC
	}
	body, err := files.Archive(exp.Info().Layout, mtime)
	if err != nil {
		return
	}
	path := dir + ".tar.gz"
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := bundle.Open(path)
	if err != nil {
		t.Fatalf("the archive of a bundle that verifies does not read back: %v", err)
	}
	again, err := experiments.Of(back)
	if err != nil {
		t.Fatal(err)
	}
	if res := again.Verify(back); !res.OK() {
		t.Fatalf("verified as a folder, not as its archive: %v", res.Problems[0])
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
