package fifostall_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/experiments/fifostall"

	"github.com/logbench/logbench/internal/fifostalltest"
	"github.com/logbench/logbench/kit/offline/bundle"
)

// tiny is the smallest real bundle: one condition, one round of 5 requests.
func tiny(t testing.TB) map[string][]byte {
	b := fifostalltest.New(fifostalltest.Options{Modes: []string{"json-queue"}, Readers: []string{"slow"}, Rounds: 1, Duration: 250 * time.Millisecond})
	dir := filepath.Join(t.TempDir(), "tiny")
	if err := fifostalltest.Save(b, dir); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, name := range fifostalltest.Names() {
		body, err := os.ReadFile(filepath.Join(dir, name))
		if errors.Is(err, fs.ErrNotExist) && (name == bundle.ProbeFile || name == bundle.PodFile) {
			continue // a bundle the speed probe did not run around, of an engine that keeps no Pods
		}
		if err != nil {
			t.Fatal(err)
		}
		files[name] = body
	}
	return files
}

// FuzzVerify feeds verification arbitrary file contents. With sums empty, SHA256SUMS is
// computed for whatever the files hold, so that the fuzzer reaches the parsers and the
// cross-file checks rather than stopping at a checksum. It must never panic, and every
// problem must stay one line.
func FuzzVerify(f *testing.F) {
	files := tiny(f)
	add := func(edit func(m map[string][]byte)) {
		m := map[string][]byte{}
		for k, v := range files {
			m[k] = slices.Clone(v)
		}
		edit(m)
		f.Add(m[bundle.ManifestFile], m[fifostall.RunsFile], m[fifostall.RequestsFile], m[fifostall.ContainersFile], m[fifostall.TimelineFile], m[fifostall.ConditionsFile], []byte(nil))
	}
	add(func(map[string][]byte) {})
	add(func(m map[string][]byte) {
		m[fifostall.RunsFile] = m[fifostall.RunsFile][:len(m[fifostall.RunsFile])/2]
	})
	add(func(m map[string][]byte) { m[fifostall.RequestsFile] = []byte("run_id\n\"x") })
	add(func(m map[string][]byte) {
		m[bundle.ManifestFile] = []byte(`{"schema_version": 1, "parameters": {"rate_rps": 1e308, "duration_s": -1}}`)
	})
	f.Add(files[bundle.ManifestFile], files[fifostall.RunsFile], files[fifostall.RequestsFile], files[fifostall.ContainersFile], files[fifostall.TimelineFile], files[fifostall.ConditionsFile], files[bundle.SumsFile])
	f.Fuzz(func(t *testing.T, manifest, runs, requests, containers, timeline, conditions, sums []byte) {
		data := map[string][]byte{
			bundle.ManifestFile: manifest, fifostall.RunsFile: runs, fifostall.RequestsFile: requests,
			fifostall.ContainersFile: containers, fifostall.TimelineFile: timeline, fifostall.ConditionsFile: conditions,
		}
		if len(sums) == 0 {
			var b strings.Builder
			for name, body := range data {
				s := sha256.Sum256(body)
				fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(s[:]), name)
			}
			sums = []byte(b.String())
		}
		data[bundle.SumsFile] = sums
		res := fifostall.Tabular.Verify(&bundle.Files{Name: "fuzz", Data: data})
		for _, p := range append(res.Problems, res.Notes...) {
			if strings.ContainsAny(p.String(), "\n\r") {
				t.Fatalf("a problem on more than one line: %q", p.String())
			}
		}
		if res.OK() && fifostalltest.Of(res) == nil {
			t.Fatal("OK, yet no bundle")
		}
		_ = res.Summary()
	})
}
