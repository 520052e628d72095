package bundle

import (
	"archive/tar"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOpenArchiveRefusesBySizeBeforeReading: a tar header declaring more than a file of
// its name may hold is refused at once, with no byte of the file read (the body here
// is absent: a reader that tried would find the stream cut short).
func TestOpenArchiveRefusesBySizeBeforeReading(t *testing.T) {
	for _, tc := range []struct {
		name string
		size int64
	}{
		{"runs.csv", maxSmallFileBytes + 1},
		{ManifestFile, maxSmallFileBytes + 1},
		{SumsFile, maxSumsBytes + 1},
		{"requests.csv", maxFileBytes + 1},
		{"requests.csv", 511 << 20},
	} {
		path := filepath.Join(t.TempDir(), "b.tar.gz")
		f, _ := os.Create(path)
		zw := gzip.NewWriter(f)
		tw := tar.NewWriter(zw)
		tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: "b/", Mode: 0o755})
		tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: "b/" + tc.name, Mode: 0o644, Size: tc.size})
		tw.Flush()
		zw.Close()
		f.Close()
		start := time.Now()
		_, err := OpenArchive(path)
		if err == nil || !strings.Contains(err.Error(), "more than the") || strings.Contains(err.Error(), "truncated") {
			t.Errorf("%s of %d bytes: err = %v", tc.name, tc.size, err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: %v to refuse", tc.name, d)
		}
	}
}
