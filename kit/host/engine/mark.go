package engine

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// MarkLabel carries the kit's mark on every container and volume it creates: an
// HMAC-SHA256, under a key kept on this host, of the object's kind, its name and its
// run. Label alone is a plain value that anyone can copy onto a container of their
// own; the mark is bound to the object's own name, which the engine keeps unique, and
// cannot be made without the key. `logbench clean` removes only what carries a mark
// that verifies.
const MarkLabel = "io.logbench.mark"

// markVersion begins every mark, so that another scheme later is told apart.
const markVersion = "v1:"

// Kind is what the engine holds: a container or a volume.
type Kind string

const (
	KindContainer Kind = "container"
	KindVolume    Kind = "volume"
)

// keyFileName is the key's file in the user's configuration folder (see KeyPath).
const keyFileName = "logbench/engine-mark.key"

// keyBytes is the key's length: HMAC-SHA256's block is longer, its output as long.
const keyBytes = 32

// KeyPath is the file that holds this host's key: logbench/engine-mark.key in the
// user's configuration folder ($XDG_CONFIG_HOME, or ~/.config). It is made on first use,
// readable by the user alone.
func KeyPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no configuration folder for the kit's key (%w): set HOME or XDG_CONFIG_HOME", err)
	}
	return filepath.Join(dir, keyFileName), nil
}

// marker makes and checks marks under one key.
type marker struct{ key []byte }

// mark is the label value that proves an object of kind, named name, of run runID, the
// kit's.
func (m marker) mark(kind Kind, name, runID string) string {
	h := hmac.New(sha256.New, m.key)
	// NUL cannot occur in a kind, a name or a run ID: the three stay apart.
	io.WriteString(h, markVersion+string(kind)+"\x00"+name+"\x00"+runID)
	return markVersion + hex.EncodeToString(h.Sum(nil))
}

// check says why labels do not prove an object of kind named name the kit's, or "" when
// they do.
func (m marker) check(kind Kind, name string, labels map[string]string) string {
	got, ok := labels[MarkLabel]
	if !ok {
		return "no " + MarkLabel + " label"
	}
	if !hmac.Equal([]byte(got), []byte(m.mark(kind, name, labels[Label]))) {
		return "its " + MarkLabel + " does not match its name and run (a label copied from elsewhere, or made on another host or by another user)"
	}
	return ""
}

// labels are what the kit sets on an object of kind it creates named name for runID.
func (m marker) labels(kind Kind, name, runID string) map[string]string {
	return map[string]string{Label: runID, MarkLabel: m.mark(kind, name, runID)}
}

// OwnLabels are the labels the kit sets on a container or volume it creates, named
// name, for runID: Label, the run, and MarkLabel, the proof that the kit made it.
func (e *Engine) OwnLabels(kind Kind, name, runID string) (map[string]string, error) {
	m, err := e.marker()
	if err != nil {
		return nil, err
	}
	return m.labels(kind, name, runID), nil
}

// marker is the engine's marker, its key loaded (or made) on first use.
func (e *Engine) marker() (marker, error) {
	e.markOnce.Do(func() {
		if e.mark.key != nil {
			return // given (tests)
		}
		path, err := KeyPath()
		if err != nil {
			e.markErr = err
			return
		}
		e.mark.key, e.markErr = loadOrCreateKey(path)
	})
	return e.mark, e.markErr
}

// loadOrCreateKey reads the key at path, or makes it there on first use. Two
// invocations that start at once agree on one key: each writes its own in a private
// file, and only the first link to path succeeds.
func loadOrCreateKey(path string) ([]byte, error) {
	key, err := readKey(path)
	if !errors.Is(err, os.ErrNotExist) {
		return key, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("the kit's key: %w", err)
	}
	fresh := make([]byte, keyBytes)
	if _, err := rand.Read(fresh); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".engine-mark.*")
	if err != nil {
		return nil, fmt.Errorf("the kit's key: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.WriteString(hex.EncodeToString(fresh) + "\n")
	if err == nil {
		err = tmp.Chmod(0o600) // CreateTemp makes it 0600 already; said, not assumed
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		if err = os.Link(tmp.Name(), path); errors.Is(err, os.ErrExist) {
			err = nil // another invocation made it first: its key is the key
		}
	}
	if err != nil {
		return nil, fmt.Errorf("the kit's key %s: %w", path, err)
	}
	return readKey(path)
}

// readKey reads a key file, which must be a regular file of the user's alone holding
// 64 hex digits: a key others can read lets them make the kit's marks.
func readKey(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("the kit's key %s: %w", path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("the kit's key %s: %w", path, err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("the kit's key %s is not a regular file", path)
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("the kit's key %s can be read or written by others (mode %04o): chmod 600 %s", path, perm, path)
	}
	body, err := io.ReadAll(io.LimitReader(f, 2*keyBytes+2))
	if err != nil {
		return nil, fmt.Errorf("the kit's key %s: %w", path, err)
	}
	key, err := hex.DecodeString(strings.TrimSuffix(string(body), "\n"))
	if err != nil || len(key) != keyBytes {
		return nil, fmt.Errorf("the kit's key %s: want %d hex digits and a newline; move it away and the kit makes a new one (what the old key marked is then not the kit's to remove)", path, 2*keyBytes)
	}
	return key, nil
}
