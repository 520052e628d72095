//go:build unix

package regular

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOpenRefusesAllButRegularFiles: a FIFO with no writer (which an ordinary open
// would wait on for ever), a device, a socket, a folder, and a link to any of them are
// refused, naming what they are; a link to a regular file is followed only when asked.
func TestOpenRefusesAllButRegularFiles(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("body"), 0o644)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	sock := filepath.Join(dir, "sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	link := func(name, target string) string {
		p := filepath.Join(dir, name)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	toFile, toFIFO, toZero := link("to-file", file), link("to-fifo", fifo), link("to-zero", "/dev/zero")
	for _, tc := range []struct {
		path  string
		links Links
		want  string // "" to be read
	}{
		{file, NoLinks, ""},
		{file, FollowLinks, ""},
		{toFile, FollowLinks, ""},
		{toFile, NoLinks, "a symbolic link, not a regular file"},
		{fifo, FollowLinks, "a FIFO (named pipe), not a regular file"},
		{toFIFO, FollowLinks, "a FIFO (named pipe), not a regular file"},
		{toFIFO, NoLinks, "a symbolic link, not a regular file"},
		{"/dev/zero", FollowLinks, "a character device, not a regular file"},
		{toZero, FollowLinks, "a character device, not a regular file"},
		{sock, FollowLinks, "a socket, not a regular file"},
		{dir, FollowLinks, "a folder, not a regular file"},
	} {
		done := make(chan struct{})
		var body []byte
		var err error
		go func() {
			body, err = ReadFile(tc.path, 1<<20, tc.links)
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(time.Minute): // a guard against a hang, far beyond any refusal
			t.Fatalf("%s: still reading after a minute", tc.path)
		}
		switch {
		case tc.want == "" && (err != nil || string(body) != "body"):
			t.Errorf("%s: %q, %v", tc.path, body, err)
		case tc.want != "" && (!errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s (follow %v): %v, want %q", tc.path, tc.links, err, tc.want)
		}
	}
}

func TestReadFileRefusesMoreThanItsLimit(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, []byte("12345"), 0o644)
	if _, err := ReadFile(file, 4, NoLinks); err == nil || !strings.Contains(err.Error(), "5 bytes, more than the 4") {
		t.Fatalf("err = %v", err)
	}
	if body, err := ReadFile(file, 5, NoLinks); err != nil || string(body) != "12345" {
		t.Fatalf("%q %v", body, err)
	}
}
