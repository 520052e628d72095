package verify

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/logbench/logbench/kit/offline/bundle"
	"github.com/logbench/logbench/kit/offline/bundle/bundletest"
)

// tiny is the smallest real bundle: one condition, one round of 5 requests.
func tiny(t testing.TB) map[string][]byte {
	b := bundletest.New(bundletest.Options{Modes: []string{"json-queue"}, Readers: []string{"slow"}, Rounds: 1, Duration: 250 * time.Millisecond})
	dir := filepath.Join(t.TempDir(), "tiny")
	if err := b.Save(dir); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, name := range bundle.Names() {
		body, err := os.ReadFile(filepath.Join(dir, name))
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
		f.Add(m[bundle.ManifestFile], m[bundle.RunsFile], m[bundle.RequestsFile], m[bundle.ContainersFile], m[bundle.TimelineFile], m[bundle.ConditionsFile], []byte(nil))
	}
	add(func(map[string][]byte) {})
	add(func(m map[string][]byte) { m[bundle.RunsFile] = m[bundle.RunsFile][:len(m[bundle.RunsFile])/2] })
	add(func(m map[string][]byte) { m[bundle.RequestsFile] = []byte("run_id\n\"x") })
	add(func(m map[string][]byte) {
		m[bundle.ManifestFile] = []byte(`{"schema_version": 1, "parameters": {"rate_rps": 1e308, "duration_s": -1}}`)
	})
	f.Add(files[bundle.ManifestFile], files[bundle.RunsFile], files[bundle.RequestsFile], files[bundle.ContainersFile], files[bundle.TimelineFile], files[bundle.ConditionsFile], files[bundle.SumsFile])
	f.Fuzz(func(t *testing.T, manifest, runs, requests, containers, timeline, conditions, sums []byte) {
		data := map[string][]byte{
			bundle.ManifestFile: manifest, bundle.RunsFile: runs, bundle.RequestsFile: requests,
			bundle.ContainersFile: containers, bundle.TimelineFile: timeline, bundle.ConditionsFile: conditions,
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
		res := Verify(&bundle.Files{Name: "fuzz", Data: data})
		for _, p := range append(res.Problems, res.Notes...) {
			if strings.ContainsAny(p.String(), "\n\r") {
				t.Fatalf("a problem on more than one line: %q", p.String())
			}
		}
		if res.OK() && res.Bundle == nil {
			t.Fatal("OK, yet no bundle")
		}
		_ = res.Summary()
	})
}
