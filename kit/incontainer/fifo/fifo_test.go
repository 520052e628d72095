package fifo

import (
	"os"
	"path/filepath"
	"testing"
)

func TestMakeIsIdempotentAndReportsCapacity(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.fifo")
	if err := Make(path); err != nil {
		t.Fatal(err)
	}
	if err := Make(path); err != nil {
		t.Fatalf("second Make: %v", err)
	}
	// O_RDWR opens a FIFO without waiting for a peer on Linux.
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	size, err := Capacity(f)
	if err != nil || size < 4096 {
		t.Fatalf("capacity %d, %v", size, err)
	}
}

func TestMakeRefusesARegularFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.fifo")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Make(path); err == nil {
		t.Fatal("want an error for a regular file")
	}
}
