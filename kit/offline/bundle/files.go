package bundle

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/logbench/logbench/kit/offline/archive"
	"github.com/logbench/logbench/kit/offline/regular"
)

// Files are a bundle's files in memory, as read from a folder or an archive, before
// anything is believed: the input of verification.
type Files struct {
	Name string // the bundle's name: its folder's
	// Data holds every regular file found; which belong is the experiment's to say.
	Data map[string][]byte
	// Extra describes every entry that is not a regular file: "plots/ (a folder)",
	// "runs.csv (a symbolic link)".
	Extra []string
}

// maxEntries bounds the entries of a bundle folder or archive a reader takes.
const maxEntries = 64

// IsArchive says whether path names a bundle archive rather than a folder.
func IsArchive(path string) bool {
	return strings.HasSuffix(path, ".tar.gz") || strings.HasSuffix(path, ".tgz")
}

// Open reads a bundle from its folder, or from a .tar.gz archive of it without
// unpacking anything to disk.
func Open(path string) (*Files, error) {
	if IsArchive(path) {
		return OpenArchive(path)
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s: neither a bundle folder nor a .tar.gz archive", path)
	}
	return ReadFolder(path)
}

// OpenArchive reads a bundle from a .tar.gz archive of its folder (see archive.Read for
// what is refused).
func OpenArchive(path string) (*Files, error) {
	folder, files, err := archive.ReadFile(path, archive.Limits{MaxEntries: maxEntries, MaxFileBytes: maxFileBytes, MaxTotalBytes: maxBundleBytes, MaxBytesOf: MaxFileBytes})
	if err != nil {
		return nil, err
	}
	return FromArchive(folder, files), nil
}

// FromArchive takes an archive's files (the archive reader refuses anything but
// regular files).
func FromArchive(folder string, files []archive.File) *Files {
	out := &Files{Name: folder, Data: map[string][]byte{}}
	for _, f := range files {
		out.Data[f.Name] = f.Body
	}
	return out
}

// ReadFolder reads a bundle's regular files from dir. Other entries are named in Extra
// and not read; a symbolic link is never followed.
func ReadFolder(dir string) (*Files, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := &Files{Name: filepath.Base(filepath.Clean(dir)), Data: map[string][]byte{}}
	if len(entries) > maxEntries {
		return nil, fmt.Errorf("%s: %d entries, more than the %d a bundle may have", dir, len(entries), maxEntries)
	}
	var total int64
	for _, e := range entries {
		name := e.Name()
		switch t := e.Type(); {
		case t.IsDir():
			out.Extra = append(out.Extra, name+"/ (a folder)")
			continue
		case t&os.ModeSymlink != 0:
			out.Extra = append(out.Extra, name+" (a symbolic link)")
			continue
		case !t.IsRegular():
			out.Extra = append(out.Extra, name+" (not a regular file)")
			continue
		}
		body, err := readLimited(filepath.Join(dir, name), MaxFileBytes(name))
		if err != nil {
			return nil, err
		}
		if total += int64(len(body)); total > maxBundleBytes {
			return nil, fmt.Errorf("%s: the bundle's files add up to more than %d bytes", dir, maxBundleBytes)
		}
		out.Data[name] = body
	}
	return out, nil
}

// readLimited reads a regular file of at most limit bytes, without following a link
// that replaced it since it was listed, and without blocking on a FIFO that did.
func readLimited(path string, limit int64) ([]byte, error) {
	return regular.ReadFile(path, limit, regular.NoLinks)
}

// Archive packs the named files as a deterministic .tar.gz (see archive.Write) of one
// folder named like the bundle, in the order given (the experiment's). Any other entry
// is left out: verify a bundle before archiving it.
func (f *Files) Archive(names []string, mtime time.Time) ([]byte, error) {
	var files []archive.File
	for _, name := range names {
		if body, ok := f.Data[name]; ok {
			files = append(files, archive.File{Name: name, Body: body})
		}
	}
	return archive.Bytes(f.Name, files, mtime)
}
