package contract

// The process limits the kit sets on every container, explicitly, so that a run does
// not depend on an engine's defaults. Podman, for one, sets nofile and nproc from its
// own configuration and fails to start a container whose limits exceed the host's hard
// ones ("error setting rlimits ... operation not permitted"). The values are within
// the kernel's default hard limit for open files (4096) and far under any host's
// process limit, and well above what any program of the kit uses: the busiest, the
// qps load generator, holds 2 descriptors per connection.
const (
	// DefaultNoFile is RLIMIT_NOFILE, soft and hard.
	DefaultNoFile = 4096
	// DefaultNProc is RLIMIT_NPROC, soft and hard. The kernel counts it per user across
	// the host, and every container of the kit runs as the same user.
	DefaultNProc = 4096
)

// NoFileFor is the open-file limit for a program that keeps conns connections open
// (two descriptors each, with room for files and the runtime): at least
// DefaultNoFile.
func NoFileFor(conns int) int64 {
	return max(DefaultNoFile, int64(2*conns+256))
}

// Rlimits are a process's limits as it reads them itself (getrlimit, and the pids
// controller of its cgroup). Zero means not read; -1 is unlimited.
type Rlimits struct {
	NoFileSoft int64 `json:"nofile_soft"`
	NoFileHard int64 `json:"nofile_hard"`
	NProcSoft  int64 `json:"nproc_soft"`
	NProcHard  int64 `json:"nproc_hard"`
	PidsMax    int64 `json:"pids_max"`
}
