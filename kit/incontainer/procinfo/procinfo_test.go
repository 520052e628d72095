package procinfo

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

func TestReadDescribesThisProcess(t *testing.T) {
	f := Read()
	if !f.Present || f.UID != os.Getuid() || f.GID != os.Getgid() {
		t.Fatalf("facts %+v", f)
	}
	// The test runs on a writable checkout: its root is not read-only.
	if f.RootReadOnly {
		t.Fatalf("root reported read-only: %+v", f)
	}
	if os.Getuid() == 0 && f.CapEffective == 0 {
		t.Fatalf("root without capabilities: %+v", f)
	}
}

func TestReadLimitsMatchesGetrlimitAndPidsMax(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(dir+"/pids", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/pids/pids.max", []byte("128\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var r unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &r); err != nil {
		t.Fatal(err)
	}
	l := ReadLimits(dir)
	if l.PidsMax != 128 || l.NoFileSoft != limit(r.Cur) || l.NoFileHard != limit(r.Max) || l.NProcSoft == 0 {
		t.Fatalf("limits %+v, getrlimit nofile %+v", l, r)
	}
	if err := os.WriteFile(dir+"/pids/pids.max", []byte("max\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if l := ReadLimits(dir); l.PidsMax != -1 {
		t.Fatalf("pids.max max read as %d, want -1", l.PidsMax)
	}
	if l := ReadLimits(t.TempDir()); l.PidsMax != 0 {
		t.Fatalf("no pids.max read as %d, want 0", l.PidsMax)
	}
}
