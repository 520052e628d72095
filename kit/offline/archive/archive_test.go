package archive

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var sample = []File{
	{Name: "manifest.json", Body: []byte("{}\n")},
	{Name: "runs.csv", Body: []byte("run_id\nr1\n")},
	{Name: "SHA256SUMS", Body: []byte("")},
}

func TestWriteThenReadRoundTrips(t *testing.T) {
	body, err := Bytes("20261130T100000Z-pi5", sample, time.Date(2026, 11, 30, 10, 0, 0, 5, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	folder, files, err := Read(bytes.NewReader(body), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if folder != "20261130T100000Z-pi5" {
		t.Fatalf("folder %q", folder)
	}
	if diff := cmp.Diff(sample, files, cmp.Comparer(func(a, b []byte) bool { return bytes.Equal(a, b) })); diff != "" {
		t.Fatalf("(-written +read):\n%s", diff)
	}
}

func TestWriteIsDeterministic(t *testing.T) {
	mtime := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	a, _ := Bytes("b", sample, mtime)
	b, _ := Bytes("b", sample, mtime.Add(999*time.Millisecond)) // the same second
	if !bytes.Equal(a, b) {
		t.Fatal("the same files gave different archives")
	}
	// The gzip header: no name (FLG 0), MTIME 0, unknown OS.
	if a[3] != 0 || !bytes.Equal(a[4:8], []byte{0, 0, 0, 0}) || a[9] != 255 {
		t.Fatalf("gzip header % x", a[:10])
	}
	zr, err := gzip.NewReader(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var names []string
	for {
		hdr, err := tr.Next()
		if err != nil {
			break
		}
		names = append(names, hdr.Name)
		wantMode := int64(FileMode)
		if hdr.Typeflag == tar.TypeDir {
			wantMode = FolderMode
		}
		if hdr.Uid != 0 || hdr.Gid != 0 || hdr.Uname != "" || hdr.Gname != "" || hdr.Mode != wantMode || !hdr.ModTime.Equal(mtime) {
			t.Errorf("header %+v", hdr)
		}
	}
	if diff := cmp.Diff([]string{"b/", "b/manifest.json", "b/runs.csv", "b/SHA256SUMS"}, names); diff != "" {
		t.Fatalf("order (-want +have):\n%s", diff)
	}
	// No time at all: the epoch.
	z, _ := Bytes("b", sample, time.Time{})
	zr, _ = gzip.NewReader(bytes.NewReader(z))
	hdr, _ := tar.NewReader(zr).Next()
	if hdr.ModTime.Unix() != 0 {
		t.Fatalf("mtime %v", hdr.ModTime)
	}
}

func TestSystemTarUnpacksIt(t *testing.T) {
	if _, err := exec.LookPath("tar"); err != nil {
		t.Skip("no tar")
	}
	path := filepath.Join(t.TempDir(), "b.tar.gz")
	body, _ := Bytes("b", sample, time.Unix(1_800_000_000, 0))
	os.WriteFile(path, body, 0o644)
	dest := t.TempDir()
	if out, err := exec.Command("tar", "-xzf", path, "-C", dest).CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	got, err := os.ReadFile(filepath.Join(dest, "b", "runs.csv"))
	if err != nil || string(got) != "run_id\nr1\n" {
		t.Fatalf("%q, %v", got, err)
	}
}

func TestWriteRefusesNamesThatAreNotPlain(t *testing.T) {
	for _, tc := range []struct {
		folder string
		files  []File
	}{
		{"", sample},
		{"..", sample},
		{"a/b", sample},
		{"b", []File{{Name: "../x"}}},
		{"b", []File{{Name: "x"}, {Name: "x"}}},
		{"b", []File{{Name: "a\nb"}}},
	} {
		if _, err := Bytes(tc.folder, tc.files, time.Time{}); err == nil {
			t.Errorf("%q %v: no error", tc.folder, tc.files)
		}
	}
}

// entry is one raw tar entry for a hostile archive.
type entry struct {
	hdr  tar.Header
	body string
}

func reg(name, body string) entry {
	return entry{tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644, Size: int64(len(body))}, body}
}

func dir(name string) entry {
	return entry{tar.Header{Typeflag: tar.TypeDir, Name: name, Mode: 0o755}, ""}
}

// raw writes entries as they are, with no checks: what an attacker would hand over.
func raw(t *testing.T, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		hdr := e.hdr
		if err := tw.WriteHeader(&hdr); err != nil {
			t.Fatal(err)
		}
		if hdr.Typeflag == tar.TypeReg {
			tw.Write([]byte(e.body))
		}
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

func TestReadRefusesHostileArchives(t *testing.T) {
	zeros := make([]byte, 4<<20)
	var bomb bytes.Buffer
	zw := gzip.NewWriter(&bomb)
	tw := tar.NewWriter(zw)
	tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: "b/big", Mode: 0o644, Size: int64(len(zeros))})
	tw.Write(zeros)
	tw.Close()
	zw.Close()
	good := raw(t, dir("b/"), reg("b/runs.csv", "run_id\n"), reg("b/manifest.json", "{}"))

	small := Limits{MaxEntries: 8, MaxFileBytes: 1 << 20, MaxTotalBytes: 2 << 20}
	for _, tc := range []struct {
		name    string
		archive []byte
		want    string
	}{
		{"dot-dot", raw(t, dir("b/"), reg("b/../evil", "x")), "entry \"b/../evil\": `..` in the path: refused"},
		{"dot-dot first", raw(t, reg("../evil", "x")), "entry \"../evil\": `..` in the path: refused"},
		{"absolute", raw(t, reg("/etc/cron.d/evil", "x")), `entry "/etc/cron.d/evil": an absolute path: refused`},
		{"symlink", raw(t, dir("b/"), entry{tar.Header{Typeflag: tar.TypeSymlink, Name: "b/runs.csv", Linkname: "/etc/passwd"}, ""}), `entry "b/runs.csv": a symbolic link (to "/etc/passwd"): refused`},
		{"hard link", raw(t, dir("b/"), entry{tar.Header{Typeflag: tar.TypeLink, Name: "b/runs.csv", Linkname: "b/x"}, ""}), `entry "b/runs.csv": a hard link (to "b/x"): refused`},
		{"device", raw(t, dir("b/"), entry{tar.Header{Typeflag: tar.TypeChar, Name: "b/tty", Devmajor: 5}, ""}), `entry "b/tty": a device: refused`},
		{"fifo", raw(t, dir("b/"), entry{tar.Header{Typeflag: tar.TypeFifo, Name: "b/log.fifo"}, ""}), `entry "b/log.fifo": a FIFO: refused`},
		{"two folders", raw(t, reg("a/runs.csv", "x"), reg("b/runs.csv", "x")), `entry "b/runs.csv": outside the folder "a": an archive holds one folder`},
		{"a top-level file", raw(t, reg("runs.csv", "x")), `entry "runs.csv": a file outside any folder`},
		{"a subfolder", raw(t, reg("b/sub/runs.csv", "x")), `entry "b/sub/runs.csv": in a subfolder: the folder is flat`},
		{"a duplicate", raw(t, reg("b/runs.csv", "x"), reg("b/runs.csv", "y")), `entry "b/runs.csv": appears twice`},
		{"not clean", raw(t, reg("b//runs.csv", "x")), `entry "b//runs.csv": not a clean path`},
		{"backslash", raw(t, reg(`b\..\evil`, "x")), "a backslash in the name: refused"},
		{"control character", raw(t, reg("b/a\x1b[2Jb", "x")), "has a control character"},
		{"too big a file", bomb.Bytes(), `entry "b/big": 4194304 bytes, more than the 1048576 a file may have`},
		{"too many entries", raw(t, reg("b/1", ""), reg("b/2", ""), reg("b/3", ""), reg("b/4", ""), reg("b/5", ""), reg("b/6", ""), reg("b/7", ""), reg("b/8", ""), reg("b/9", "")), "more than 8 entries"},
		{"truncated", good[:len(good)-30], "truncated"},
		{"not gzip", []byte("PK\x03\x04 a zip file"), "not a gzip stream"},
		{"empty", raw(t), "empty archive: no folder in it"},
		{"a flipped byte", flip(good, len(good)-6), "corrupt gzip stream"},
		{"setuid", raw(t, dir("b/"), withMode(reg("b/runs.csv", "x"), 0o4777)), `entry "b/runs.csv": mode 04777 has a setuid, setgid or sticky bit: refused`},
		{"setgid", raw(t, dir("b/"), withMode(reg("b/runs.csv", "x"), 0o2644)), "has a setuid, setgid or sticky bit"},
		{"a sticky folder", raw(t, withMode(dir("b/"), 0o1755)), `entry "b/": mode 01755 has a setuid, setgid or sticky bit`},
		{"a world-writable file", raw(t, dir("b/"), withMode(reg("b/runs.csv", "x"), 0o666)), "mode 0666: refused (the kit writes 0644 for a file)"},
		{"a world-writable folder", raw(t, withMode(dir("b/"), 0o777)), "mode 0777: refused (the kit writes 0755 for a folder)"},
		{"an executable file", raw(t, dir("b/"), withMode(reg("b/runs.csv", "x"), 0o755)), "mode 0755: refused"},
		{"a world-writable current folder", raw(t, withMode(dir("./"), 0o777), dir("./b/")), `entry "./": mode 0777: refused`},
		{"another type's bit", raw(t, dir("b/"), withMode(reg("b/runs.csv", "x"), 0o040644)), "mode 040644: refused"},
		{"a uid of 2^31", raw(t, dir("b/"), withOwner(reg("b/runs.csv", "x"), 1<<31, 0, "", "")), `entry "b/runs.csv": owner 2147483648:0: refused`},
		{"a gid", raw(t, withOwner(dir("b/"), 0, 1000, "", "")), "owner 0:1000: refused"},
		{"an owner's name", raw(t, dir("b/"), withOwner(reg("b/runs.csv", "x"), 0, 0, "postgres", "")), `owner named "postgres":"": refused`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Read(bytes.NewReader(tc.archive), small)
			if err == nil {
				t.Fatal("no error")
			}
			var ae *Error
			if !errors.As(err, &ae) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %q, want one line with %q", err, tc.want)
			}
		})
	}
	// A leading "./" (tar czf x.tar.gz ./b) is only a spelling.
	folder, files, err := Read(bytes.NewReader(raw(t, dir("./"), dir("./b/"), reg("./b/runs.csv", "x"))), small)
	if err != nil || folder != "b" || len(files) != 1 || files[0].Name != "runs.csv" {
		t.Fatalf("%q %v %v", folder, files, err)
	}
}

func withMode(e entry, mode int64) entry {
	e.hdr.Mode = mode
	return e
}

func withOwner(e entry, uid, gid int, uname, gname string) entry {
	e.hdr.Uid, e.hdr.Gid, e.hdr.Uname, e.hdr.Gname = uid, gid, uname, gname
	return e
}

func flip(b []byte, at int) []byte {
	c := bytes.Clone(b)
	c[at] ^= 0xff
	return c
}
