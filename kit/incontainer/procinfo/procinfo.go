// Package procinfo reads the calling process's privileges as the kernel sees them, so
// that each container of a run can prove it was hardened: its user, its effective
// capabilities, no_new_privs, and whether its root file system is read-only.
package procinfo

import (
	"os"

	"golang.org/x/sys/unix"

	"github.com/logbench/logbench/kit/contract"
)

// Read reads the calling process's facts. What cannot be read stays at its zero value.
func Read() contract.ProcessFacts {
	f := contract.ProcessFacts{Present: true, UID: os.Getuid(), GID: os.Getgid()}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if unix.Capget(&hdr, &data[0]) == nil {
		f.CapEffective = uint64(data[0].Effective) | uint64(data[1].Effective)<<32
	}
	if v, err := unix.PrctlRetInt(unix.PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0); err == nil {
		f.NoNewPrivs = v == 1
	}
	var st unix.Statfs_t
	if unix.Statfs("/", &st) == nil {
		f.RootReadOnly = st.Flags&unix.ST_RDONLY != 0
	}
	return f
}
