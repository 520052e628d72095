package lab

import (
	"os"
	"path/filepath"

	"github.com/docker/go-units"
	"github.com/logbench/logbench/kit/experiment"
	"golang.org/x/sys/unix"
)

// bundleBytesPerRun is a generous estimate of what one run adds to a bundle (a 160-request
// run with a fast reader's timeline takes about 100 KB).
const bundleBytesPerRun = 1 << 20

// CheckDisk refuses a matrix whose bundle would not fit where it is to be written.
func CheckDisk(dir string, runs int) error {
	existing := dir
	for {
		if _, err := os.Stat(existing); err == nil {
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			return nil
		}
		existing = parent
	}
	free, err := FreeBytes(existing)
	if err != nil {
		return nil // no figure to check against; the writes themselves will tell
	}
	need := int64(runs)*bundleBytesPerRun + 64<<20
	if free < need {
		return experiment.Usagef("not enough free disk for the bundle at %s: %s free, %s needed for %d runs", dir, units.BytesSize(float64(free)), units.BytesSize(float64(need)), runs)
	}
	return nil
}

// FreeBytes is what the file system holding dir has free for this user; a variable so
// that a test can make the disk look full.
var FreeBytes = func(dir string) (int64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}
