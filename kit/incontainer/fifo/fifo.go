// Package fifo makes and measures the named pipe that carries the log from the API to
// the reader.
package fifo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// Make creates a named pipe at path; an existing named pipe is accepted as it is.
func Make(path string) error {
	err := unix.Mkfifo(path, 0o666)
	if errors.Is(err, fs.ErrExist) {
		info, statErr := os.Stat(path)
		if statErr == nil && info.Mode()&fs.ModeNamedPipe != 0 {
			return nil
		}
		return fmt.Errorf("%s exists and is not a named pipe", path)
	}
	if err != nil {
		return fmt.Errorf("mkfifo %s: %w", path, err)
	}
	// The umask may have narrowed the mode; the reader may run as another user.
	return os.Chmod(path, 0o666)
}

// Capacity returns the kernel's buffer size of an open pipe (F_GETPIPE_SZ).
func Capacity(f *os.File) (int64, error) {
	raw, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var size int
	var sizeErr error
	if err := raw.Control(func(fd uintptr) {
		size, sizeErr = unix.FcntlInt(fd, unix.F_GETPIPE_SZ, 0)
	}); err != nil {
		return 0, err
	}
	if sizeErr != nil {
		return 0, fmt.Errorf("F_GETPIPE_SZ: %w", sizeErr)
	}
	return int64(size), nil
}
