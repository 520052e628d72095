// Package procinfo reads the calling process's privileges and limits as the kernel sees
// them, so that each container of a run can prove it was hardened and limited as the
// kit asked: its user, its effective capabilities, no_new_privs, whether its root file
// system is read-only, and its process limits (nofile, nproc, the pids controller's).
package procinfo

import (
	"os"
	"strconv"
	"strings"

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
	l := ReadLimits("/sys/fs/cgroup")
	f.Limits = &l
	return f
}

// ReadLimits reads the calling process's rlimits and its cgroup's pids.max under
// cgroupRoot (the pids controller's own mount under cgroup v1, the unified root under
// v2). Unlimited is -1; what cannot be read is 0.
func ReadLimits(cgroupRoot string) contract.Rlimits {
	var l contract.Rlimits
	var r unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_NOFILE, &r) == nil {
		l.NoFileSoft, l.NoFileHard = limit(r.Cur), limit(r.Max)
	}
	if unix.Getrlimit(unix.RLIMIT_NPROC, &r) == nil {
		l.NProcSoft, l.NProcHard = limit(r.Cur), limit(r.Max)
	}
	for _, p := range []string{cgroupRoot + "/pids/pids.max", cgroupRoot + "/pids.max"} {
		if v, ok := PidsMax(p); ok {
			l.PidsMax = v
			break
		}
	}
	return l
}

// PidsMax parses a pids.max file: a number, or "max" (-1).
func PidsMax(path string) (int64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	s := strings.TrimSpace(string(b))
	if s == "max" {
		return -1, true
	}
	v, err := strconv.ParseInt(s, 10, 64)
	return v, err == nil
}

func limit(v uint64) int64 {
	if v == unix.RLIM_INFINITY || v > 1<<62 {
		return -1
	}
	return int64(v)
}
