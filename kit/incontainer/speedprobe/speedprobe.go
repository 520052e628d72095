// Package speedprobe times a fixed piece of CPU-bound work, the same bytes every time,
// on one thread: SHA-256 over Rounds passes of a fixed 1 MiB buffer (byte i is i mod
// 251). Run before and after each run's load in a container with the run's API limits,
// it tells a slower hour from a slower logger: its thread CPU time is the core's speed,
// and its wall time against the CPU time shows the limit's throttling apart.
package speedprobe

import (
	"crypto/sha256"
	"encoding/hex"
	"runtime"
	"time"

	"golang.org/x/sys/unix"

	"github.com/logbench/logbench/kit/contract"
)

// buffer is the probe's fixed input.
var buffer = func() []byte {
	b := make([]byte, 1<<20)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}()

// Run hashes rounds passes of the buffer on one locked thread and says how long it
// took: thread CPU time and wall time, and the digest, which is the same for the same
// rounds everywhere (a check that the work was done).
func Run(rounds int) contract.ProbeResult {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	h := sha256.New()
	wall0, cpu0 := time.Now(), threadCPU()
	for range rounds {
		h.Write(buffer)
	}
	sum := h.Sum(nil)
	cpu, wall := threadCPU()-cpu0, time.Since(wall0)
	return contract.ProbeResult{Bytes: int64(rounds) * int64(len(buffer)), CPUNanos: cpu, WallNanos: wall.Nanoseconds(), SHA256: hex.EncodeToString(sum)}
}

func threadCPU() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return ts.Nano()
}
