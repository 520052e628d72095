package archive

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// archived is a real bundle archive of the kit's, kept in results/.
const archived = "../../../results/2026-11-30-vm2/qps-final.tar.gz"

func readArchived(t *testing.T) (string, []File, []byte) {
	t.Helper()
	body, err := os.ReadFile(archived)
	if err != nil {
		t.Fatal(err)
	}
	folder, files, err := Read(bytes.NewReader(body), DefaultLimits)
	if err != nil {
		t.Fatalf("the archived bundle does not read: %v", err)
	}
	return folder, files, body
}

// member writes one gzip member holding a tar stream of the files; end says whether the
// tar stream is closed with its two zero blocks.
func member(t *testing.T, folder string, files []File, withDir, end bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	mtime := time.Unix(1_800_000_000, 0)
	if withDir {
		tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: folder + "/", Mode: 0o755, ModTime: mtime})
	}
	for _, f := range files {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: folder + "/" + f.Name, Mode: 0o644, Size: int64(len(f.Body)), ModTime: mtime}); err != nil {
			t.Fatal(err)
		}
		tw.Write(f.Body)
	}
	if end {
		tw.Close()
	} else {
		tw.Flush() // the last entry's padding, but no end blocks
	}
	zw.Close()
	return buf.Bytes()
}

// forge doubles the first data row's numbers of series.csv, then writes SHA256SUMS anew.
func forge(t *testing.T, files []File) []File {
	t.Helper()
	out := []File{}
	sums := map[string]string{}
	for _, f := range files {
		if f.Name == "SHA256SUMS" {
			continue
		}
		body := f.Body
		if f.Name == "series.csv" {
			body = append(bytes.Clone(body), []byte("# forged\n")...)
		}
		sum := sha256.Sum256(body)
		sums[f.Name] = hex.EncodeToString(sum[:])
		out = append(out, File{Name: f.Name, Body: body})
	}
	var names []string
	for n := range sums {
		names = append(names, n)
	}
	sort.Strings(names)
	var s strings.Builder
	for _, n := range names {
		fmt.Fprintf(&s, "%s  %s\n", sums[n], n)
	}
	return append(out, File{Name: "SHA256SUMS", Body: []byte(s.String())})
}

func TestReadRefusesWhatOtherReadersReadDifferently(t *testing.T) {
	folder, files, genuine := readArchived(t)
	forged := forge(t, files)
	// The first member holds the genuine files without the tar end blocks; the second,
	// the forged ones. tar xzf reads both members as one stream.
	twoMembers := append(member(t, folder, files, true, false), member(t, folder, forged, false, true)...)
	for _, tc := range []struct {
		name    string
		archive []byte
		want    string
	}{
		{"two gzip members", twoMembers, "the tar stream stops without its two zero end blocks and a second gzip member follows"},
		{"a second member after a complete one", append(bytes.Clone(genuine), member(t, folder, forged, false, true)...), "a second gzip member after the first gzip member"},
		{"trailing bytes", append(bytes.Clone(genuine), "trailing"...), "trailing bytes after the first gzip member (8 bytes)"},
		{"one zero byte after", append(bytes.Clone(genuine), 0), "trailing bytes after the first gzip member (1 bytes)"},
		{"no end blocks", member(t, folder, files, true, false), "without its two zero end blocks"},
		{"one end block", oneEndBlock(t, folder, files), "without its two zero end blocks"},
		{"bytes after the end blocks in the member", afterEnd(t, folder, files, []byte("forged")), "after the tar stream's end blocks, not all zero padding"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Read(bytes.NewReader(tc.archive), DefaultLimits)
			var ae *Error
			if !errors.As(err, &ae) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want one line with %q", err, tc.want)
			}
		})
	}
	// The zeros that pad a tar record are part of the tar stream: accepted.
	if _, got, err := Read(bytes.NewReader(afterEnd(t, folder, files, make([]byte, 8192))), DefaultLimits); err != nil || len(got) != len(files) {
		t.Fatalf("record padding: %d files, %v", len(got), err)
	}

	// The system tar reads the two-member archive as the forged bundle.
	if _, err := exec.LookPath("tar"); err != nil {
		t.Skip("no tar")
	}
	path := filepath.Join(t.TempDir(), "two.tar.gz")
	if err := os.WriteFile(path, twoMembers, 0o644); err != nil {
		t.Fatal(err)
	}
	dest := t.TempDir()
	if out, err := exec.Command("tar", "-xzf", path, "-C", dest).CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	series, err := os.ReadFile(filepath.Join(dest, folder, "series.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(series, []byte("# forged\n")) {
		t.Fatalf("tar unpacked the genuine series.csv; the test no longer shows the attack")
	}
}

func oneEndBlock(t *testing.T, folder string, files []File) []byte {
	t.Helper()
	var tarBuf bytes.Buffer
	tw := tar.NewWriter(&tarBuf)
	for _, f := range files {
		tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: folder + "/" + f.Name, Mode: 0o644, Size: int64(len(f.Body))})
		tw.Write(f.Body)
	}
	tw.Flush()
	tarBuf.Write(make([]byte, blockSize))
	return gz(tarBuf.Bytes())
}

// afterEnd is a complete tar stream with extra bytes after its end blocks, inside the
// one gzip member.
func afterEnd(t *testing.T, folder string, files []File, extra []byte) []byte {
	t.Helper()
	var tarBuf bytes.Buffer
	tw := tar.NewWriter(&tarBuf)
	tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: folder + "/", Mode: 0o755})
	for _, f := range files {
		tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: folder + "/" + f.Name, Mode: 0o644, Size: int64(len(f.Body))})
		tw.Write(f.Body)
	}
	tw.Close()
	tarBuf.Write(extra)
	return gz(tarBuf.Bytes())
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

func TestReadTakesWhatTarWrites(t *testing.T) {
	if _, err := exec.LookPath("tar"); err != nil {
		t.Skip("no tar")
	}
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "b"), 0o755)
	os.WriteFile(filepath.Join(dir, "b", "runs.csv"), []byte("run_id\nr1\n"), 0o644)
	// Modes set, not left to the umask.
	os.Chmod(filepath.Join(dir, "b"), 0o755)
	os.Chmod(filepath.Join(dir, "b", "runs.csv"), 0o644)
	path := filepath.Join(t.TempDir(), "b.tar.gz")
	// GNU tar's flags for the kit's owner (0:0), whoever runs the test.
	if out, err := exec.Command("tar", "--owner=0", "--group=0", "--numeric-owner", "-czf", path, "-C", dir, "b").CombinedOutput(); err != nil {
		t.Skipf("not a GNU tar: %v\n%s", err, out)
	}
	folder, files, err := ReadFile(path, DefaultLimits)
	if err != nil || folder != "b" || len(files) != 1 {
		t.Fatalf("%q %d %v", folder, len(files), err)
	}
	// As the owner is written by default: the name root and 0:0 (what tar as root
	// writes) is the kit's owner; any other is refused.
	if out, err := exec.Command("tar", "--owner=root:0", "--group=root:0", "-czf", path, "-C", dir, "b").CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	if _, _, err := ReadFile(path, DefaultLimits); err != nil {
		t.Fatalf("owned by root: %v", err)
	}
	if out, err := exec.Command("tar", "--owner=1000", "--group=1000", "--numeric-owner", "-czf", path, "-C", dir, "b").CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	if _, _, err := ReadFile(path, DefaultLimits); err == nil || !strings.Contains(err.Error(), "owner 1000:1000: refused") {
		t.Fatalf("owned by 1000: %v", err)
	}
}
