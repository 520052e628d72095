package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/logbench/logbench/kit/offline/archive"
)

// TestVerifyRefusesAnArchiveOfTwoMembers: the genuine qps bundle in a first gzip member
// without the tar end blocks, a forged series.csv in a second; and the genuine archive
// with bytes after it. Each is refused in one line.
func TestVerifyRefusesAnArchiveOfTwoMembers(t *testing.T) {
	const archived = "../../results/2026-11-30-vm2/qps-final.tar.gz"
	genuine, err := os.ReadFile(archived)
	if err != nil {
		t.Fatal(err)
	}
	folder, files, err := archive.Read(bytes.NewReader(genuine), archive.DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	member := func(entries []archive.File, withDir, end bool) []byte {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		tw := tar.NewWriter(zw)
		if withDir {
			tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: folder + "/", Mode: 0o755})
		}
		for _, f := range entries {
			tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: folder + "/" + f.Name, Mode: 0o644, Size: int64(len(f.Body))})
			tw.Write(f.Body)
		}
		if end {
			tw.Close()
		} else {
			tw.Flush()
		}
		zw.Close()
		return buf.Bytes()
	}
	forged := []archive.File{{Name: "series.csv", Body: []byte("run_id,second,requests\n")}}
	dir := t.TempDir()
	for name, tc := range map[string]struct {
		body []byte
		want string
	}{
		"two.tar.gz":      {append(member(files, true, false), member(forged, false, true)...), "a second gzip member follows"},
		"trailing.tar.gz": {append(bytes.Clone(genuine), "\x1b[2J"...), "trailing bytes after the first gzip member (4 bytes)"},
	} {
		body := tc.body
		path := filepath.Join(dir, name)
		os.WriteFile(path, body, 0o644)
		out, err := runApp(t, "verify", path)
		if err == nil || !strings.HasPrefix(out, "FAILED: "+path) || !strings.Contains(out, tc.want) || strings.Count(out, "\n") != 1 || strings.Contains(out, "\x1b") {
			t.Errorf("%s: %v\n%s", name, err, out)
		}
		t.Log(strings.TrimSpace(out))
	}
}
