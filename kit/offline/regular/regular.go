// Package regular opens the files the offline commands are given (a bundle archive, a
// bundle's files, a key, a signature) only when they are regular files, and never
// blocks or reads endlessly on anything else: a FIFO would hang the command on open or
// read, a device (/dev/zero) would feed it without end, a socket cannot be read at all.
//
// The path is checked with lstat (stat when a symbolic link may be followed) before it
// is opened; it is opened non-blocking (a FIFO swapped in since cannot hang the open)
// and, where links are not followed, with O_NOFOLLOW; and the open file is checked
// again with fstat, and must be the file checked first, before a byte is read.
package regular

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is a path that names no regular file.
var ErrNotRegular = errors.New("not a regular file")

// Links says whether a symbolic link is followed to the regular file it names (a key
// linked from elsewhere), or refused (a file inside a bundle folder).
type Links bool

const (
	// FollowLinks follows a symbolic link; what it leads to must be a regular file.
	FollowLinks Links = true
	// NoLinks refuses a symbolic link.
	NoLinks Links = false
)

// Open opens path for reading if it is a regular file (see the package comment).
func Open(path string, links Links) (*os.File, fs.FileInfo, error) {
	stat := os.Lstat
	if links == FollowLinks {
		stat = os.Stat
	}
	before, err := stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !before.Mode().IsRegular() {
		return nil, nil, notRegular(path, before.Mode())
	}
	flags := os.O_RDONLY | nonBlock
	if links == NoLinks {
		flags |= noFollow
	}
	f, err := os.OpenFile(path, flags, 0)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, notRegular(path, info.Mode())
	}
	if !os.SameFile(before, info) {
		f.Close()
		return nil, nil, fmt.Errorf("%s: replaced while being opened: refused", path)
	}
	return f, info, nil
}

// ReadFile reads the regular file at path whole, refusing one of more than limit bytes
// before reading it, and one that grows past limit while it is read.
func ReadFile(path string, limit int64, links Links) ([]byte, error) {
	f, info, err := Open(path, links)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info.Size() > limit {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d it may have", path, info.Size(), limit)
	}
	body, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(body)) > limit {
		return nil, fmt.Errorf("%s: grew past %d bytes while being read", path, limit)
	}
	return body, nil
}

// notRegular says what path is instead.
func notRegular(path string, mode fs.FileMode) error {
	return fmt.Errorf("%s: %s, %w: refused without reading it", path, Kind(mode), ErrNotRegular)
}

// Kind names what a file mode is, for a message.
func Kind(mode fs.FileMode) string {
	switch {
	case mode.IsRegular():
		return "a regular file"
	case mode.IsDir():
		return "a folder"
	case mode&fs.ModeSymlink != 0:
		return "a symbolic link"
	case mode&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a block device"
	}
	return "a special file"
}
