package bundle

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestReadFolderReadsRegularFilesAndNamesTheRest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "b")
	files := map[string][]byte{ManifestFile: []byte("{}\n"), DataPackageFile: []byte("{}\n")}
	for _, name := range []string{"runs.csv", "requests.csv", "containers.csv", "timeline.csv", "conditions.csv"} {
		files[name] = []byte("run_id\nr1\n")
	}
	if err := WriteFiles(dir, files); err != nil {
		t.Fatal(err)
	}
	names := []string{ManifestFile, "runs.csv", "requests.csv", "containers.csv", "timeline.csv", "conditions.csv", DataPackageFile, SumsFile}
	os.Mkdir(filepath.Join(dir, "plots"), 0o755)
	os.Symlink("/etc/passwd", filepath.Join(dir, "passwd"))
	os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o644)
	f, err := ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(f.Extra)
	// Every regular file is read (which belong is the experiment's to say); what is not a
	// regular file is named and never followed.
	if _, read := f.Data["notes.txt"]; f.Name != "b" || len(f.Data) != 9 || !read || strings.Join(f.Extra, "|") != "passwd (a symbolic link)|plots/ (a folder)" {
		t.Fatalf("name %q, %d files, extra %q", f.Name, len(f.Data), f.Extra)
	}
	// The archive of it reads back as the same files.
	body, err := f.Archive(names, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "b.tar.gz")
	os.WriteFile(path, body, 0o644)
	g, err := Open(path)
	if err != nil || g.Name != "b" || len(g.Data) != 8 || len(g.Extra) != 0 {
		t.Fatalf("%s: %d files, extra %v, %v", g.Name, len(g.Data), g.Extra, err)
	}
}

func TestReadFolderRefusesAnOversizedFile(t *testing.T) {
	dir := t.TempDir()
	// A sparse file: its size is all that matters, and it is refused before any read.
	f, err := os.Create(filepath.Join(dir, "requests.csv"))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Truncate(filepath.Join(dir, "requests.csv"), maxFileBytes+1); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFolder(dir); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("more than the %d it may have", maxFileBytes)) {
		t.Fatalf("err = %v", err)
	}
	if _, err := Open(filepath.Join(dir, "nothing-here")); err == nil {
		t.Fatal("no error for a missing bundle")
	}
}
